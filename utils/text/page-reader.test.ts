import { beforeEach, describe, expect, it, vi } from 'vitest';

const handlers = vi.hoisted(() => [] as string[]);
vi.mock('../messaging/content', () => ({ NOT_AT: 'not-at-that-address', onPageRequest: (type: string) => void handlers.push(type) }));

import { answerPendingExtract, pageReader } from './page-reader';
import type { ExtractedText } from './extract';

const ANSWER: ExtractedText = { title: 'Заголовок', source: 'article', blocks: [{ text: 'Текст.', kind: 'paragraph' }] };

/** A reader as the extract script makes it; `fails`: its extraction throws. */
function reader(fails = false) {
  return {
    highlighter: {} as never,
    lastContextTarget: null,
    last: null,
    listening: false,
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
