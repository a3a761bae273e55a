import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { blocksOf } from './extract';
import { anchorOnPage } from './notes';

/** The blocks of `html` as read (the notes they point to, `notes`, are on the page, outside the article). */
function read(html: string, notes = '<ol><li id="fn1">Сноска.</li><li id="cite_note-3">Ref.</li><li id="n1">N.</li><li id="s2">S.</li></ol>') {
  const { document } = parseHTML(`<html><body><div id="root">${html}</div>${notes}</body></html>`);
  const found = blocksOf(document.getElementById('root') as unknown as Element);
  return { lines: found.blocks.map((b) => `${b.kind}: ${b.text}`), leftOut: found.leftOutChars };
}

describe("a note's mark, with no class to tell it, is left out (never glued to its word)", () => {
  it.each([
    ['a footnote link raised', '<p>Попасть в жернова<sup><a href="#fn1">1</a></sup> истории.</p>', 'paragraph: Попасть в жернова истории.'],
    ['before a full stop', '<p>Попасть в жернова<sup><a href="#fn1">1</a></sup>.</p>', 'paragraph: Попасть в жернова.'],
    ["a bracketed citation link (Wikipedia's, without its class)", '<p>Founded in 1840<a href="#cite_note-3">[3]</a>. It grew.</p>', 'paragraph: Founded in 1840. It grew.'],
    ['a bare number linked to an anchor named as a note', '<p>Founded in 1840<a href="#cite_note-3">3</a>. It grew.</p>', 'paragraph: Founded in 1840. It grew.'],
    ['a link of role doc-noteref', '<p>Text<a role="doc-noteref" href="#nowhere">7</a> more.</p>', 'paragraph: Text more.'],
    ["pandoc's mark (a raised number in a link)", '<p>Word<a href="#fn1" id="fnref1"><sup>1</sup></a> next.</p>', 'paragraph: Word next.'],
    ['a raised number in a link to any anchor of the page', '<p>Word<a href="#n1"><sup>1</sup></a> next.</p>', 'paragraph: Word next.'],
    ['an asterisk raised', '<p>Цена<sup>*</sup> указана без НДС.</p>', 'paragraph: Цена указана без НДС.'],
    ['a dagger, a double dagger and a section sign raised', '<p>Один<sup>†</sup>, два<sup>‡</sup> и три<sup>§</sup>.</p>', 'paragraph: Один, два и три.'],
    ['a bracketed number raised, no link', '<p>Source<sup>[2]</sup> says so.</p>', 'paragraph: Source says so.'],
    ["a note's back link, an arrow alone", '<p>Жернов — каменный круг.<a href="#fn1">↩</a></p>', 'paragraph: Жернов — каменный круг.'],
    ['a mark in a heading', '<h2>Глава<sup><a href="#fn1">2</a></sup></h2>', 'heading: Глава'],
    // The page's notes drawn by its script, loaded on demand, or cut from a saved copy: the anchor is named as a note.
    ['a footnote link raised, its note not on the page', '<p>Попасть в жернова<sup><a href="#fn7">1</a></sup> истории.</p>', 'paragraph: Попасть в жернова истории.'],
    ['a raised citation link, its note not on the page', '<p>Founded in 1840<sup><a href="#cite_note-12">12</a></sup>.</p>', 'paragraph: Founded in 1840.'],
    ["pandoc's mark, its note not on the page", '<p>Word<a href="#fn4" id="fnref4"><sup>4</sup></a> next.</p>', 'paragraph: Word next.'],
    ["Word's mark, its note not on the page", '<p>Текст<sup><a href="#_ftn3">3</a></sup> дальше.</p>', 'paragraph: Текст дальше.'],
  ])('%s', (_name, html, line) => {
    const found = read(html);
    expect(found.lines[0]).toBe(line);
    expect(found.leftOut).toBeGreaterThan(0);
  });

  it("LibreOffice's marks and their notes' back links, linked by name", () => {
    const html =
      '<p>Текст<a class="sdfootnoteanc" name="sdfootnote1anc" href="#sdfootnote1sym"><sup>1</sup></a> дальше.</p>' +
      '<div id="sdfootnote1"><p><a class="sdfootnotesym" name="sdfootnote1sym" href="#sdfootnote1anc">1</a> Примечание.</p></div>';
    expect(read(html, '').lines).toEqual(['paragraph: Текст дальше.', 'paragraph: Примечание.']);
  });
});

describe('superscripts and links that are text are read', () => {
  it.each([
    ['units and powers', '<p>Площадь 20 м<sup>2</sup>, объём 10<sup>3</sup>.</p>', 'paragraph: Площадь 20 м2, объём 103.'],
    ['a power in a formula', '<p>Сложность 2n<sup>2</sup>.</p>', 'paragraph: Сложность 2n2.'],
    ['a French ordinal', '<p>Le 1<sup>er</sup> mai.</p>', 'paragraph: Le 1er mai.'],
    ['an English ordinal', '<p>The 19<sup>th</sup> century.</p>', 'paragraph: The 19th century.'],
    ['a number linked to a section of the page', '<p>See section <a href="#s2">2</a> below.</p>', 'paragraph: See section 2 below.'],
    ['a link to a note on another page', '<p>Word<sup><a href="/notes#fn1">1</a></sup> next.</p>', 'paragraph: Word1 next.'],
    ['a raised number linked to an anchor not on the page, not named as a note', '<p>Глава<sup><a href="#sec9">1</a></sup> дальше.</p>', 'paragraph: Глава1 дальше.'],
    ['a raised word', '<p>Back to<sup><a href="#fn1">top</a></sup>.</p>', 'paragraph: Back totop.'],
    ['a number too long to be a mark', '<p>В году<sup><a href="#fn1">2024</a></sup>.</p>', 'paragraph: В году2024.'],
    ['an arrow linked elsewhere', '<p>Наверх <a href="/top">↑</a></p>', 'paragraph: Наверх ↑'],
    ['a number in brackets in the text', '<p>Список [1] и (2).</p>', 'paragraph: Список [1] и (2).'],
  ])('%s', (_name, html, line) => {
    expect(read(html).lines[0]).toBe(line);
  });
});

describe('anchorOnPage: the anchor of this page a link points to', () => {
  const here = ['https://example.com/article?id=5'];
  it.each<[string, string | null]>([
    ['#fn1', 'fn1'],
    ['https://example.com/article?id=5#fn1', 'fn1'],
    ['https://example.com/other#fn1', null],
    ['/notes#fn1', null],
    ['#', null],
    ['fn1', null],
    ['#missing', null],
    ['#%D1%81%D0%BD1', 'сн1'],
    ['#%E0%A4%A', null],
  ])('%j → %j', (href, id) => {
    expect(anchorOnPage(href, here, (a) => a === 'fn1' || a === 'сн1')).toBe(id);
  });
});
