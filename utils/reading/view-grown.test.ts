import { describe, expect, it } from 'vitest';
import { parseRub } from '../money/money';
import { grownView } from './view';
import type { ReadingView } from './state';

const PRICE = parseRub('1500.0000')!; // 1,500 ₽ a million characters
const view = (v: Partial<Pick<ReadingView, 'savedChars' | 'balanceRub' | 'notice'>> = {}) => ({ savedChars: 0, balanceRub: '100.0000', notice: { code: '' as const, count: 0 }, ...v });
const batch = (b: Partial<Parameters<typeof grownView>[1]> = {}) => ({ leftOutChars: 0, silentChars: 0, skippedWords: 0, more: true, ...b });

describe('grownView: what one counted batch of a PDF shows', () => {
  it.each<[string, Parameters<typeof grownView>, Partial<ReadingView>]>([
    ['the estimate is the plan’s own count, still counted', [view(), batch(), [1_000, 2_000], PRICE, false], { parts: 2, estimateChars: 3_000, estimateRub: '4.5000', counting: true, estimateAboveBalance: false }],
    ['the last batch: counted', [view(), batch({ more: false }), [1_000], PRICE, false], { counting: false }],
    ['left out grows by the page’s and the silent characters', [view({ savedChars: 100 }), batch({ leftOutChars: 50, silentChars: 10 }), [1], PRICE, false], { savedChars: 160, savedRub: '0.2400' }],
    ['past the balance', [view({ balanceRub: '1.0000' }), batch(), [1_000], PRICE, false], { estimateAboveBalance: true }],
    ['an unknown balance is never “past” it', [view({ balanceRub: '' }), batch(), [1_000_000], PRICE, false], { estimateAboveBalance: false }],
    ['pages that cannot be read: said', [view(), batch(), [1], PRICE, true], { notice: { code: 'incomplete', count: 0 } }],
    ['skipped words add up across batches', [view({ notice: { code: 'skipped-words', count: 3 } }), batch({ skippedWords: 2 }), [1], PRICE, false], { notice: { code: 'skipped-words', count: 5 } }],
    ['incomplete already said: skipped words do not replace it', [view({ notice: { code: 'incomplete', count: 0 } }), batch({ skippedWords: 2 }), [1], PRICE, true], {}],
  ])('%s', (_name, args, expected) => {
    const shown = grownView(...args);
    expect(shown).toMatchObject(expected);
    if (Object.keys(expected).length === 0) expect(shown.notice).toBeUndefined();
  });
});
