/**
 * A reading picked up by a new life of the background (Chrome ends an idle worker): the saved view, plan
 * and progress become the reader's again, and it carries on — asking, growing, or asking the player what
 * it holds.
 */
import { ignore } from '../log';
import { capsOf } from '../money/caps';
import { parseRub } from '../money/money';
import { agreed } from './asking';
import type { ReaderInside } from './inside';
import { ReadingError } from './plan';
import { ReadingRun } from './run';
import { isActive } from './state';

export async function restoreReading(r: ReaderInside): Promise<void> {
  // Read together: a background just started (Firefox's page holds the player too) reads each slowly, and the
  // listener hears nothing until the reading is restored.
  const settled = Promise.all([r.deps.getSettings(), r.deps.keyProblem()]);
  settled.catch(() => undefined);
  const { view, plan, progress } = await r.deps.store.load();
  if (!view) return;
  if (!isActive(view.state)) return r.take(view, null);
  if (!plan || plan.id !== view.id || view.state === 'extracting') {
    r.take(view, null);
    // The text was still being extracted: there is nothing to carry on with.
    await r.drive({ type: 'stop' });
    return;
  }
  const [settings, problem] = await settled;
  const run = ReadingRun.fromSaved(view, plan, progress, parseRub(settings.confirmThresholdRub) ?? 0n);
  run.purse.keepTo(capsOf(settings));
  r.take(view, run);
  // A wait for the network goes on; its pause limit counts from when it began.
  if (view.wait === 'network') r.network.resume(view.waitSince);
  r.deps.slots.setLimit(plan.maxConcurrency);
  if (problem) return r.fail(new ReadingError(problem));
  if (view.sleepAt || view.sleepAtChapter) r.sleep.arm();
  // A document read in batches carries on being planned from where it was.
  if (plan.grows && view.tabId !== null) {
    run.growth.begin();
    void r.grow(run, view.tabId, settings, run.ledger.price);
  }
  if (view.state === 'confirm') {
    run.confirmation().then(
      async () => {
        agreed(r, run, view.confirmReason);
        const load = r.beginLoad();
        await r.drive({ type: 'answered', to: 'loading' });
        // Asked again mid-reading: on from where it was.
        await r.play(load, view.part, view.partTime);
      },
      () => undefined, // the reading was stopped or replaced while it waited
    );
  } else if (view.state !== 'paused') {
    // Playing: the player's next progress report says what it holds; if it lost the reading it says so.
    await r.deps.player.post({ type: 'resume', readingId: view.id }).catch(ignore('asking the player where it is'));
  }
}
