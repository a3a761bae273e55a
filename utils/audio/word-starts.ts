/**
 * Where each word of one run (the words between two pauses placed at word boundaries) starts: the second of
 * the word estimate's two dynamic programmes (`word-timing.ts` runs both), over the run's loudness windows.
 */
import type { Loudness, TimedWord } from './word-measure';
import { scratch } from './scratch';

const bestRows = scratch((n) => new Float64Array(n));
const tookTable = scratch((n) => new Uint16Array(n));
/** The longest a word may take, in windows (what a Uint16 holds: 11 minutes at 10 ms). */
const LONGEST_WINDOWS = 0xffff;

/** A dip between words: quieter than this share of the run's median loudness (the test voice's gaps and a real voice's breaths; not a consonant's softer sounds). */
const DIP_SHARE = 0.15;
/** How far a word's length may stray from what its weight gives (the log of their ratio, one standard deviation). */
const LENGTH_SIGMA = 0.3;
/** What a word's start right after a dip is worth (plus a little per window of the dip, up to six), against the length's cost. */
const AFTER_DIP = 0.3;
const PER_DIP_WINDOW = 0.2;
const DIP_WINDOWS_COUNTED = 6;

/**
 * Where each word of one run (`timed[from..]`, contiguous, between two placed pauses) starts, all at once: the
 * most likely boundaries (a dynamic programme over the loudness windows) where each word's length is scored
 * against its share of the run by `weights` (lognormal, `LENGTH_SIGMA`), and a word is more likely to start
 * where the sound comes back after a dip (a gap between words; more so the longer the dip) and never in the
 * dip itself. A consonant's closure inside a word is a dip too: the lengths tell which dips are gaps. Where no
 * dip is near, the weights' share stands.
 */
export function placeWordStarts(timed: TimedWord[], from: number, { windowMs, rms }: Loudness, weights: readonly number[]): void {
  const k = timed.length - from;
  if (k < 2) return;
  const first = Math.round(timed[from]!.startMs / windowMs);
  const n = Math.min(rms.length, Math.round(timed.at(-1)!.endMs / windowMs)) - first;
  if (n < 2 * k) return;
  const run = rms.subarray(first, first + n);
  const dip = Float32Array.from(run).sort()[n >> 1]! * DIP_SHARE;
  // The dip's windows just before window t.
  const quietBefore = new Int32Array(n + 1);
  for (let t = 1; t <= n; t++) quietBefore[t] = run[t - 1]! < dip ? quietBefore[t - 1]! + 1 : 0;
  const startScore = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    const quiet = quietBefore[t]!;
    startScore[t] = run[t]! < dip ? -2 * PER_DIP_WINDOW : quiet > 0 ? AFTER_DIP + PER_DIP_WINDOW * Math.min(quiet, DIP_WINDOWS_COUNTED) : 0;
  }
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  const expected = weights.map((w) => (n * w) / total);
  // best[i][t]: word i starts at window t, the best score of the words before it; only rows i − 1 and i are
  // read, so two are kept, in turn. took[i][t]: how many windows word i − 1 took (0: no way to start here).
  const best = bestRows(2 * n);
  const took = tookTable(k * n).fill(0);
  best.fill(-Infinity, 0, n);
  best[0] = 0;
  const lengthScore = (i: number, d: number) => -((Math.log(d / expected[i]!) / LENGTH_SIGMA) ** 2) / 2;
  for (let i = 1; i < k; i++) {
    const e = expected[i - 1]!;
    // A word a third to three times its weight's share (beyond, the score is under −6.7: never the best).
    const shortest = Math.max(1, Math.floor(e / 3));
    const longest = Math.min(Math.ceil(e * 3), LONGEST_WINDOWS);
    const scoreOf = new Float64Array(longest + 1);
    for (let d = shortest; d <= longest; d++) scoreOf[d] = lengthScore(i - 1, d);
    const before = ((i - 1) & 1) * n;
    const here = (i & 1) * n;
    best.fill(-Infinity, here, here + n);
    for (let t = shortest; t < n; t++) {
      let score = -Infinity;
      let length = 0;
      for (let d = shortest, top = Math.min(longest, t); d <= top; d++) {
        const s = best[before + t - d]! + scoreOf[d]!;
        if (s > score) {
          score = s;
          length = d;
        }
      }
      if (length > 0) {
        best[here + t] = score + startScore[t]!;
        took[i * n + t] = length;
      }
    }
  }
  const lastRow = ((k - 1) & 1) * n;
  let score = -Infinity;
  let last = -1;
  for (let t = 1; t < n; t++) {
    if (best[lastRow + t] === -Infinity) continue;
    const s = best[lastRow + t]! + lengthScore(k - 1, n - t);
    if (s > score) [score, last] = [s, t];
  }
  if (last < 0) return;
  for (let i = k - 1, t = last; i > 0; t -= took[i * n + t]!, i--) {
    const ms = (first + t) * windowMs;
    timed[from + i - 1]!.endMs = ms;
    timed[from + i]!.startMs = ms;
  }
}
