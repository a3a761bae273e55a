import { describe, expect, it } from 'vitest';
import { askFirstDecision, type AskFirstFacts, askFirstReason } from './ask-first';
import { type Caps } from '../money/caps';
import { ReadingRun } from './run';
import { parseRub } from '../money/money';

const PRICE = '1500.0000';

describe('askFirstReason for an article read title first (its rest not counted yet)', () => {
  const price = parseRub(PRICE)!;
  const growingRun = (caps: Caps | null = null) => {
    const run = new ReadingRun('r1');
    run.growth.begin();
    run.purse.keepTo(caps);
    return run;
  };

  it.each<[string, number, string, Caps | null, boolean, string]>([
    ['the page bounds it under the threshold: nothing asked, nothing waited for', 6_000, '10', null, false, ''],
    ['the bound passes the threshold: the whole count decides', 7_000, '10', null, false, 'wait'],
    ['the bound passes a spending cap: the whole count decides', 6_000, '10', { day: parseRub('5')!, month: null }, false, 'wait'],
    ['a preview asked for: the whole is waited for', 6_000, '10', null, true, 'wait'],
  ])('%s', async (_name, boundChars, threshold, caps, previewFirst, expected) => {
    const run = growingRun(caps);
    let settled = 'wait';
    const reason = askFirstReason(run, { estimateChars: () => 30, price, threshold: parseRub(threshold)!, previewFirst, boundChars }).then((r) => (settled = r));
    // Every promise callback queued so far has run (no timer: the next turn of the event loop).
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(expected);
    // The whole counted (30 characters): the waiting ones go on.
    run.growth.stop();
    await reason;
    expect(settled).toBe(previewFirst ? 'preview' : '');
  });
});

describe('askFirstDecision: the rule alone', () => {
  // 1 ₽ at 1,500 ₽ a million: 666 characters. Rubles as strings here (a table's rows cannot hold bigints).
  type Row = Partial<Omit<AskFirstFacts, 'threshold' | 'caps'>> & { threshold?: string; dayCap?: string };
  const facts = ({ threshold, dayCap, ...f }: Row): AskFirstFacts => ({
    estimateChars: 100,
    growing: false,
    price: parseRub(PRICE)!,
    threshold: parseRub(threshold ?? '1')!,
    previewFirst: false,
    caps: dayCap ? { day: parseRub(dayCap)!, month: null } : null,
    spentAtStart: { day: 0n, month: 0n },
    ...f,
  });
  it.each<[string, Row, string]>([
    ['under the threshold, counted', {}, ''],
    ['over the threshold, counted', { estimateChars: 1_000 }, 'threshold'],
    ['a preview asked for', { previewFirst: true }, 'preview'],
    ['past a cap (and the threshold): the cap is the reason', { estimateChars: 2_000, dayCap: '2' }, 'budget'],
    ['still counted, under the threshold so far', { growing: true }, 'wait'],
    ['still counted, already over the threshold: asks now', { growing: true, estimateChars: 1_000 }, 'threshold'],
    ['still counted, past a cap so far: the whole is waited for', { growing: true, estimateChars: 2_000, dayCap: '2' }, 'wait'],
    ['title first, its page bounded under the threshold', { growing: true, boundChars: 600 }, ''],
    ['title first, its page could pass the threshold', { growing: true, boundChars: 700 }, 'wait'],
    ['title first, bounded, but a preview asked for', { growing: true, boundChars: 100, previewFirst: true }, 'wait'],
    ['title first, its bound past a cap', { growing: true, boundChars: 600, threshold: '100', dayCap: '0.5' }, 'wait'],
  ])('%s → %j', (_name, row, expected) => {
    expect(askFirstDecision(facts(row))).toBe(expected);
  });
});
