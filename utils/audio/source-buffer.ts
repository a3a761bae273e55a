/**
 * The player's SourceBuffer as time: where its audio ends, how much it holds, and the removal of audio
 * already played. Helpers on one buffer, apart from the player (mse-player.ts), which decides when
 * to ask them.
 */

/** Seconds of already played audio kept behind the playhead; the rest is removed so memory stays flat. */
const KEEP_BEHIND = 10;
const EVICT_AFTER = 30;

/** Where the buffered audio ends (0 with no buffer, or nothing in it). */
export function bufferedEnd(buffer: SourceBuffer | null): number {
  const b = buffer?.buffered;
  return b && b.length ? b.end(b.length - 1) : 0;
}

/** Seconds of audio the buffer holds, from its first to its last. */
export function bufferedSpan(buffer: SourceBuffer | null): number {
  const b = buffer?.buffered;
  return b && b.length ? b.end(b.length - 1) - b.start(0) : 0;
}

/** Removes played audio well behind the playhead (`currentTime`); true when a removal started. */
export function evictPlayed(buffer: SourceBuffer | null, currentTime: number, force: boolean): boolean {
  if (!buffer || buffer.updating || !buffer.buffered.length) return false;
  const start = buffer.buffered.start(0);
  const upTo = currentTime - KEEP_BEHIND;
  if (upTo - start < (force ? 1 : EVICT_AFTER)) return false;
  buffer.remove(start, upTo);
  return true;
}
