import { describe, expect, it } from 'vitest';
import type { PlayerCommand } from '../messaging/player';
import { Reader, type ReaderDeps } from './session';
import { DEFAULT_PLAYBACK, type Playback } from '../storage/settings';

/** Storage that answers after a turn of the event loop, as browser storage does. */
function slowPlaybackStore(initial: Playback) {
  let stored = initial;
  const later = () => new Promise((resolve) => setTimeout(resolve, 1));
  return {
    get stored() {
      return stored;
    },
    async getPlayback() {
      await later();
      return stored;
    },
    async savePlayback(playback: Playback) {
      await later();
      stored = playback;
    },
  };
}

/** A reader with nothing saved, no reading, and the playback store given; other dependencies are unused. */
function idleReader(store: ReturnType<typeof slowPlaybackStore>, posted: PlayerCommand[] = []) {
  const deps: Partial<ReaderDeps> = {
    getPlayback: () => store.getPlayback(),
    savePlayback: (p) => store.savePlayback(p),
    loadSaved: async () => ({ view: null, plan: null }),
    player: { post: async (cmd) => void posted.push(cmd) },
  };
  return new Reader(deps as ReaderDeps);
}

describe('Reader.setPlayback', () => {
  it.each<{ name: string; patches: Partial<Playback>[]; saved: Playback }>([
    { name: 'one change', patches: [{ rate: 2 }], saved: { rate: 2, volume: DEFAULT_PLAYBACK.volume } },
    { name: 'speed, then volume at once', patches: [{ rate: 2 }, { volume: 0.5 }], saved: { rate: 2, volume: 0.5 } },
    { name: 'volume, then speed at once', patches: [{ volume: 0.3 }, { rate: 1.5 }], saved: { rate: 1.5, volume: 0.3 } },
    { name: 'a slider dragged: the last value stays', patches: [{ volume: 0.9 }, { volume: 0.7 }, { rate: 3 }, { volume: 0.2 }], saved: { rate: 3, volume: 0.2 } },
    { name: 'out of range is clamped', patches: [{ rate: 10 }, { volume: -1 }], saved: { rate: 3, volume: 0 } },
  ])('$name: no change is lost', async ({ patches, saved }) => {
    const store = slowPlaybackStore(DEFAULT_PLAYBACK);
    const reader = idleReader(store);
    await Promise.all(patches.map((p) => reader.setPlayback(p)));
    expect(store.stored).toEqual(saved);
  });

  it('each call answers with the playback as it stands after its own change', async () => {
    const store = slowPlaybackStore(DEFAULT_PLAYBACK);
    const reader = idleReader(store);
    const answers = await Promise.all([reader.setPlayback({ rate: 2 }), reader.setPlayback({ volume: 0.5 })]);
    expect(answers).toEqual([
      { rate: 2, volume: DEFAULT_PLAYBACK.volume },
      { rate: 2, volume: 0.5 },
    ]);
  });

  it('with no reading, nothing is sent to the player', async () => {
    const posted: PlayerCommand[] = [];
    const reader = idleReader(slowPlaybackStore(DEFAULT_PLAYBACK), posted);
    await reader.setPlayback({ rate: 2 });
    expect(posted).toEqual([]);
  });
});
