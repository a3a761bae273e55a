import { DOMParser as XmlParser, parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { sectionBlocks } from './section-blocks';

const html = (body: string) => parseHTML(`<html><head><title>T</title></head><body>${body}</body></html>`).document as unknown as Document;
const xhtml = (body: string) =>
  new XmlParser().parseFromString(
    `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>T</title></head><body>${body}</body></html>`,
    'text/xml',
  ) as unknown as Document;
const heard = (doc: Document) => sectionBlocks(doc).blocks.map((b) => (b.kind === 'heading' ? `# ${b.text}` : b.line ? `| ${b.text}` : b.text));

describe('what a listener hears of a book section', () => {
  it.each([
    ['headings and paragraphs, the head left out', '<h1>Глава 1</h1><p>Первый абзац.</p><p>Второй.</p>', ['# Глава 1', 'Первый абзац.', 'Второй.']],
    ['a note mark by its type, and its footnote', '<p>Текст<a epub:type="noteref" href="#n1">1</a>.</p><aside epub:type="footnote" id="n1"><p>Сноска.</p></aside>', ['Текст.']],
    ['a note mark by its role', '<p>Text<a role="doc-noteref" href="#n1">[1]</a> goes on.</p>', ['Text goes on.']],
    ['a bare mark: a number linked inside superscript', '<p>Text<sup><a href="#fn2">2</a></sup> goes on.</p>', ['Text goes on.']],
    ['superscript that is not a note is read', '<p>E = mc<sup>2</sup></p>', ['E = mc2']],
    ['an image and its alt text', '<p>Before.</p><figure><img src="a.png" alt="A statue"/></figure><p>After.</p>', ['Before.', 'After.']],
    ['a page number', '<p>One.</p><span epub:type="pagebreak" title="14">14</span><p>Two.</p>', ['One.', 'Two.']],
    ['soft hyphens and zero-width characters inside words', '<p>beau\u00ADti\u00ADful sword\u200B-hilt</p>', ['beautiful sword-hilt']],
    ['a poem line by line', '<p class="stanza">Мороз и солнце;<br/>день чудесный!<br/></p><p>Prose.</p>', ['| Мороз и солнце;', '| день чудесный!', 'Prose.']],
    ['an FB2 title (a header) is a heading', '<section><header><h1 class="p">I</h1></header><p>Text.</p></section>', ['# I', 'Text.']],
    ['text loose in a section beside blocks', '<section>Loose words<p>A paragraph.</p>more loose</section>', ['Loose words', 'A paragraph.', 'more loose']],
    ['a bare mark: a number linked within the book, as a converter leaves it', '<p>Авроры<a href="#filepos1234">2</a>,</p>', ['Авроры,']],
    ['a MOBI’s mark: a number linked to a place in its text', '<p>Авроры<a filepos="0000001234">2</a>,</p>', ['Авроры,']],
    ['notes under a heading that is a paragraph of its own (a MOBI’s)', '<p>Prose.</p><p>notes</p><p>Примечания</p><p>1</p>', ['Prose.']],
    ['a link to the web with a number is read', '<p>See <a href="https://a.ru/">2</a> sites.</p>', ['See 2 sites.']],
    ['a page number without its type', '<p>One.</p><span id="page14">14</span><p>Two.</p><span class="pagenum">xii</span>', ['One.', 'Two.']],
    ['a number in an ordinary span is read', '<p>Chapter <span id="n">14</span></p>', ['Chapter 14']],
    ['notes under their heading, to the section’s end', '<p>Prose.</p><h2>Примечания</h2><p>1</p><p>Оперетта.</p>', ['Prose.']],
    ['a contents page (a converter’s)', '<h1>Table of Contents</h1><p><a href="a.html">The Statue</a></p><p><a href="b.html">The Swallow</a></p><p><a href="c.html">A Song</a></p>', []],
    ['a MOBI’s contents page: its heading in bold type, its links to places in its text', '<p><font size="5"><b>Table of Contents</b></font></p><p><a filepos=1011>Рассказы и стихи</a></p><p><a filepos=1187>Смерть чиновника</a></p><p><a filepos=2089>Зимнее утро</a></p><p><a filepos=3195>Апчхи</a></p><p><a filepos=3915>1</a></p>', []],
    ['a contents heading left alone', '<h1>Table of Contents</h1>', []],
    ['a page with a few links is read', '<p>Text with <a href="a.html">one</a>, <a href="b.html">two</a> and <a href="c.html">three</a> links in a long sentence.</p>', ['Text with one, two and three links in a long sentence.']],
    ['scripts and styles', '<style>p{}</style><script>var a</script><p>Only this.</p>', ['Only this.']],
  ])('%s (HTML)', (_name, body, expected) => {
    expect(heard(html(body))).toEqual(expected);
  });

  it('reads a section parsed as XML the same, its epub:type in its namespace', () => {
    const doc = xhtml('<h2>II</h2><p>Text<a epub:type="noteref" href="#n">1</a>.</p><aside epub:type="footnote"><p>Note.</p></aside><p>End.</p>');
    expect(heard(doc)).toEqual(['# II', 'Text.', 'End.']);
  });

  it('counts what it leaves out: the mark, the note, the alt text', () => {
    const { leftOutChars } = sectionBlocks(html('<p>A<a epub:type="noteref">1</a></p><aside epub:type="footnote">Note.</aside><img alt="Cat"/>'));
    expect(leftOutChars).toBe(1 + 5 + 3);
  });

  it('keeps each block with the element it came from', () => {
    const doc = html('<h1 id="c">Chapter</h1><p id="p">Text.</p>');
    expect(sectionBlocks(doc).blocks.map((b) => b.el.id)).toEqual(['c', 'p']);
  });
});
