/**
 * What a reading's requests and deliveries report to: the bill of every request (the ledger, the
 * usage history, the popup's figures) and the turns a reading takes (a refused part, a halved
 * part, a stopping error), each saved so a restarted background knows them.
 */
import { ignore } from '../log';
import { formatRubPlain } from '../speech/money';
import { countChars } from '../text/parts';
import { ReadingError } from './plan';
import type { ReaderDeps } from './deps';
import { errorViewOf, type ReadingRun } from './run';
import type { DeliveryHost } from './scheduler';
import type { ReadingView } from './state';

export interface ViewAccess {
  /** Whether the run is still the reader's current one (a replaced reading's bills update no view). */
  current(): boolean;
  view(): ReadingView;
  update(patch: Partial<ReadingView>): Promise<void>;
}

export function runHost(run: ReadingRun, deps: ReaderDeps, reader: ViewAccess): DeliveryHost {
  const saveProgress = () => deps.store.saveProgress(run.progress()).catch(ignore('saving the reading'));
  return {
    fetch: {
      slots: deps.slots,
      open: (body, signal) => {
        // A spending cap: nothing is requested past it (what was received plays, then the reading ends).
        if (run.budget?.refuses(run.ledger, countChars(body.text))) throw new ReadingError('budget-limit');
        return deps.open(body, signal);
      },
      sleep: (ms, signal) => deps.sleep(ms, signal),
      // Every billed request is recorded, even one answered after its reading was replaced.
      billed: async (receipt, sentChars) => {
        const charge = run.ledger.add(receipt, sentChars);
        deps.recordUsage({ time: deps.now(), title: run.title, chars: charge.chars, costRub: formatRubPlain(charge.cost), requestId: receipt.requestId });
        if (!reader.current()) return;
        const balanceRub = charge.balance !== null ? formatRubPlain(charge.balance) : reader.view().balanceRub;
        await reader.update({ costRub: formatRubPlain(run.ledger.cost), chars: run.ledger.chars, balanceRub });
      },
    },
    player: deps.player,
    cache: deps.cache,
    playing: () => reader.view().part,
    refused: async () => {
      await Promise.all([reader.update({ notice: { code: 'content-rejected', count: run.skipped.size } }), saveProgress()]);
    },
    planChanged: async () => {
      await deps.store.savePlan(run.plan);
      await reader.update({ parts: run.parts.length });
    },
    stopping: (error) => {
      run.pendingError = errorViewOf(error);
      void saveProgress();
    },
    now: () => deps.now(),
    sleep: (ms, signal) => deps.sleep(ms, signal),
  };
}
