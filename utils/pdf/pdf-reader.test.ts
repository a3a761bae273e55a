import { describe, expect, it } from 'vitest';
import type { PageHighlighter } from '../text/highlight';
import type { PdfBlock } from './layout';
import { PdfReader, selectionBlocks, type PdfView } from './pdf-reader';
import type { PdfText, TextBatch } from './pdf-text';

const block = (text: string, page: number): PdfBlock => ({ text, kind: 'paragraph', page, slices: [] });

/** A document of `pages` pages, one block each, given one page per batch (the first batch: pages `from`… as asked). */
function fakeText(pages: number): PdfText {
  return {
    pageCount: pages,
    async *batches(from: number, to: number): AsyncGenerator<TextBatch> {
      for (let p = from; p <= to; p++) yield { blocks: [block(`Страница ${p}.`, p)], leftOutChars: 3, more: p < to, lastPage: p };
    },
  } as unknown as PdfText;
}

function fakeView(opts: { page?: number; selection?: string } = {}): PdfView {
  const highlighter = { clear: () => undefined, show: () => true, following: true } as unknown as PageHighlighter;
  return { currentPage: () => opts.page ?? 1, selectionText: () => opts.selection ?? '', spansOf: () => null, showPage: async () => undefined, highlighter };
}

describe('PdfReader', () => {
  it('gives the first batch from the page in view, then the next ones in order, each only to a request that follows on', async () => {
    const reader = new PdfReader(fakeText(4), fakeView({ page: 2 }), () => 'Книга');
    const first = await reader.extract();
    expect(first).toMatchObject({ title: 'Книга', source: 'article', blocks: [{ text: 'Страница 2.' }], more: true, docPage: true, leftOutChars: 3 });
    // A request that does not follow on (a reading of this page before it reloaded, with 5 blocks) gets nothing,
    // takes nothing, and is told the rest cannot be given (never an end as if the document were whole).
    expect(await reader.more(5)).toEqual({ blocks: [], leftOutChars: 0, more: false, incomplete: true });
    expect((await reader.more(1)).blocks.map((b) => b.text)).toEqual(['Страница 3.']);
    // A restarted background that lost that answer asks again from where its plan stopped: given again.
    expect(await reader.more(1)).toEqual({ blocks: [{ text: 'Страница 3.', kind: 'paragraph' }], leftOutChars: 0, more: true });
    expect(await reader.more(2)).toEqual({ blocks: [{ text: 'Страница 4.', kind: 'paragraph' }], leftOutChars: 3, more: false });
    expect(await reader.more(3)).toEqual({ blocks: [], leftOutChars: 0, more: false });
    expect(await reader.more(2)).toMatchObject({ blocks: [{ text: 'Страница 4.' }], more: false });
  });

  it('two requests at once (one from a restarted background) get the same next batch, read once', async () => {
    const reader = new PdfReader(fakeText(4), fakeView(), () => 'Книга');
    await reader.extract();
    const [a, b] = await Promise.all([reader.more(1), reader.more(1)]);
    expect(a.blocks).toEqual(b.blocks);
    expect(a.blocks.map((x) => x.text)).toEqual(['Страница 2.']);
    expect((await reader.more(2)).blocks.map((x) => x.text)).toEqual(['Страница 3.']);
  });

  it('a new reading starts again: a request of the old one, answered late, adds nothing to it', async () => {
    const reader = new PdfReader(fakeText(4), fakeView(), () => 'Книга');
    await reader.extract();
    const late = reader.more(1);
    reader.nextRange = { from: 3, to: 3 };
    const again = await reader.extract();
    await late;
    expect(again.blocks.map((b) => b.text)).toEqual(['Страница 3.']);
    expect(again.more).toBeUndefined();
    // The new reading has one block: a request after it (and not after two) is answered.
    expect(await reader.more(2)).toEqual({ blocks: [], leftOutChars: 0, more: false, incomplete: true });
    expect(await reader.more(1)).toEqual({ blocks: [], leftOutChars: 0, more: false });
  });

  it('a page reloaded under a reading (a new reader, nothing extracted) says the rest cannot be given', async () => {
    const reader = new PdfReader(fakeText(4), fakeView(), () => 'Книга');
    expect(await reader.more(3)).toEqual({ blocks: [], leftOutChars: 0, more: false, incomplete: true });
  });

  it('a selection on the text layer is read instead, its hyphenated line ends joined', async () => {
    const reader = new PdfReader(fakeText(4), fakeView({ selection: 'Современное рас-\nпознавание речи.\nВторая строка.' }), () => 'Книга');
    expect(await reader.extract()).toMatchObject({ source: 'selection', blocks: [{ text: 'Современное распознавание речи.' }, { text: 'Вторая строка.' }] });
  });
});

describe('selectionBlocks', () => {
  it.each([
    ['одна строка', ['одна строка']],
    ['пере-\nнос', ['перенос']],
    ['Конец.\n\nНачало', ['Конец.', 'Начало']],
    ['северо-\nЗапад', ['северо-Запад']], // a compound's hyphen before a capital: kept
  ])('%j → %j', (text, blocks) => {
    expect(selectionBlocks(text).map((b) => b.text)).toEqual(blocks);
  });
});
