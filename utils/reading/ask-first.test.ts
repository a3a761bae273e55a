import { describe, expect, it } from 'vitest';
import { askFirstReason } from './ask-first';
import { type Caps } from '../money/caps';
import { ReadingRun } from './run';
import { parseRub } from '../money/money';

const PRICE = '1500.0000';

describe('askFirstReason for an article read title first (its rest not counted yet)', () => {
  const price = parseRub(PRICE)!;
  const growingRun = (caps: Caps | null = null) => {
    const run = new ReadingRun('r1');
    run.growOn();
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
    run.stopGrowing();
    await reason;
    expect(settled).toBe(previewFirst ? 'preview' : '');
  });
});
