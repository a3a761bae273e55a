import { FMP4_MP3_MIME, Mp3ToFmp4 } from './mp3-fmp4';
import { MsePlayer } from './mse-player';
import { PLAIN_MP3, type PlayerFormat } from './player-format';
import type { PlayerStats } from './player-stats';
import type { PlayerEvent, PlayerSink } from './player-protocol';

/** Audio buffered before a wrapped stream (Firefox) starts playing: about two of the service's first pieces. */
const FMP4_START_SECONDS = 0.25;

/** MP3 straight into MediaSource where the browser takes it, else wrapped in fragmented MP4 (Firefox). */
export function pickPlayerFormat(isTypeSupported = (t: string) => MediaSource.isTypeSupported(t)): PlayerFormat {
  if (isTypeSupported(PLAIN_MP3.mime)) return PLAIN_MP3;
  if (isTypeSupported(FMP4_MP3_MIME)) return { mime: FMP4_MP3_MIME, wrap: () => new Mp3ToFmp4(), startSeconds: FMP4_START_SECONDS };
  throw new Error('This browser cannot stream MP3 audio.');
}

/**
 * Firefox has no offscreen documents: the player lives in the persistent
 * background page itself. Events reach the reader on a later microtask, as
 * they would through messaging, so a command never re-enters the reader.
 * `stats` (test builds only) counts the player's stalls and timings.
 */
export function backgroundPlayerSink(
  onEvent: (event: PlayerEvent) => void,
  stats?: PlayerStats,
): PlayerSink & { player: MsePlayer | null } {
  const emit = (event: PlayerEvent) => void Promise.resolve().then(() => onEvent(event));
  let format: PlayerFormat | null = null;
  let refusal = '';
  try {
    format = pickPlayerFormat();
  } catch (err) {
    // Said on the first reading; the rest of the background (menus, options, popup) still starts.
    refusal = err instanceof Error ? err.message : String(err);
  }
  const player = format ? new MsePlayer(emit, new Audio(), format, stats) : null;
  return {
    player,
    post(cmd) {
      if (player) player.handle(cmd);
      else if (cmd.type === 'load') emit({ type: 'error', readingId: cmd.readingId, message: refusal });
      return Promise.resolve();
    },
  };
}
