/**
 * Previous, next, a part chosen in the popup, "continue from 12:40": the reading moves to another part,
 * and the player is loaded there. Audio already received comes from the cache, unpaid again.
 */
import type { ReaderInside } from './inside';
import { JUMP_SETTLE_MS, markNeeded } from './delivery';

/** Moves the reading to part k (`partTime` seconds in); false when it did not (no reading under way, or no part to go to). */
export async function moveTo(r: ReaderInside, k: number, partTime = 0): Promise<boolean> {
  const run = r.run();
  // An article read title first, its rest not counted yet: counted first, so "next" goes past the title.
  if (run && k >= run.parts.length) await run.growth.titleCounted(true);
  if (!run || r.run() !== run || !['playing', 'paused', 'loading'].includes(r.view().state) || run.parts.length === 0) return false;
  const target = Math.min(Math.max(Math.trunc(k), 0), run.parts.length - 1, run.stopAt - 1);
  if (target < 0) return false;
  const now = r.deps.now();
  // Quick presses in a row: only the part the listener stops at is paid for.
  const settleUntil = now - run.jumped(now) < JUMP_SETTLE_MS ? now + JUMP_SETTLE_MS : 0;
  r.delivery()?.stop();
  markNeeded(run, target, settleUntil > 0);
  const load = r.beginLoad();
  await r.drive({ type: 'jump' }, { part: target, partTime });
  r.sleep.jumped();
  await r.play(load, target, partTime, settleUntil);
  return true;
}

/** "Continue from 12:40": to where the listener stopped on this page last time (received audio plays from the cache, unpaid). */
export async function resumeFromOffer(r: ReaderInside): Promise<void> {
  const offer = r.view().resumeOffer;
  if (!offer) return;
  await r.show({ type: 'offer', offer: null });
  await moveTo(r, offer.part, offer.partTime);
}
