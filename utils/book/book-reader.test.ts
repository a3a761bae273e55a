import { parseHTML } from 'linkedom';
import { describe, expect, it, vi } from 'vitest';
import { BookReader, blockAtAnchor, startKey, type BookSource, type BookStart, type BookView } from './book-reader';
import { sectionBlocks } from './section-blocks';
import { chaptersOf, flattenToc } from './toc';

const doc = (body: string) => parseHTML(`<html><body>${body}</body></html>`).document as unknown as Document;
/** A book of sections given as HTML bodies; `no` marks the non-linear ones. */
function source(bodies: string[], no: number[] = []): BookSource & { asked: number[] } {
  const asked: number[] = [];
  return {
    asked,
    sectionCount: bodies.length,
    linear: (s) => !no.includes(s),
    async text(s) {
      asked.push(s);
      const d = doc(bodies[s]!);
      return { ...sectionBlocks(d), doc: d };
    },
  };
}
const view = (): BookView => ({
  nodesOf: () => null,
  showSection: vi.fn(async () => undefined),
  selectionText: () => '',
  highlighter: { clear: () => undefined, show: () => true } as unknown as BookView['highlighter'],
});
const meta = () => ({ title: 'Book', site: 'Author' });
const urlOf = (start: BookStart) => `chrome-extension://x/book.html?book=1&start=${startKey(start)}`;
const texts = (blocks: { text: string }[]) => blocks.map((b) => b.text);

describe('a book read from the chapter chosen to its end', () => {
  const book = ['<h1>One</h1><p>a</p>', '<h1>Two</h1><p>b</p><h2 id="mid">Half</h2><p>c</p>', '<p>Answers</p>', '<img alt="x"/>', '<h1>Three</h1><p>d</p>'];

  it('gives the chosen section first, then each section after it, passing over the non-linear and the empty', async () => {
    const reader = new BookReader(source(book, [2]), view(), meta, urlOf);
    reader.nextStart = { section: 1 };
    const first = await reader.extract();
    expect(first).toMatchObject({ title: 'Book', site: 'Author', source: 'article', more: true, docPage: true, url: 'chrome-extension://x/book.html?book=1&start=s1.0' });
    expect(first.continuePlace).toBeUndefined();
    expect(texts(first.blocks)).toEqual(['Two', 'b', 'Half', 'c']);
    const next = await reader.more(4);
    // The picture's section has no text: its alt text is counted as left out, and the next section is given.
    expect(next).toMatchObject({ more: false, leftOutChars: 1 });
    expect(texts(next.blocks)).toEqual(['Three', 'd']);
    expect(await reader.more(6)).toEqual({ blocks: [], leftOutChars: 0, more: false });
  });

  it("marks the blocks its chapters begin with, in the first batch and in later ones (each begins a part: the sleep timer stops at a chapter's end)", async () => {
    // Chapters: section 1 at its start and at #mid; section 4 at its start.
    const chapters: Record<number, number[]> = { 1: [0, 2], 4: [0] };
    const reader = new BookReader(source(book, [2]), view(), meta, urlOf, async (s) => new Set(chapters[s] ?? []));
    reader.nextStart = { section: 1, chapter: 1 };
    const first = await reader.extract();
    expect(first.chapters).toBe(true);
    expect(first.blocks.map((b) => b.chapter === true)).toEqual([true, false, true, false]);
    const next = await reader.more(4);
    expect(next.blocks.map((b) => b.chapter === true)).toEqual([true, false]);
  });

  it('a reading begun at a paragraph inside a chapter: its first block is no chapter\'s start', async () => {
    const reader = new BookReader(source(book), view(), meta, urlOf, async (s) => new Set(s === 1 ? [0, 2] : []));
    reader.nextStart = { section: 1, block: 1 };
    const first = await reader.extract();
    expect(first.blocks.map((b) => [b.text, b.chapter === true])).toEqual([['b', false], ['Half', true], ['c', false]]);
  });

  it('starts at the anchor of a chapter inside a section', async () => {
    const reader = new BookReader(source(book, [2]), view(), meta, urlOf);
    reader.nextStart = { section: 1, anchor: (d) => d.getElementById('mid') };
    expect(texts((await reader.extract()).blocks)).toEqual(['Half', 'c']);
  });

  it('starts at the paragraph clicked', async () => {
    const reader = new BookReader(source(book), view(), meta, urlOf);
    reader.nextStart = { section: 1, block: 3 };
    expect(texts((await reader.extract()).blocks)).toEqual(['c']);
  });

  it('names the reading by its book and its start, the same each time, and asks to go on when continuing', async () => {
    const reader = new BookReader(source(book), view(), meta, urlOf);
    reader.nextStart = { section: 1, chapter: 4 };
    const once = await reader.extract();
    reader.nextStart = { section: 1, chapter: 4, continuePlace: true };
    const again = await reader.extract();
    expect(again.url).toBe(once.url);
    expect(again.url).toMatch(/start=c4$/);
    expect(again.continuePlace).toBe(true);
  });

  it('reads a non-linear section when it is the one chosen, then goes on in the reading order', async () => {
    const reader = new BookReader(source(book, [2]), view(), meta, urlOf);
    reader.nextStart = { section: 2 };
    expect(texts((await reader.extract()).blocks)).toEqual(['Answers']);
    expect(texts((await reader.more(1)).blocks)).toEqual(['Three', 'd']);
  });

  it('gives again what a restarted background lost, and nothing to a reading that was replaced', async () => {
    const reader = new BookReader(source(book), view(), meta, urlOf);
    reader.nextStart = { section: 0 };
    await reader.extract();
    const second = await reader.more(2);
    expect(texts((await reader.more(2)).blocks)).toEqual(texts(second.blocks));
    reader.nextStart = { section: 4 };
    const late = reader.more(6);
    await reader.extract();
    expect(await late).toMatchObject({ blocks: [], incomplete: true });
  });

  it('a selection on the page is read alone', async () => {
    const v = { ...view(), selectionText: () => 'Selected words.' };
    const reader = new BookReader(source(book), v, meta, urlOf);
    const got = await reader.extract();
    expect(got).toMatchObject({ source: 'selection', blocks: [{ text: 'Selected words.' }] });
  });

  it('shows the section of a block being read when the page shows another', async () => {
    const v = view();
    const reader = new BookReader(source(book), v, meta, urlOf);
    reader.nextStart = { section: 0 };
    await reader.extract();
    expect(reader.highlight(0, 'One')).toBe(true);
    expect(v.showSection).toHaveBeenCalledWith(0);
    expect(reader.highlight(99, 'x')).toBe(false);
  });

  it('leaves out the rest of notes a section ended in (a MOBI split where its pages break), and goes on after them', async () => {
    const reader = new BookReader(source(['<h1>One</h1><p>a</p><p>Примечания</p>', '<p>1</p><p>Note one.</p>', '<h1>Two</h1><p>b</p>']), view(), meta, urlOf);
    reader.nextStart = { section: 0 };
    expect(texts((await reader.extract()).blocks)).toEqual(['One', 'a']);
    const rest = await reader.more(2);
    expect(texts(rest.blocks)).toEqual(['Two', 'b']);
    expect(rest.leftOutChars).toBe('1'.length + 'Note one.'.length);
  });

  it('finds the first block at or after an anchor', () => {
    const d = doc('<p id="a">x</p><div id="b"></div><p id="c">y</p>');
    const { blocks } = sectionBlocks(d);
    expect(blockAtAnchor(blocks, d.getElementById('b'))).toBe(1);
    expect(blockAtAnchor(blocks, d.getElementById('a'))).toBe(0);
    expect(blockAtAnchor(blocks, null)).toBe(0);
  });
});

