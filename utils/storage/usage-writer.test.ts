import { describe, expect, it } from 'vitest';
import type { UsageEntry } from './usage-history';
import { usageWriter } from './usage-writer';

const entry = (n: number): UsageEntry => ({ time: n, title: `t${n}`, chars: n, costRub: '0.0001', requestId: `r${n}` });

/** A store whose reads and writes take a turn of the event loop each, as storage.local's do. */
function slowStore(start: UsageEntry[] = []) {
  let list = start;
  const tick = () => new Promise((r) => setTimeout(r, 1));
  return {
    get list() {
      return list;
    },
    get: async () => (await tick(), list),
    set: async (next: UsageEntry[]) => {
      await tick();
      list = next;
    },
  };
}

describe('usageWriter: one writer for the history', () => {
  it('a clear made while appends are under way is never undone by them', async () => {
    const store = slowStore([entry(1), entry(2)]);
    const history = usageWriter(store, () => undefined);
    const writes = [history.append(entry(3)), history.clear(), history.append(entry(4))];
    await Promise.all(writes);
    expect(store.list.map((e) => e.chars)).toEqual([4]);
  });

  it('appends made at once all land, in order', async () => {
    const store = slowStore();
    const history = usageWriter(store, () => undefined);
    await Promise.all([1, 2, 3, 4, 5].map((n) => history.append(entry(n))));
    expect(store.list.map((e) => e.chars)).toEqual([1, 2, 3, 4, 5]);
  });

  it('a refused write is reported, once, and the next good write clears the report', async () => {
    const store = slowStore();
    const reports: boolean[] = [];
    let full = true;
    const history = usageWriter(
      { get: store.get, set: async (l) => (full ? Promise.reject(new Error('QUOTA_BYTES quota exceeded')) : store.set(l)) },
      (yes) => reports.push(yes),
    );
    await expect(history.append(entry(1))).rejects.toThrow('QUOTA');
    await expect(history.append(entry(2))).rejects.toThrow('QUOTA');
    full = false;
    await history.append(entry(3));
    await history.append(entry(4));
    expect(reports).toEqual([true, false]);
  });
});
