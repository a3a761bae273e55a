/**
 * What one batch of a document read in batches (a PDF) does to what the listener is shown, pure: the
 * parts and the estimate (the plan's own count, so a restart between the plan's save and the view's
 * never skews it), what was left out, whether it is still counted, and the notice. `growth.ts` fetches the
 * batches and writes what this returns; `growth-step.test.ts` is its table.
 */
import { costOf, formatRubPlain, parseRub, type RubUnits } from '../money/money';
import type { ReadingView } from './state';

export interface CountedBatch {
  /** Characters of the batch's text left out before billing (by the page). */
  leftOutChars: number;
  /** Characters never sent (no letter the service reads), and words in scripts it refuses, in the batch's parts. */
  silentChars: number;
  skippedWords: number;
  /** More batches follow. */
  more: boolean;
}

export function grownView(
  view: Pick<ReadingView, 'savedChars' | 'balanceRub' | 'notice'>,
  batch: CountedBatch,
  partChars: readonly number[],
  price: RubUnits,
  /** Pages of the document could not be read (this batch or an earlier one). */
  incomplete: boolean,
): Partial<ReadingView> {
  const estimateChars = partChars.reduce((n, c) => n + c, 0);
  const estimate = costOf(estimateChars, price);
  const savedChars = view.savedChars + batch.leftOutChars + batch.silentChars;
  const balance = parseRub(view.balanceRub);
  const skipped = batch.skippedWords + (view.notice.code === 'skipped-words' ? view.notice.count : 0);
  // `incomplete` outranks skipped words (the listener must know the document was not read whole); the
  // service refusing content outranks both.
  const notice =
    incomplete && view.notice.code === ''
      ? { notice: { code: 'incomplete' as const, count: 0 } }
      : skipped > 0 && view.notice.code !== 'content-rejected' && view.notice.code !== 'incomplete'
        ? { notice: { code: 'skipped-words' as const, count: skipped } }
        : {};
  return {
    parts: partChars.length,
    estimateChars,
    estimateRub: formatRubPlain(estimate),
    estimateAboveBalance: balance !== null && estimate > balance,
    savedChars,
    savedRub: formatRubPlain(costOf(savedChars, price)),
    counting: batch.more,
    ...notice,
  };
}
