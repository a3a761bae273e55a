/**
 * The look-ahead rule, alone and pure: which part may be bought now, given where the player is. The part
 * after the one playing, and past it only once the parts between are all received and hold less than
 * `LOOKAHEAD_SECONDS` of audio (one request ahead at a time: a stop wastes one part and those few seconds at
 * most, and a refusal — an empty balance — stops the buying before anything after it is paid for); parts the
 * service refused are passed over; nothing ahead while the reading asks the listener, or past where the sleep
 * timer ends it.
 *
 * Why seconds, not only one part: a player that ran dry waits for more than a moment of audio before it plays
 * again (Chromium's audio renderer asks for more after each underrun), and a player that never moves never
 * lets the next part be bought. Short parts in a row (a book's chapter titles, one-line sections) stalled the
 * reading for good that way; with a few seconds ahead the player always gets enough to move on.
 * `delivery.ts` runs these decisions; `lookahead.test.ts` is their table.
 */

/** Audio held between the part playing and a part bought ahead of it, at most (s). */
export const LOOKAHEAD_SECONDS = 4;

export interface LookaheadFacts {
  /** The part in question. */
  k: number;
  /** The part the player is on now. */
  playing: number;
  /** Parts planned so far. */
  end: number;
  /** More parts are still being planned (a document read in batches). */
  growing: boolean;
  /** Parts the service refused. */
  skipped: ReadonlySet<number>;
  /** The first part the sleep timer keeps from being bought (Infinity: none). */
  holdFrom: number;
  /** The reading waits for the listener's answer (nothing more is bought until then). */
  asking: boolean;
  /** Seconds of part j's audio: measured, or estimated from its characters. */
  seconds(j: number): number;
  /** Part j's audio is all here (handed to the player whole). */
  received(j: number): boolean;
}

/** Part k may be bought now: at or before the part playing, or after it with less than the look-ahead's seconds between. */
export function withinLookahead(f: Pick<LookaheadFacts, 'k' | 'playing' | 'skipped' | 'holdFrom' | 'asking' | 'seconds' | 'received'>): boolean {
  if (f.k <= f.playing) return true;
  if (f.k >= f.holdFrom || f.asking) return false;
  let between = 0;
  for (let j = f.playing + 1; j < f.k && between < LOOKAHEAD_SECONDS; j++) {
    if (f.skipped.has(j)) continue;
    if (!f.received(j)) return false;
    between += f.seconds(j);
  }
  return between < LOOKAHEAD_SECONDS;
}

/**
 * What to do about a part ahead of the one playing: `fetch` it (unless it is cached or under way),
 * `wait` until the plan grows to it (then decide again), `pass` it (refused: the next may be bought), or `none`.
 */
export type AheadDecision = 'fetch' | 'wait' | 'pass' | 'none';

export function aheadDecision(f: LookaheadFacts): AheadDecision {
  if (f.k >= f.end) return f.growing ? 'wait' : 'none';
  if (!withinLookahead(f)) return 'none';
  return f.skipped.has(f.k) ? 'pass' : 'fetch';
}