describe('the table of contents as the listener picks from it', () => {
  const toc = [
    { label: ' Part  One ', href: 'p1.xhtml', subitems: [{ label: 'Chapter 1', href: 'p1.xhtml#c1' }, { label: 'Chapter 2', href: 'c2.xhtml' }] },
    { label: 'Nowhere', href: 'gone.xhtml' },
    { label: 'Notes', href: 'notes.xhtml' },
  ];
  it('flattens nested entries in reading order, with their depth', () => {
    expect(flattenToc(toc).map((e) => [e.label, e.depth])).toEqual([
      ['Part One', 0],
      ['Chapter 1', 1],
      ['Chapter 2', 1],
      ['Nowhere', 0],
      ['Notes', 0],
    ]);
  });
  it('keeps the entries that resolve to a section, and marks the non-linear', async () => {
    const files = ['p1.xhtml', 'c2.xhtml', 'notes.xhtml'];
    const resolve = (href: string) => {
      const index = files.indexOf(href.split('#')[0]!);
      return index < 0 ? null : { index, anchor: () => null };
    };
    const chapters = await chaptersOf(flattenToc(toc), [{}, {}, { linear: 'no' }], resolve, (n) => `Section ${n}`);
    expect(chapters.map((c) => [c.label, c.section, c.nonLinear])).toEqual([
      ['Part One', 0, false],
      ['Chapter 1', 0, false],
      ['Chapter 2', 1, false],
      ['Notes', 2, true],
    ]);
  });
  it('names a section a chapter each when the book has no contents', async () => {
    const chapters = await chaptersOf([], [{}, { linear: 'no' }, {}], () => null, (n) => `Section ${n}`);
    expect(chapters.map((c) => [c.label, c.section])).toEqual([
      ['Section 1', 0],
      ['Section 3', 2],
    ]);
  });
});

describe('what a book tells the reading of its cost before it is counted', () => {
  const book = ['<h1>One</h1><p>a</p>', '<h1>Two</h1><p>b</p>', '<h1>Three</h1><p>c</p>'];
  const sized = (bodies: string[]): BookSource => ({ ...source(bodies), mostChars: (s) => 1000 - s });

  it.each([
    ['from a chapter, with more to come: the most from that section on', { section: 1 }, '', 999],
    ['from the last section (nothing more to count): nothing', { section: 2 }, '', undefined],
    ['a selection: nothing (it is counted whole)', { section: 0 }, 'a', undefined],
  ])('%s', async (_name, start, selected, expected) => {
    const reader = new BookReader(sized(book), { ...view(), selectionText: () => selected }, meta, urlOf);
    reader.nextStart = start;
    expect((await reader.extract()).mostChars).toBe(expected);
  });

  it('a book that cannot tell (a MOBI) gives nothing', async () => {
    const reader = new BookReader(source(book), view(), meta, urlOf);
    reader.nextStart = { section: 0 };
    expect((await reader.extract()).mostChars).toBeUndefined();
  });
});
