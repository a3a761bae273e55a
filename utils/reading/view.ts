/**
 * What the listener is shown, from one function: `viewAfter(view, change)`. The reading's parts say what
 * happened (a step of the table, a bill, a batch counted, the player moved …) and this decides which fields
 * of the view change, so no module patches the view's fields itself. The reader (`reader.ts`) keeps the
 * result and saves it for the popup; `view.test.ts` is its table.
 */
import { costOf, formatRubPlain, parseRub, type RubUnits } from '../money/money';
import type { planReading } from './plan';
import { IDLE_VIEW, type ReadingStateName, type ReadingView, type Wait } from './state';
import type { PreviewBlock } from './preview';

/** What planning counted: the parts, the estimate, what was left out, words the service cannot say. */
type PlannedFigures = ReturnType<typeof planReading>['view'];

/** What a step of the table shows with its state: why it asks, where a jump lands, an error. */
export type StepShown = Partial<Pick<ReadingView, 'confirmReason' | 'preview' | 'error' | 'part' | 'partTime'>>;

export type ViewChange =
  /** A new reading: nothing of the last one is shown but the sleep timer it keeps. */
  | { type: 'begun'; id: string; state: ReadingStateName; tabId: number | null; source: ReadingView['source']; sleepAt: number; sleepAtEnd: boolean; sleepAtChapter?: boolean }
  /** A reading taken over from an earlier life of the background, as it was saved. */
  | { type: 'restored'; view: ReadingView }
  /** A step of the reading's table (`machine.ts`, run by `driver.ts`). `waitSince`: when a wait that begins now began. */
  | { type: 'step'; state: ReadingStateName; wait: Wait; waitSince?: number; shown: StepShown; lastPart: number }
  /** The text was planned: its title, its figures, the account's balance. */
  | { type: 'planned'; title: string; source: ReadingView['source']; balanceRub: string; stalePrice: boolean; counting: boolean; planned: PlannedFigures }
  /** A block of the preview switched off or on: planned again without it. */
  | { type: 'replanned'; planned: PlannedFigures; preview: PreviewBlock[] }
  /** A batch of a document read in batches was counted. */
  | { type: 'grown'; batch: CountedBatch; partChars: readonly number[]; price: RubUnits; incomplete: boolean }
  /** The document's counting is over; `incomplete`: its rest could not be read. */
  | { type: 'counted'; incomplete: boolean }
  /** A request was billed: the reading's cost and characters so far, the balance the service told (null: not told). */
  | { type: 'billed'; cost: RubUnits; chars: number; balanceRub: string | null }
  /** The plan's parts changed (a part cut in two). */
  | { type: 'parts'; parts: number }
  /** The service refused the content of `count` parts: they are skipped. */
  | { type: 'refused'; count: number }
  /** The player reports where it is. */
  | { type: 'moved'; part: number; position: number; partTime: number; rate: number }
  /** The player ran out of audio at `position`. */
  | { type: 'heard-to'; position: number }
  /** Where the listener stopped on this page last time is offered (or no longer). */
  | { type: 'offer'; offer: ReadingView['resumeOffer'] }
  /** The sleep timer set, changed or spent. */
  | { type: 'sleep'; sleepAt: number; sleepAtEnd?: boolean; sleepAtChapter?: boolean };

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * The balance a bill told, unless one shown is lower: requests in flight together are billed in one order and
 * their receipts may be handled in another, and the service only ever lowers a balance as it bills (it gives
 * nothing back). Money put in during a reading shows at the next account check.
 */
function lowerBalance(shown: string, told: string | null): string {
  if (told === null) return shown;
  const was = parseRub(shown);
  const now = parseRub(told);
  return was !== null && now !== null && was < now ? shown : told;
}

/** The view after `change`, at `now`. */
export function viewAfter(view: ReadingView, change: ViewChange, now: number): ReadingView {
  return { ...view, ...fieldsOf(view, change), updatedAt: now };
}

function fieldsOf(view: ReadingView, change: ViewChange): Partial<ReadingView> {
  switch (change.type) {
    case 'begun': {
      const { id, state, tabId, source, sleepAt, sleepAtEnd } = change;
      return { ...IDLE_VIEW, id, state, tabId, source, costRub: formatRubPlain(0n), sleepAt, sleepAtEnd, sleepAtChapter: change.sleepAtChapter === true };
    }
    case 'restored':
      return change.view;
    case 'step': {
      const { state, wait, shown } = change;
      const fields: Partial<ReadingView> = { state, wait, ...shown };
      // How long it has waited is shown from when the wait began (the first request that met the wall).
      if (wait === '') fields.waitSince = 0;
      else if (change.waitSince !== undefined) fields.waitSince = change.waitSince;
      // Read to the end: the last part shown, nothing offered to continue from.
      if (state === 'finished') Object.assign(fields, { part: change.lastPart, resumeOffer: null });
      // A reading that is over counts nothing more.
      if (state === 'stopped' || state === 'finished' || state === 'error') fields.counting = false;
      return fields;
    }
    case 'planned':
      return { title: change.title, source: change.source || view.source, balanceRub: change.balanceRub, stalePrice: change.stalePrice, counting: change.counting, ...change.planned };
    case 'replanned':
      return { ...change.planned, preview: change.preview };
    case 'grown':
      return grownView(view, change.batch, change.partChars, change.price, change.incomplete);
    case 'counted':
      return { counting: false, ...(change.incomplete ? { notice: { code: 'incomplete' as const, count: 0 } } : {}) };
    case 'billed':
      return { costRub: formatRubPlain(change.cost), chars: change.chars, balanceRub: lowerBalance(view.balanceRub, change.balanceRub) };
    case 'parts':
      return { parts: change.parts };
    case 'refused':
      return { notice: { code: 'content-rejected', count: change.count } };
    case 'moved': {
      const fields: Partial<ReadingView> = { part: change.part, position: round2(change.position), partTime: round2(change.partTime), rate: change.rate };
      // The listener got past the offered place on their own: the offer goes.
      if (view.resumeOffer && change.position > view.resumeOffer.position) fields.resumeOffer = null;
      return fields;
    }
    case 'heard-to':
      return { position: round2(Math.max(change.position, view.position)) };
    case 'offer':
      return { resumeOffer: change.offer };
    case 'sleep':
      return { sleepAt: change.sleepAt, sleepAtEnd: change.sleepAtEnd ?? view.sleepAtEnd, sleepAtChapter: change.sleepAtChapter ?? view.sleepAtChapter };
  }
}

export interface CountedBatch {
  /** Characters of the batch's text left out before billing (by the page). */
  leftOutChars: number;
  /** Characters never sent (no letter the service reads), and words in scripts it refuses, in the batch's parts. */
  silentChars: number;
  skippedWords: number;
  /** More batches follow. */
  more: boolean;
}

/**
 * What one batch of a document read in batches (a PDF) shows: the parts and the estimate (the plan's own
 * count, so a restart between the plan's save and the view's never skews it), what was left out, whether it
 * is still counted, and the notice.
 */
export function grownView(
  view: Pick<ReadingView, 'savedChars' | 'balanceRub' | 'notice'>,
  batch: CountedBatch,
  partChars: readonly number[],
  price: RubUnits,
  /** Pages of the document could not be read (this batch or an earlier one). */
  incomplete: boolean,
): Pick<ReadingView, 'parts' | 'estimateChars' | 'estimateRub' | 'estimateAboveBalance' | 'savedChars' | 'savedRub' | 'counting'> & Partial<Pick<ReadingView, 'notice'>> {
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
