/**
 * The player for a reading: loaded from a part and a second in it, and its speed and volume changed. It is
 * loaded while the first part is being requested (the service's first byte is the long wait, not this);
 * what the delivery sends the player waits for that load (`player`), so nothing overtakes it.
 */
import type { PlayerSink } from '../audio/player-protocol';
import { ignore } from '../log';
import { clampPlayback, type Playback } from '../storage/settings';
import type { ReaderInside } from './inside';
import type { ReaderDeps } from './deps';
import type { ReadingRun } from './run';
import type { ReadingView } from './state';

export function loadPlayer(
  deps: Pick<ReaderDeps, 'getPlayback' | 'player'>,
  run: ReadingRun,
  view: Pick<ReadingView, 'position' | 'state' | 'partTime'>,
  at: { load: number; startPart: number; seekInPart: number; partOffset?: number },
): { loaded: Promise<void>; player: PlayerSink } {
  // Given the part from an earlier sentence (`partOffset`) than the second it was at: the position goes back as far.
  const positionBase = Math.max(0, view.position - (at.partOffset !== undefined ? view.partTime - at.partOffset : 0));
  const paused = view.state === 'paused';
  const loaded = (async () => {
    const { rate, volume } = await deps.getPlayback();
    await deps.player.post({ type: 'load', readingId: run.id, ...at, positionBase, rate, volume, title: run.title, site: run.site });
    if (paused) await deps.player.post({ type: 'pause', readingId: run.id });
  })();
  loaded.catch(() => undefined);
  const player: PlayerSink = {
    post: async (cmd) => {
      await loaded;
      return deps.player.post(cmd);
    },
  };
  return { loaded, player };
}

/** Speed and volume: applied by the player to what it already holds, remembered for later readings. */
export async function changePlayback(r: Pick<ReaderInside, 'deps' | 'active' | 'view'>, patch: Partial<Playback>): Promise<Playback> {
  const playback = clampPlayback({ ...(await r.deps.getPlayback()), ...patch });
  await r.deps.savePlayback(playback);
  if (r.active()) await r.deps.player.post({ type: 'playback', readingId: r.view().id, ...playback }).catch(ignore('changing speed or volume'));
  return playback;
}
