/**
 * Where playback is, finer than the media element says. Firefox's `currentTime` moves in steps (of 40 ms of
 * audio with the mock output the tests run on; a sound card's buffer elsewhere): read at a random moment it is
 * up to a step behind, and a word told from it comes late by as much (`bench/word-marks.ts --firefox` measured
 * it). Each reading is a lower bound that keeps good as time passes: the position is the most
 * advanced of the last second's readings carried forward at the rate (a second's drift between the wall clock
 * and the audio's is small, even with the mock output's slow clock). Chromium's `currentTime` moves smoothly,
 * so the newest reading is the most advanced there. Pure: the player passes the time in.
 */

/** Readings older than this are dropped (ms). */
const KEEP_MS = 1_000;
/** Carried forward, the readings may not run ahead of the element by more than this (s): a jump back or a stall. */
const MAX_AHEAD_S = 0.1;

export class FinePosition {
  private readings: Array<{ s: number; at: number }> = [];
  private rate = 1;

  /** The element says `s` seconds at wall time `at` (ms), playing at `rate`: the best estimate, seconds. */
  read(s: number, at: number, rate: number): number {
    if (rate !== this.rate) this.forget();
    this.rate = rate;
    this.readings = this.readings.filter((r) => at - r.at <= KEEP_MS);
    let best = s;
    for (const r of this.readings) best = Math.max(best, r.s + ((at - r.at) / 1000) * rate);
    if (best - s > MAX_AHEAD_S) {
      // Something moved playback back or held it: start again from this reading.
      this.readings = [];
      best = s;
    }
    this.readings.push({ s, at });
    return best;
  }

  /** Playback stopped, jumped or changed speed: the readings before say nothing about what comes. */
  forget(): void {
    this.readings = [];
  }
}
