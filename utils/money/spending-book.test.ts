import { describe, expect, it } from 'vitest';
import { parseRub } from './money';
import { SpendingBook } from './spending-book';
import { spentOn, type SpendingTotals, withSpent } from './totals';

const rub = (s: string) => parseRub(s)!;

describe('spending totals', () => {
  it.each<[string, SpendingTotals | null, string, string, string]>([
    ['nothing kept', null, '2026-11-28', '0', '0'],
    ['today', { day: '2026-11-28', dayRub: '1.5000', month: '2026-11', monthRub: '4.0000' }, '2026-11-28', '1.5', '4'],
    ['the next day of the month', { day: '2026-11-28', dayRub: '1.5000', month: '2026-11', monthRub: '4.0000' }, '2026-11-29', '0', '4'],
    ['the next month', { day: '2026-11-30', dayRub: '1.5000', month: '2026-11', monthRub: '4.0000' }, '2026-12-01', '0', '0'],
  ])('%s', (_name, totals, today, day, month) => {
    expect(spentOn(totals, today)).toEqual({ day: rub(day), month: rub(month) });
  });

  it('a reservation given back never takes the totals below zero', () => {
    expect(spentOn(withSpent(null, '2026-11-28', -5n), '2026-11-28')).toEqual({ day: 0n, month: 0n });
  });
});

function book(opts: { stored?: SpendingTotals | null; fail?: 'load' | 'save'; seed?: string } = {}) {
  const store = { totals: opts.stored ?? null, writes: 0, fail: opts.fail };
  let now = Date.parse('2026-11-28T12:00:00Z');
  const b = new SpendingBook(
    {
      load: async () => {
        if (store.fail === 'load') throw new Error('unreadable');
        return store.totals;
      },
      save: async (t) => {
        if (store.fail === 'save') throw new Error('full');
        store.writes++;
        store.totals = t;
      },
      seed: async () => ({ day: rub(opts.seed ?? '0'), month: rub(opts.seed ?? '0') }),
    },
    () => now,
    (t) => new Date(t).toISOString().slice(0, 10),
  );
  return { b, store, later: (ms: number) => (now += ms) };
}

describe('SpendingBook: reserved before a request, settled on its receipt', () => {
  it('starts once from the usage history, then keeps its own totals', async () => {
    const { b, store } = book({ seed: '0.52' });
    await b.ready;
    expect(b.spent()).toEqual({ day: rub('0.52'), month: rub('0.52') });
    await expect.poll(() => store.totals?.dayRub).toBe('0.5200');
  });

  it('a reservation counts at once; its receipt replaces it with what was billed; a request not billed gives it back', async () => {
    const { b, store } = book();
    await b.ready;
    const first = b.reserve(rub('0.30'));
    const second = b.reserve(rub('0.20'));
    expect(b.spent().day).toBe(rub('0.50'));
    expect(await first.written).toBe(true);
    await b.settle(first, rub('0.29'));
    await b.release(second);
    expect(b.spent()).toEqual({ day: rub('0.29'), month: rub('0.29') });
    expect(store.totals).toEqual({ day: '2026-11-28', dayRub: '0.2900', month: '2026-11', monthRub: '0.2900' });
  });

  it('settled after midnight: only the bill counts, on the new day', async () => {
    const { b, later } = book();
    await b.ready;
    const r = b.reserve(rub('0.30'));
    later(24 * 3600_000);
    await b.settle(r, rub('0.29'));
    expect(b.spent().day).toBe(rub('0.29'));
  });

  it.each<[string, 'load' | 'save']>([
    ['totals that cannot be read are not known: not writable, whatever is written later', 'load'],
    ['a write that fails makes it not writable', 'save'],
  ])('%s', async (_name, fail) => {
    const { b } = book({ fail });
    await b.ready;
    const r = b.reserve(1n);
    expect(await r.written).toBe(fail === 'load');
    expect(b.writable).toBe(false);
  });
});
