/**
 * Where the audio plays: Chrome in an offscreen document, whose player's events come back as messages;
 * Firefox has none and plays in this page. `playerSink` is made before the reader (it plays the
 * reader's audio), `init` takes the offscreen document's events.
 */
import { PlayerStats } from '../audio/player-stats';
import { offscreenPlayerSink } from '../audio/offscreen-sink';
import { backgroundPlayerSink } from '../audio/page-sink';
import { diagnostics } from '../diagnostics/wired';
import { onPageMessage } from '../messaging/protocol';
import { type BackgroundContext, onAbort } from './context';

type PlayerEvents = Parameters<typeof backgroundPlayerSink>[0];

/** The player for `createReader`; `onEvent` is the reader's (Firefox: events come from this page's own player). */
export function playerSink(onEvent: PlayerEvents) {
  return import.meta.env.FIREFOX ? inPagePlayer(onEvent) : offscreenPlayerSink(undefined, (readingId) => onEvent({ type: 'lost', readingId }));
}

function inPagePlayer(onEvent: PlayerEvents) {
  const sink = backgroundPlayerSink(onEvent, diagnostics.counters(() => new PlayerStats()));
  // Test builds only: reachable from the background page (tests, benchmarks) as `player`, as in Chrome's offscreen document.
  diagnostics.expose({ player: sink.player });
  return sink;
}

export function init(signal: AbortSignal, { reader }: Pick<BackgroundContext, 'reader'>): void {
  onAbort(
    signal,
    onPageMessage('playerEvent', ({ data }) => {
      void reader.onPlayerEvent(data);
    }),
  );
}
