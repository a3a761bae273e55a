import { beforeEach, describe, expect, it, vi } from 'vitest';

const handlers = vi.hoisted(() => [] as string[]);
vi.mock('../messaging/content', () => ({ onPageRequest: (type: string) => void handlers.push(type) }));

import { answerPendingExtract } from './page-reader';
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
