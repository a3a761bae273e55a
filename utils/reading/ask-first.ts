import { passesCaps } from '../money/caps';
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
   * Code points the whole reading bills at most, known before it is counted (an article read title first:
   * `boundOf` its page's text, `money/bound.ts`). When that neither passes a cap nor the threshold, nothing is asked.
   */
  boundChars?: number;
}

/**
 * Why a reading asks before anything is sent, or '' when it need not: a spending cap its estimate
 * would pass, an estimate over the threshold, or the preview the listener asked for. A document
 * counted in batches is waited for while what is counted so far does not already ask first.
 */
export async function askFirstReason(run: ReadingRun, terms: AskFirstTerms): Promise<ReadingView['confirmReason']> {
  const reason = (): '' | 'budget' | 'threshold' => {
    const estimate = costOf(terms.estimateChars(), terms.price);
    return passesCaps(run.purse.caps, run.purse.spentAtStart, estimate) ? 'budget' : estimate > terms.threshold ? 'threshold' : '';
  };
  // An article read title first: when all of its page's text could be read without asking, nothing is
  // asked; else it is counted whole first, and decided as a reading counted whole (its rest comes at once).
  if (run.growing && terms.boundChars !== undefined) {
    const most = costOf(terms.boundChars, terms.price);
    if (!terms.previewFirst && !passesCaps(run.purse.caps, run.purse.spentAtStart, most) && most <= terms.threshold) return '';
    while (run.growing && !run.signal.aborted) await run.nextGrowth();
    run.signal.throwIfAborted();
  }
  let found: ReadingView['confirmReason'] = reason();
  // Counted in batches: the whole document's estimate decides, unless what is counted so far already asks first.
  while (!found && run.growing) {
    await run.nextGrowth();
    run.signal.throwIfAborted();
    found = reason();
  }
  // A spending cap is a hard limit: agreeing to pass it is asked on the whole document's estimate, never a partial one.
  while (found === 'budget' && run.growing) {
    await run.nextGrowth();
    run.signal.throwIfAborted();
  }
  return found || (terms.previewFirst ? 'preview' : '');
}
