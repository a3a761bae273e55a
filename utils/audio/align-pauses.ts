/**
 * Which word boundary each pause of a part's audio is at: the first of the word estimate's two dynamic
 * programmes (`word-timing.ts` runs both; `word-starts.ts` is the second).
 */
import { scratch } from './scratch';

const bestRows = scratch((n) => new Float64Array(n));
const cameFrom = scratch((n) => new Uint16Array(n));

/** How far the pace of a part still coming may be from the one given (the log of their ratio, one standard deviation). */
const OPEN_PACE_SIGMA = 0.12;

/**
 * Which boundary each inner pause is at (−1: none, a pause inside a word, as before a stop consonant): the
 * most likely assignment in order. Between two pauses placed at boundaries, the speech took some time; the
 * words between those boundaries, at the part's own pace, would take about that long (the ratio's logarithm
 * is scored, so a run twice as long as its words costs the same as one half as long).
 * `cum[i]`: the words' weight up to boundary `i` (after word `i`), `total`: all of it; `likely[i]`: its
 * `pauseLikelihood`; `at[j]`: where pause `j` falls in speech time (ms of sound before it), `lengths[j]` its
 * length; `speech`: ms of
 * sound in all.
 */
export function alignPauses(
  cum: readonly number[],
  total: number,
  likely: readonly number[],
  at: readonly number[],
  lengths: readonly number[],
  speech: number,
  /**
   * Only the start of the part's audio is known (it is still coming): `speech` is the sound so far, how many
   * words it holds is not known, and the pace (ms of sound per unit of weight) is given. The words after the
   * last placed pause are left unscored.
   */
  open?: { msPerWeight: number },
  /** Given, told the placement's score (its log-likelihood, up to a constant). */
  scored?: { score: number },
): number[] {
  const n = cum.length;
  const m = at.length;
  if (scored) scored.score = 0;
  if (m === 0) return [];
  const rate = open ? open.msPerWeight : speech / Math.max(1e-9, total);
  // A silence inside a word is a stop consonant's closure: short. The longer a pause, the less likely it is one.
  const none = lengths.map((d) => Math.log(d <= 60 ? 0.3 : d <= 120 ? 0.05 : d <= 200 ? 0.005 : 1e-4));
  const noneSum = new Float64Array(m + 1);
  for (let j = 0; j < m; j++) noneSum[j + 1] = noneSum[j]! + none[j]!;
  /** Pauses a..b-1 all inside words. */
  const skipped = (a: number, b: number) => (b > a ? noneSum[b]! - noneSum[a]! : 0);
  const miss = likely.map((p) => Math.log(Math.max(1e-6, 1 - p)));
  // missSum[i]: the misses of boundaries 0..i-1.
  const missSum = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) missSum[i + 1] = missSum[i]! + miss[i]!;
  const weightAt = (i: number) => (i < 0 ? 0 : i >= n ? total : cum[i]!);
  const timeAt = (j: number) => (j < 0 ? 0 : j >= m ? speech : at[j]!);
  /** A run of words from boundary `i0` to `i1` said in the time between pauses `j0` and `j1`. */
  const run = (i0: number, i1: number, j0: number, j1: number) => {
    const expected = (weightAt(i1) - weightAt(i0)) * rate;
    const took = timeAt(j1) - timeAt(j0);
    if (expected <= 0 || took <= 0) return -50;
    const words = Math.max(1, i1 - i0);
    const sigma = 0.18 + 0.5 / Math.sqrt(words);
    return -((Math.log(took / expected) / sigma) ** 2) / 2;
  };
  const WINDOW = 40;
  /** At most this many pauses in a row inside words. */
  const SKIP = 7;
  // best[j][i]: pause j placed at boundary i, the best score of everything before. Only the last SKIP + 1
  // rows are read, so SKIP + 2 are kept, in turn. from[j][i]: where that best came from, in one Uint16 (0:
  // nowhere): the pause before, j − j0 (1 to SKIP + 1, j0 = −1 the start) in the low 4 bits; its boundary,
  // i − i0 (1 to WINDOW), above them.
  const rows = SKIP + 2;
  const best = bestRows(rows * n);
  const from = cameFrom(m * n).fill(0);
  const row = (j: number) => (j % rows) * n;
  // A pause is looked for only at boundaries within reach of where the weights put them (the pace may drift
  // by a tenth of the part, and a second and a half more): a 2,000-character part in a few ms, not hundreds.
  const band = 1500 + speech / 10;
  for (let j = 0; j < m; j++) {
    const here = row(j);
    best.fill(-Infinity, here, here + n);
    for (let i = 0; i < n; i++) {
      if (Math.abs(cum[i]! * rate - at[j]!) > band) continue;
      const place = Math.log(Math.max(1e-6, likely[i]!));
      let score = -Infinity;
      let came = 0;
      // From the start (pauses before j inside words), or from pause j0 (one of the SKIP + 1 before) at boundary i0 < i.
      for (let j0 = Math.max(-1, j - SKIP - 1); j0 < j; j0++) {
        if (j0 < 0) {
          const s = skipped(0, j) + missSum[i]! + run(-1, i, -1, j);
          if (s > score) {
            score = s;
            came = j + 1;
          }
          continue;
        }
        const before = row(j0);
        for (let i0 = Math.max(0, i - WINDOW); i0 < i; i0++) {
          const b = best[before + i0]!;
          if (b === -Infinity) continue;
          const s = b + skipped(j0 + 1, j) + (missSum[i]! - missSum[i0 + 1]!) + run(i0, i, j0, j);
          if (s > score) {
            score = s;
            came = (j - j0) | ((i - i0) << 4);
          }
        }
      }
      best[here + i] = score + place;
      from[j * n + i] = came;
    }
  }
  // The end: the last placed pause (or none), the rest of the words to the speech's end (open: where the
  // audio so far ends, the words said in it not known).
  // Open: the words so far end about where the pace puts the sound's end (the boundaries before it unpaused
  // count as misses wherever the last pause is placed; a last pause placed early is not cheaper).
  let end = n;
  if (open) {
    end = 0;
    while (end < n && cum[end]! * rate < speech) end++;
  }
  // Open: the pace given holds the last placed pause near where it puts its boundary (the whole part's end
  // no longer does; without this, a short pause early in a sentence is taken for its end, every word before
  // it crowded into too little time).
  const paceHeld = (i: number, j: number) => (open ? -((Math.log(Math.max(1, at[j]!) / Math.max(1, cum[i]! * rate)) / OPEN_PACE_SIGMA) ** 2) / 2 : 0);
  const rest = (i: number, j: number) => paceHeld(i, j) + (i >= end ? 0 : missSum[end]! - missSum[i + 1]! + run(i, end, j, m));
  let endScore = skipped(0, m) + (open && end === 0 ? 0 : missSum[end]! + run(-1, end, -1, m));
  let lastJ = -1;
  let lastI = -1;
  for (let j = Math.max(0, m - SKIP - 1); j < m; j++) {
    const here = row(j);
    for (let i = open ? 0 : Math.max(0, n - WINDOW); i < n; i++) {
      const b = best[here + i]!;
      if (b === -Infinity) continue;
      const s = b + skipped(j + 1, m) + rest(i, j);
      if (s > endScore) [endScore, lastJ, lastI] = [s, j, i];
    }
  }
  const placed = new Array<number>(m).fill(-1);
  for (let j = lastJ, i = lastI; j >= 0; ) {
    placed[j] = i;
    const came = from[j * n + i]!;
    if (came === 0) break;
    const j0 = j - (came & 15);
    i = j0 < 0 ? -1 : i - (came >> 4);
    j = j0;
  }
  if (scored) scored.score = endScore;
  return placed;
}
