import { sendMessage } from '@/utils/messaging/protocol';
import { MsePlayer } from '@/utils/audio/mse-player';
import { PlayerStats } from '@/utils/audio/player-stats';
import type { PlayerCommand } from '@/utils/audio/player-protocol';
import { ignore } from '@/utils/log';
import { diagnostics } from '@/utils/diagnostics/wired';
import { onOffscreenRequest } from '@/utils/messaging/offscreen';
import { PLAYER_PORT } from '@/utils/audio/offscreen-sink';
import { parseArticle } from '@/utils/text/parse-article';

const player = new MsePlayer(
  (event) => {
    // Logged once; the player's next report (every timeupdate) carries its state again.
    sendMessage('playerEvent', event).catch(ignore('player event to the background'));
  },
  undefined,
  undefined,
  // Counters for the benchmarks (test builds); production has none.
  diagnostics.counters(() => new PlayerStats()),
);

// Test builds: reachable from DevTools (the benchmarks) as `player`.
diagnostics.expose({ player });

// A port held open to the worker while this document lives: the worker keeps this document's client
// (for its commands) only while the port is open, and closing the document closes it. A worker started
// again after this one connected finds the port closed: the next command it sends opens a new one.
let port: chrome.runtime.Port | null = null;
const connect = () => {
  port = chrome.runtime.connect({ name: PLAYER_PORT });
  port.onDisconnect.addListener(() => (port = null));
};
connect();

// The background posts commands with the audio bytes transferred, not copied.
navigator.serviceWorker.onmessage = (event: MessageEvent<PlayerCommand>) => {
  if (event.origin && event.origin !== location.origin) return;
  if (!port) connect();
  player.handle(event.data);
};

// The listening queue's pages, fetched by the background, read here (the worker has no DOM parser).
onOffscreenRequest('parseArticle', ({ data }) => parseArticle(data.html, data.url, data.choices));
