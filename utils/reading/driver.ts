/**
 * The one driver of the reading's table (`machine.ts`): runs the effects of a step in order — the place
 * kept, the purse opened, the run ended, the player told — and writes the new state with what the listener
 * is shown. The only code between the table's decisions and the player, the service and storage.
 */
import { ignore } from '../log';
import type { ReaderInside } from './inside';
import { type Effect, type ReadingEvent, step } from './machine';
import { keepPlace } from './resume-place';
import type { StepShown } from './view';

/**
 * The one driver of the reading's table (`machine.ts`): the event's step, its effects run in order, the
 * new state written with `shown` (what the listener is told with it: an error's view, where a jump lands,
 * why it asks). An event the table ignores in this state does nothing, and `shown` is not written.
 */
export async function drive(r: ReaderInside, event: ReadingEvent, shown: StepShown = {}): Promise<void> {
  const run = r.run();
  const was = r.view().wait ?? '';
  const { state, wait, effects, money, applies } = step(r.view().state, event, was);
  const has = (effect: Effect) => effects.includes(effect);
  if (!applies) return;
  // What may be bought is the new state's, from now: asked, nothing more; answered, within what was agreed.
  run?.purse.enter(money);
  // Where the listener stopped is kept to the second.
  if (has('keep-place') && run) keepPlace(run, r.view(), r.deps, true);
  if (has('agree')) run?.confirm();
  // After the sleep timer paused the reading: its hold goes.
  if (has('lift-sleep-hold') && !r.view().sleepAt) r.sleep.hold();
  if (has('end')) await r.end(has('silence'));
  if (has('reload') && run) run.playerReloads();
  const load = has('reload') ? r.beginLoad() : null;
  if (state !== r.view().state || wait !== was || has('show-fault') || has('show-audio-error') || Object.keys(shown).length > 0) {
    // How long it has waited is shown from when the wait began (the first request that met the wall).
    const waitSince = has('wait-begins') ? r.network.since || r.deps.now() : undefined;
    const error = has('show-pending-error') && run ? { error: run.pendingError } : {};
    await r.show({ type: 'step', state, wait, waitSince, shown: { ...shown, ...error }, lastPart: Math.max((run?.parts.length ?? 1) - 1, 0) });
  }
  if (has('post-pause')) await r.deps.player.post({ type: 'pause', readingId: r.view().id });
  // A player that lost the reading (Chrome closed a silent offscreen document) answers `lost`.
  if (has('post-resume')) await r.deps.player.post({ type: 'resume', readingId: r.view().id });
  if (load !== null) await r.play(load, r.view().part, r.view().partTime);
  // ▶ in a wait for the network: what waits tries again now (the player was told to resume first).
  if (has('retry-now')) r.network.retryNow();
  // Read to the end: nothing to continue from on this page.
  if (has('forget-place') && run?.url) void r.deps.saveResume(run.url, null).catch(ignore('keeping the place on the page'));
}
