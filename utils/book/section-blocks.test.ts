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
