import { parseHTML } from 'linkedom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const handlers = vi.hoisted(() => [] as string[]);
vi.mock('../messaging/content', () => ({ NOT_AT: 'not-at-that-address', onPageRequest: (type: string) => void handlers.push(type) }));

import { answerPendingExtract, pageReader } from './page-reader';
import type { ExtractedText } from '../text/extract';
import { hashOf } from '../storage/bounds';

const ANSWER: ExtractedText = { title: 'Заголовок', source: 'article', blocks: [{ text: 'Текст.', kind: 'paragraph' }] };

/** A reader as the extract script makes it; `fails`: its extraction throws. */
function reader(fails = false) {
  return {
    highlighter: {} as never,
    lastContextTarget: null,
    last: null,
    listening: false,
    rest: null,
    extract: () => {
      if (fails) throw new Error('broken page');
      return ANSWER;
    },
  };
}

describe('the extract script answering the request handed over with its injection', () => {
  beforeEach(() => {
    handlers.length = 0;
    globalThis.__trysashaPendingExtract = undefined;
  });

  it('answers first and installs the message handlers only in the task after the answer', () => {
    globalThis.__trysashaPendingExtract = { id: 'r1', request: { mode: 'normal' } };
    const later: Array<() => void> = [];
    const r = reader();
    expect(answerPendingExtract(r, (f) => later.push(f))).toEqual({ ...ANSWER, requestId: 'r1' });
    expect(handlers).toEqual([]);
    later.forEach((f) => f());
    expect(handlers).toEqual(['extract', 'highlight', 'clearHighlight']);
    // The request is taken once; a second injection adds no second set of handlers.
    expect(answerPendingExtract(r, (f) => f())).toBeNull();
    expect(handlers).toHaveLength(3);
  });

  it.each([
    ['no request was handed over', false, undefined],
    ['the extraction failed (asked again by message)', true, { id: 'r2', request: { mode: 'normal' as const } }],
  ])('installs the handlers at once when %s: the background asks by message next', (_name, fails, pending) => {
    globalThis.__trysashaPendingExtract = pending;
    const later = vi.fn();
    expect(answerPendingExtract(reader(fails), later)).toBeNull();
    expect(later).not.toHaveBeenCalled();
    expect(handlers).toEqual(['extract', 'highlight', 'clearHighlight']);
  });
});

describe("a request naming the page's address (a start that asks before looking the tab up)", () => {
  // The browser's PDF viewer as the page (its reader answers without running Readability).
  const page = { addEventListener() {}, contentType: 'application/pdf', title: 'Документ', location: { href: 'https://example.com/a', hostname: 'example.com' } };
  beforeEach(() => (globalThis.__trysashaPageReader = undefined));

  it.each([
    ['this page', 'https://example.com/a', true],
    ['this page by its hash (what the background keeps)', hashOf('https://example.com/a'), true],
    ["another page's hash", hashOf('https://example.com/b'), false],
    ['no address (the usual ask)', undefined, true],
    ['another address (the tab has moved on)', 'https://example.com/b', false],
    ['this page with another fragment', 'https://example.com/a#part-2', false],
  ])('named %s: answered: %s', (_name, at, answered) => {
    const r = pageReader(page as unknown as Document);
    const ask = () => r.extract({ mode: 'normal', ...(at === undefined ? {} : { at }) });
    if (answered) expect(ask()).toMatchObject({ title: 'Документ', blocks: [] });
    else expect(ask).toThrow('not-at-that-address');
  });
});

describe('an article answered title first', () => {
  beforeEach(() => (globalThis.__trysashaPageReader = undefined));
  afterEach(() => vi.unstubAllGlobals());

  it('answers with the title alone, and extracts the rest when the background takes it', async () => {
    vi.stubGlobal('NodeFilter', { SHOW_ELEMENT: 1, SHOW_TEXT: 4 });
    const paragraph = '<p>Длинный абзац статьи, в котором довольно много слов, запятых, и смысла, чтобы его взяли.</p>';
    const { document, Node } = parseHTML(`<html><head><title>Статья о реке и мосте</title></head><body><article><h1>Статья о реке и мосте</h1>${paragraph.repeat(8)}</article></body></html>`);
    vi.stubGlobal('Node', Node);
    Object.assign(document, { getSelection: () => null });
    const r = pageReader(document as unknown as Document);
    const answer = r.extract({ mode: 'normal', titleFirstMax: 100_000 });
    expect(answer).toMatchObject({ title: 'Статья о реке и мосте', blocks: [{ text: 'Статья о реке и мосте', kind: 'title' }], more: true });
    expect(r.last?.text.blocks).toHaveLength(1);
    // Nothing more is extracted until the background asks (the page's Readability would share the cores with the first audio).
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(r.last?.text.blocks).toHaveLength(1);
    const rest = r.rest!();
    expect(r.rest!()).toBe(rest);
    await expect(rest).resolves.toMatchObject({ blocks: Array(8).fill({ kind: 'paragraph' }).map((b) => expect.objectContaining(b)), leftOutChars: 0, more: false });
    // The highlight finds every block of the reading now.
    expect(r.last?.text.blocks).toHaveLength(9);
    // Asked whole (the menu, "from here"): answered whole at once, nothing kept for later.
    expect(r.extract({ mode: 'normal' }).blocks).toHaveLength(9);
    expect(r.rest).toBeNull();
  });

  it('a page that grew past its bound before the rest was extracted gives no rest (what was bounded is not what would be read)', async () => {
    vi.stubGlobal('NodeFilter', { SHOW_ELEMENT: 1, SHOW_TEXT: 4 });
    const paragraph = '<p>Длинный абзац статьи, в котором довольно много слов, запятых, и смысла, чтобы его взяли.</p>';
    const { document, Node } = parseHTML(`<html><head><title>Статья о реке и мосте</title></head><body><article><h1>Статья о реке и мосте</h1>${paragraph.repeat(8)}</article></body></html>`);
    vi.stubGlobal('Node', Node);
    const r = pageReader(document as unknown as Document);
    expect(r.extract({ mode: 'normal', titleFirstMax: 100_000 }).more).toBe(true);
    // The page's scripts add the rest of a long article meanwhile.
    document.querySelector('article')!.insertAdjacentHTML('beforeend', paragraph.repeat(40));
    await expect(r.rest!()).rejects.toThrow(/grew past/);
  });
});

describe('a request for the selection only (the script put in after its selection was read from the menu)', () => {
  beforeEach(() => (globalThis.__trysashaPageReader = undefined));
  afterEach(() => vi.unstubAllGlobals());

  it('answers the selection still there; with it gone (the listener clicked the page), answers nothing and keeps nothing, not the article', () => {
    vi.stubGlobal('NodeFilter', { SHOW_ELEMENT: 1, SHOW_TEXT: 4 });
    const { document, Node } = parseHTML(`<html><head><title>Статья</title></head><body><article>${'<p>Абзац статьи, длинный и связный, с запятыми.</p>'.repeat(12)}</article></body></html>`);
    vi.stubGlobal('Node', Node);
    let selected = 'Выделенная строка.';
    Object.assign(document, { getSelection: () => ({ toString: () => selected, rangeCount: 0 }) });
    const r = pageReader(document as unknown as Document);
    expect(r.extract({ mode: 'normal', selectionOnly: true })).toMatchObject({ source: 'selection', blocks: [{ text: 'Выделенная строка.' }] });
    expect(r.last?.text.source).toBe('selection');
    selected = '';
    r.last = null;
    expect(() => r.extract({ mode: 'normal', selectionOnly: true })).toThrow(/selection is gone/);
    expect(r.last).toBeNull();
  });
});
