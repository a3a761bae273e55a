/**
 * The look-ahead rule, alone and pure: which part may be bought now, given where the player is. One part
 * ahead of the one playing, no further (a stop wastes one part at most); parts the service refused are
 * passed over; nothing ahead while the reading asks the listener, or past where the sleep timer ends it.
 * `delivery.ts` runs these decisions; `lookahead.test.ts` is their table.
 */

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
}

/** Part k may be bought now: at or before the part playing, or the first not refused after it. */
export function withinLookahead(f: Pick<LookaheadFacts, 'k' | 'playing' | 'skipped' | 'holdFrom' | 'asking'>): boolean {
  if (f.k <= f.playing) return true;
  if (f.k >= f.holdFrom || f.asking) return false;
  for (let j = f.playing + 1; j < f.k; j++) if (!f.skipped.has(j)) return false;
  return true;
}

/**
 * What to do about the part after the one starting to play: `fetch` it (unless it is cached or under way),
 * `wait` until the plan grows to it (then decide again), or `none`.
 */
export type AheadDecision = 'fetch' | 'wait' | 'none';

export function aheadDecision(f: LookaheadFacts): AheadDecision {
  if (f.k >= f.end) return f.growing ? 'wait' : 'none';
  if (f.skipped.has(f.k) || !withinLookahead(f)) return 'none';
  return 'fetch';
}
