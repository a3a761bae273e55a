/**
 * The player's reports, taken by the reader: where the listener is (the view, the place kept on the page,
 * the highlight), what a restarted background's player still holds, and the events the reading's table
 * (`machine.ts`) decides on — sounding, run out, lost, failed — and the media keys.
 */
import type { PlayerEvent } from '../audio/player-protocol';
import type { ReaderInside } from './inside';
import { keepPlace } from './resume-place';
import type { ReadingRun } from './run';


export async function onPlayerEvent(r: ReaderInside, event: PlayerEvent): Promise<void> {
  const run = r.run();
  if (!run || event.readingId !== r.view().id || !r.active()) return;
  if ('load' in event && !r.takeLoad(event.load)) return; // from before a jump or reload
  switch (event.type) {
    case 'playing':
      run.playerPlays();
      // An article read title first shows `playing` with its whole estimate: its rest is counted first (it
      // comes tens of milliseconds after the title was asked for, while the service synthesizes it).
      if (run.plan?.grows?.continues) {
        const load = r.load();
        await run.growth.titleCounted(true);
        // A jump or a reload meanwhile: its own player's `playing` says so.
        if (r.load() !== load) break;
      }
      if (r.run() === run) await r.drive({ type: 'playing' });
      break;
    case 'progress': {
      run.playerReports();
      const view = r.view();
      const moved = event.part !== view.part || Math.abs(event.position - view.position) >= 0.2 || event.rate !== view.rate;
      if (moved) await r.show({ type: 'moved', part: event.part, position: event.position, partTime: event.partTime, rate: event.rate });
      if (r.view().sleepAt) r.sleep.hold();
      else r.sleep.followChapter();
      if (moved) keepPlace(run, r.view(), r.deps);
      follow(r, run, event.load, event.part, event.partTime);
      // A restarted background learns from the player what it holds and carries on from there.
      if (!r.delivery() && run.plan && r.view().state !== 'confirm') {
        const hold = event.partialBytes > 0 ? { bytes: event.partialBytes, seconds: event.partialSeconds } : null;
        // What the player holds plays out before a stopping error is shown.
        r.deliverFrom(run, event.complete + 1, hold, event.complete >= 0 || hold !== null);
      }
      r.delivery()?.poke();
      break;
    }
    case 'word': {
      // The player times each part's words from its audio, and tells each as it is said.
      const told = run.band.spoken.mark(event.part, run.parts[event.part], event.word);
      const tabId = r.view().tabId;
      if (!told || tabId === null || !run.band.goes(event.load, event.part, told.sentence)) break;
      const { mark } = told;
      const key = `${mark.block}:${mark.text}`;
      const wordMark = r.deps.wordMark?.() ?? true;
      if (!wordMark && key === run.band.marked) break;
      run.band.mark(key);
      r.deps.highlight(tabId, wordMark ? mark : { block: mark.block, text: mark.text });
      break;
    }
    case 'waiting': {
      // The player ran out of audio: at a chapter's end, with the sleep timer set to it, the reading pauses there.
      const part = r.view().part;
      await r.sleep.ranDry(part, r.delivery()?.handedWhole(part) === true);
      break;
    }
    case 'stopped-before':
      // Where the next chapter begins, as the sleep timer told the player ("to the end of this chapter").
      await r.sleep.stoppedBefore(event.part);
      break;
    case 'lost':
      await r.drive({ type: 'lost', reloading: run.reloading });
      break;
    case 'ended':
      await r.show({ type: 'heard-to', position: event.position });
      await r.drive({ type: 'ended', done: r.delivery()?.done === true, pendingError: run.pendingError !== null });
      break;
    case 'media-action':
      // A media key, or the browser's or system's media controls.
      if (event.action === 'play') await r.command('resume');
      else if (event.action === 'pause') await r.command('pause');
      else if (event.action === 'stop') await r.command('stop');
      else await r.command(event.action === 'nexttrack' ? 'next' : 'prev');
      break;
    case 'error':
      await r.drive({ type: 'player-error' }, { error: { code: 'bad-audio', requestId: '', detail: event.message } });
      break;
  }
}

/** Highlights the sentence being spoken, in its own block of the page, until the part's words are timed (then its `word` events do). */
function follow(r: ReaderInside, run: ReadingRun, load: number, part: number, partTime: number): void {
  if (run.band.spoken.timed(part)) return;
  const placed = run.pace.sentence(part, partTime);
  const tabId = r.view().tabId;
  if (!placed || tabId === null) return;
  const { mark } = placed;
  const key = `${mark.block}:${mark.text}`;
  if (key === run.band.marked || !run.band.goes(load, part, placed.sentence)) return;
  run.band.mark(key);
  r.deps.highlight(tabId, mark);
}
