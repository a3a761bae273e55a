/**
 * Asking the listener: before the first part (the threshold, a spending cap, a preview), again when the
 * text grew past what was agreed to, and the preview's blocks switched off while it asks. What the
 * answer opens is the reading's purse (`money/purse.ts`): nothing is bought past it.
 */
import { ignore } from '../log';
import { charsWithin } from '../money/gate';
import { costOf, parseRub, type RubUnits } from '../money/money';
import { boundOf } from '../money/bound';
import { askFirstReason } from './ask-first';
import type { ReaderInside } from './inside';
import { planReading, previewOf } from './plan';
import type { ReadingRun } from './run';
import type { ReadingView } from './state';

/**
 * Asks before the first part when the estimate passes the threshold, the spending caps would be
 * passed, or the listener wants a preview; returns once agreed to (at once when nothing is asked).
 * The view is shown asking only once `written` (the planned reading's first view) is.
 */
export async function askFirstIfNeeded(r: ReaderInside, run: ReadingRun, planning: NonNullable<ReadingRun['planning']>, price: RubUnits, batched: boolean, written: Promise<unknown>): Promise<void> {
  const { settings } = planning;
  const threshold = parseRub(settings.confirmThresholdRub) ?? 0n;
  const most = planning.text.bound ?? planning.text.mostChars;
  const confirmReason = await askFirstReason(run, {
    estimateChars: () => r.view().estimateChars,
    price,
    threshold,
    previewFirst: settings.previewFirst === true,
    boundChars: most === undefined ? undefined : boundOf(most, settings.pronunciations ?? []),
  });
  if (!confirmReason) {
    // Nothing asked: the reading may spend what stays under the threshold, and asks again past it.
    run.purse.openUnder(charsWithin(threshold, price));
    return;
  }
  // The preview switches blocks off by planning again: only a reading planned whole has one.
  if (!batched) run.keepPlanning(planning);
  const preview = run.planning ? previewOf(planning.text.blocks, run.parts, price, run.off) : [];
  await written;
  await r.drive({ type: 'ask' }, { confirmReason, preview });
  await run.confirmation();
  run.signal.throwIfAborted();
  agreed(r, run, confirmReason);
  run.keepPlanning(null);
  await r.drive({ type: 'answered', to: 'loading' }, { preview: [] });
}

/**
 * The listener agreed to the reading as shown: its estimate — for a document still being counted (a PDF's
 * "≥ X"), the characters counted so far: past them it asks again, as an article read title first does —
 * and, asked because of a spending cap, passing that cap by as much.
 */
export function agreed(r: Pick<ReaderInside, 'deps'>, run: ReadingRun, reason: ReadingView['confirmReason']): void {
  const chars = run.parts.reduce((n, p) => n + p.chars, 0);
  run.purse.agree(chars, reason === 'budget' ? costOf(chars, run.ledger.price) : undefined);
  void r.deps.store.saveProgress(run.progress()).catch(ignore('saving the reading'));
}

/**
 * The text grew past what the listener agreed to (an article read title first whose page grew, a document
 * counted after it was agreed to): the reading asks again, with its whole estimate, and buys nothing more
 * until the answer. What was received plays on meanwhile.
 */
export function askAgain(r: ReaderInside, run: ReadingRun): void {
  if (r.run() !== run || run.purse.phase !== 'open' || !r.active()) return;
  const back = r.view().state;
  void r.drive({ type: 'ask' }, { confirmReason: 'threshold', preview: [] }).catch(ignore('saving the reading'));
  run.confirmation().then(
    async () => {
      agreed(r, run, 'threshold');
      if (r.run() !== run) return;
      await r.drive({ type: 'answered', to: back === 'paused' ? 'paused' : run.sounding ? 'playing' : 'loading' });
      r.delivery()?.poke();
    },
    () => undefined, // stopped or replaced while it asked
  );
}

/**
 * While the reading asks first: a block of the preview switched off (or on again). The plan is made
 * again without it, so its text is never sent and the estimate follows; the last block stays on.
 */
export async function setBlockOn(r: ReaderInside, block: number, on: boolean): Promise<void> {
  const run = r.run();
  const planning = run?.planning;
  if (!run || !planning || r.view().state !== 'confirm' || !planning.text.blocks[block]) return;
  if (on === !run.off.has(block)) return;
  run.switchBlock(block, on);
  const blocks = planning.text.blocks.map((b, k) => (run.off.has(k) ? { ...b, text: '' } : b));
  let planned: ReturnType<typeof planReading>;
  try {
    planned = planReading(run.id, { ...planning.text, blocks }, planning.settings, planning.account);
  } catch {
    // Nothing would be left to read: that block stays on.
    run.switchBlock(block, true);
    return;
  }
  run.replan(planned.plan);
  await r.deps.store.savePlan(run.plan);
  const preview = previewOf(planning.text.blocks, planned.plan.parts, planned.price, run.off);
  await r.show({ type: 'replanned', planned: planned.view, preview });
}
