import { sendMessage } from '@/utils/messaging/protocol';
import { MsePlayer, PlayerStats } from '@/utils/audio/mse-player';
import type { PlayerCommand } from '@/utils/messaging/player';
import { ignore } from '@/utils/log';
import { onOffscreenRequest } from '@/utils/messaging/offscreen';
import { parseArticle } from '@/utils/text/parse-article';

const player = new MsePlayer(
  (event) => {
    // Logged once; the player's next report (every timeupdate) carries its state again.
    sendMessage('playerEvent', event).catch(ignore('player event to the background'));
  },
  undefined,
  undefined,
  // Test builds only (`wxt build --mode test`): counters for the benchmarks; production has none.
  import.meta.env.MODE === 'test' ? new PlayerStats() : undefined,
);

// Test builds only: reachable from DevTools (the benchmarks) as `player`.
if (import.meta.env.MODE === 'test') Object.assign(globalThis, { player });

// The background posts commands with the audio bytes transferred, not copied.
navigator.serviceWorker.onmessage = (event: MessageEvent<PlayerCommand>) => {
  if (event.origin && event.origin !== location.origin) return;
  player.handle(event.data);
};

// The listening queue's pages, fetched by the background, read here (the worker has no DOM parser).
onOffscreenRequest('parseArticle', ({ data }) => parseArticle(data.html, data.url, data.choices));
