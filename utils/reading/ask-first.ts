import { costOf, type RubUnits } from '../speech/money';
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
}

/**
 * Why a reading asks before anything is sent, or '' when it need not: a spending cap its estimate
 * would pass, an estimate over the threshold, or the preview the listener asked for. A document
 * counted in batches is waited for while what is counted so far does not already ask first.
 */
export async function askFirstReason(run: ReadingRun, terms: AskFirstTerms): Promise<ReadingView['confirmReason']> {
  const reason = (): '' | 'budget' | 'threshold' => {
    const estimate = costOf(terms.estimateChars(), terms.price);
    return run.budget?.estimatePasses(estimate) ? 'budget' : estimate > terms.threshold ? 'threshold' : '';
  };
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
