/**
 * How often a page may start a reading (click-to-read's ▶): a click is the user's, but a page that
 * found a way to make clicks land on the ▶ must not start paid reading after paid reading.
 */

/** At most this many starts from pages… */
export const PAGE_STARTS = 3;
/** …within this window. */
export const PAGE_STARTS_WINDOW_MS = 10_000;
/** And never two within this (a double click is one start). */
export const PAGE_START_GAP_MS = 1_000;

/** The starts taken in the last window; `take(now)` answers whether one more may go now. Pure over `now`. */
export class StartRate {
  private times: number[] = [];

  take(now: number): boolean {
    this.times = this.times.filter((t) => now - t < PAGE_STARTS_WINDOW_MS);
    const last = this.times.at(-1);
    if (this.times.length >= PAGE_STARTS || (last !== undefined && now - last < PAGE_START_GAP_MS)) return false;
    this.times.push(now);
    return true;
  }
}
