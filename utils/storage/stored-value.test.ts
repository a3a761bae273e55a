import { describe, expect, it } from 'vitest';
import { followStored, type Watchable } from './stored-value';

/** An item whose first read answers only when the test says so, with the value it held when it was asked. */
function fakeItem<T>(initial: T | null) {
  let value = initial;
  const watchers = new Set<(v: T | null) => void>();
  let answerRead: () => void = () => undefined;
  const item: Watchable<T | null> = {
    getValue: () => {
      const seen = value;
      return new Promise((resolve) => (answerRead = () => resolve(seen)));
    },
    watch: (cb) => {
      watchers.add(cb);
      return () => watchers.delete(cb);
    },
  };
  return {
    item,
    set(v: T | null) {
      value = v;
      for (const cb of watchers) cb(v);
    },
    answerRead: async () => {
      answerRead();
      await Promise.resolve();
      await Promise.resolve();
    },
  };
}

describe('followStored', () => {
  it.each([
    { case: 'the read answers first, then a change', changeFirst: false, expected: ['extracting', 'error'] },
    { case: 'a change arrives before the read answers: the older read is dropped', changeFirst: true, expected: ['error'] },
  ])('$case', async ({ changeFirst, expected }) => {
    const f = fakeItem<string>('extracting');
    const shown: string[] = [];
    followStored(f.item, 'idle', (v) => shown.push(v ?? 'idle'));
    if (changeFirst) {
      f.set('error');
      await f.answerRead();
    } else {
      await f.answerRead();
      f.set('error');
    }
    expect(shown).toEqual(expected);
  });

  it('a removed value shows the fallback', async () => {
    const f = fakeItem<string>('playing');
    const shown: (string | null)[] = [];
    followStored(f.item, 'idle', (v) => shown.push(v));
    await f.answerRead();
    f.set(null);
    expect(shown).toEqual(['playing', 'idle']);
  });

  it('nothing is shown after the page stops following', async () => {
    const f = fakeItem<string>('playing');
    const shown: string[] = [];
    const stop = followStored(f.item, 'idle', (v) => shown.push(v ?? 'idle'));
    stop();
    await f.answerRead();
    f.set('stopped');
    expect(shown).toEqual([]);
  });
});
