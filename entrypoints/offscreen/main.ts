import { sendMessage } from '@/utils/messaging/protocol';
import { MsePlayer } from '@/utils/audio/mse-player';
import type { PlayerCommand } from '@/utils/messaging/player';

const player = new MsePlayer((event) => {
  sendMessage('playerEvent', event).catch(() => undefined);
});

// Reachable from DevTools (and the benchmarks) as `player`; the offscreen document is the extension's own.
Object.assign(globalThis, { player });

// The background posts commands with the audio bytes transferred, not copied.
navigator.serviceWorker.onmessage = (event: MessageEvent<PlayerCommand>) => {
  if (event.origin && event.origin !== location.origin) return;
  player.handle(event.data);
};
