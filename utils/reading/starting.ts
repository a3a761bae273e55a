/**
 * A reading's start, once the reader has made it its own (`Reader.start`): its text planned, the caps and
 * the purse set, the plan and first view written, a document read in batches counted on, the listener
 * asked first when the reading must, and the player loaded on the first part.
 */
import { ignore } from '../log';
import { capsOf } from '../money/caps';
import { diagnostics } from '../diagnostics/wired';
import { askFirstIfNeeded } from './asking';
import type { ReaderDeps, ReadingRequest } from './deps';
import type { ReaderInside } from './inside';
import { planReading } from './plan';
import { prepare } from './prepare';
import { Unreachable } from '../net/bounded-fetch';
import { ServiceError } from '../speech/client';
import { resumeOfferOf } from './resume-place';
import { resumeFromOffer } from './jumping';
import type { ReadingRun } from './run';
import type { ReadingView } from './state';

export async function carryOn(r: ReaderInside, run: ReadingRun, req: ReadingRequest, prepared: ReturnType<typeof prepare>, firstWrites: Promise<unknown>): Promise<void> {
  try {
    // Written in the order asked: this reading's writes below (an error's view too) come after the first ones.
    await firstWrites;
    const { text, settings, account, stalePrice } = await untilReachable(r, run, req, prepared);
    run.signal.throwIfAborted();
    diagnostics.mark('prepared');
    // The place kept on this page is looked up while the reading is planned.
    const resumeLookup = text.url ? r.deps.getResume(text.url).catch(() => null) : Promise.resolve(null);
    const planned = planReading(run.id, text, settings, account);
    diagnostics.mark('planned');
    // A document read in batches (a PDF): the rest of its text is planned as it comes.
    const batched = text.more === true && req.tabId !== null;
    run.adopt(text, planned, batched);
    const caps = capsOf(settings);
    if (caps) await r.deps.wallet.ready;
    run.purse.keepTo(caps, caps ? r.deps.wallet.spent() : undefined);
    r.deps.slots.setLimit(account.maxConcurrency);
    // Saved (for a restarted background) while the view is written.
    const planSaved = r.deps.store.savePlan(run.plan);
    // Written while the first part is asked for (the view in memory is already this one; the browser
    // keeps writes in the order they are asked for): waited for before the confirmation, or with the first part.
    const written = Promise.all([planSaved, r.show({ type: 'planned', title: run.title, source: req.source || text.source, balanceRub: account.balanceRub, stalePrice, counting: batched, planned: planned.view })]);
    written.catch(() => undefined);
    if (batched) {
      const grow = () => void r.grow(run, req.tabId!, settings, planned.price);
      // An article read title first: its rest once something waits for it (RunGrowth.whenWanted).
      if (text.bound !== undefined) run.growth.whenWanted(grow);
      else grow();
    }
    await askFirstIfNeeded(r, run, { text, settings, account }, planned.price, batched, written);
    r.sleep.hold();
    const load = r.beginLoad();
    // The view is `loading` at once (in memory; after asking first, it is already); its copy for the popup is
    // written while the first part is asked for.
    const shown = r.drive({ type: 'planned' });
    // The place kept on this page is offered once it is known: the first request does not wait for
    // the lookup (the worker's time before it, on the toolbar path).
    void resumeLookup.then(async (point) => {
      // An article read title first: its place is looked for among all its parts, once they are counted; a
      // document read in batches (a book, a PDF), once the part it is in is counted.
      await run.growth.titleCounted(false);
      if (point && batched) await run.growth.hasPart(point.part);
      const resumeOffer = resumeOfferOf(run, point);
      if (!resumeOffer || r.run() !== run || !r.active() || r.view().position >= resumeOffer.position) return;
      await r.show({ type: 'offer', offer: resumeOffer });
      // Asked for by the page ("Continue from …" on the book page): gone to at once.
      if (text.continuePlace && r.run() === run) await resumeFromOffer(r);
    }).catch(ignore('offering the place kept on the page'));
    await Promise.all([written, shown, r.play(load, 0, 0)]);
  } catch (err) {
    if (run.signal.aborted || r.run() !== run) return;
    await r.fail(err);
  }
}

/**
 * A start's first writes: the last reading's plan and progress cleared (while the reading is `current`),
 * the first view (`extracting`) and the badge cleared (while it is still the one `shown`). Made once
 * `after` settles (`deps.startWritesAfter`; at once when null); the promise resolves once they are asked
 * for, not written. A view that has moved on by then (a stop, a newer start) has written itself: the first
 * one is not written over it.
 */
export function writeFirst(deps: Pick<ReaderDeps, 'store' | 'badge'>, still: { current(): boolean; shown(): boolean }, first: ReadingView, after: Promise<void> | null): Promise<void> {
  const write = () => {
    if (!still.current()) return;
    void deps.store.savePlan(null).catch(ignore('clearing the last plan'));
    void deps.store.saveProgress(null).catch(ignore('clearing the last progress'));
    if (!still.shown()) return;
    deps.badge(null);
    void deps.store.saveView(first).catch(ignore('writing the first view'));
  };
  if (!after) return Promise.resolve(write());
  return after.then(write, write);
}

/**
 * The text as prepared, its host waited for while it cannot be reached (a queued page's download; the
 * service's account check when no account is known yet): the reading waits for the network as it does for
 * the service, and asks again; past the pause limit it ends in `network` (it has nothing to pause on).
 */
async function untilReachable(r: ReaderInside, run: ReadingRun, req: ReadingRequest, first: ReturnType<typeof prepare>): ReturnType<typeof prepare> {
  for (let prepared = first; ; ) {
    try {
      const got = await prepared;
      r.network.reached();
      return got;
    } catch (err) {
      // The page's host, or the service's account check with no account known yet, not reached at all.
      if (!(err instanceof Unreachable) && !(err instanceof ServiceError && err.status === 0)) throw err;
      await r.network.unreachable(run.signal, err);
      prepared = prepare(r.deps, () => req.extract());
    }
  }
}
