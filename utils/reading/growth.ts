/**
 * A document read in batches (a PDF): the rest of its text is planned as its page gives it, while the
 * reading asks first or plays. The parts, the estimate (the plan's own count) and what was left out
 * grow with each batch; a page that stops answering or pages that cannot be read end the growth with a
 * notice, and what was planned is read.
 */
import { ignore, logIgnored } from '../log';
import type { RubUnits } from '../money/money';
import type { Settings } from '../storage/settings';
import type { ReaderDeps } from './deps';
import { planBatch } from './plan';
import type { ReadingRun } from './run';
import type { ReadingView } from './state';
import type { ViewChange } from './view';

/** What the growth needs of the reader. */
export interface GrowthHost {
  deps: Pick<ReaderDeps, 'moreText' | 'store'>;
  /** Whether the run is still the reader's current one. */
  current(): boolean;
  view(): ReadingView;
  show(change: ViewChange): Promise<void>;
}

/**
 * Plans the rest of a document read in batches (a PDF) as its page gives it, while the reading asks
 * first or plays: the parts, the estimate and what was left out grow with each batch. A page that
 * stops answering (closed, navigated away) ends the growth; what was planned is read.
 */
export async function growReading(
  run: ReadingRun,
  reader: GrowthHost,
  tabId: number,
  settings: Pick<Settings, 'pronunciations' | 'urls'>,
  price: RubUnits,
): Promise<void> {
  try {
    while (run.growth.growing && run.plan?.grows && !run.signal.aborted) {
      const batch = await reader.deps.moreText(tabId, run.plan.grows.blocks);
      const plan = run.plan;
      if (run.signal.aborted || !reader.current() || !plan?.grows) return;
      const planned = planBatch(plan, plan.grows.blocks, batch.blocks, settings, plan.grows.continues === true);
      run.growth.counted(planned.parts, batch.blocks.length, batch.more, batch.incomplete === true);
      // Written in order (the plan, then the view that counts it), waited for neither before the reading is
      // told (the next part is asked for, and `playing` shown, as soon as the new parts are counted in memory)
      // nor before the next batch is asked for: the plan's writes asked for meanwhile are one (`writeQueue`).
      const planSaved = reader.deps.store.savePlan(plan);
      planSaved.catch(() => undefined);
      if (run.signal.aborted || !reader.current()) return;
      const viewSaved = reader.show({ type: 'grown', batch: { ...batch, ...planned }, partChars: plan.parts.map((p) => p.chars), price, incomplete: run.growth.incomplete });
      run.growth.grew();
      void Promise.all([planSaved, viewSaved]).catch(ignore('saving the reading'));
    }
  } catch (err) {
    if (!run.signal.aborted) {
      logIgnored('reading the rest of the document', err);
      // Said, not silent: the listener must not believe the whole document was read.
      if (reader.current()) await reader.show({ type: 'counted', incomplete: true }).catch(ignore('saving the reading'));
    }
  } finally {
    run.growth.stop();
    if (reader.current() && reader.view().counting) await reader.show({ type: 'counted', incomplete: false }).catch(ignore('saving the reading'));
  }
}
