import { type Caps, passesCaps } from '../money/caps';
import type { Spent } from '../money/totals';
import { costOf, type RubUnits } from '../money/money';
import type { ReadingRun } from './run';
import type { ReadingView } from './state';

export interface AskFirstTerms {
  /** The estimate as counted so far (it grows while a document is counted in batches). */
  estimateChars(): number;
  price: RubUnits;
  /** Readings estimated above this ask first. */
  threshold: RubUnits;
  /** The listener asked to see what will be read before anything is sent. */
  previewFirst: boolean;
  /**
   * Code points the whole reading bills at most, known before it is counted (`boundOf` an article's page text
   * when it is read title first, `money/bound.ts`, or a book's sections' sizes from where it starts). When that
   * neither passes a cap nor the threshold, nothing is asked.
   */
  boundChars?: number;
}

/** What the ask-first rule decides from, at one moment of a reading's count. */
export interface AskFirstFacts extends Omit<AskFirstTerms, 'estimateChars'> {
  estimateChars: number;
  /** More of the text is still being counted. */
  growing: boolean;
  caps: Caps | null;
  spentAtStart: Spent;
}

/**
 * The rule, pure: why a reading asks before anything is sent ('' when it need not) — a spending cap its
 * estimate would pass, an estimate over the threshold, or the preview the listener asked for — or `wait`
 * for more of the count. A reading with a bound (an article read title first, a book) asks nothing when
 * all of what it bounds could be read without asking, else waits to be counted whole. A document counted
 * in batches waits for its whole estimate unless what is counted so far already passes the threshold; a
 * cap is asked about on the whole estimate only (agreeing to pass it is a hard limit, never agreed on a part).
 */
export function askFirstDecision(f: AskFirstFacts): ReadingView['confirmReason'] | 'wait' {
  if (f.growing && f.boundChars !== undefined) {
    const most = costOf(f.boundChars, f.price);
    return !f.previewFirst && !passesCaps(f.caps, f.spentAtStart, most) && most <= f.threshold ? '' : 'wait';
  }
  const estimate = costOf(f.estimateChars, f.price);
  const found = passesCaps(f.caps, f.spentAtStart, estimate) ? 'budget' : estimate > f.threshold ? 'threshold' : '';
  if (f.growing && found !== 'threshold') return 'wait';
  return found || (f.previewFirst ? 'preview' : '');
}

/** Runs the rule on the reading as it is counted: waits for its count while the rule says so. */
export async function askFirstReason(run: ReadingRun, terms: AskFirstTerms): Promise<ReadingView['confirmReason']> {
  for (;;) {
    const decision = askFirstDecision({ ...terms, estimateChars: terms.estimateChars(), growing: run.growth.growing, caps: run.purse.caps, spentAtStart: run.purse.spentAtStart });
    if (decision !== 'wait') return decision;
    await run.growth.next();
    run.signal.throwIfAborted();
  }
}
