/**
 * The player's counters for test builds, apart from the player (mse-player.ts), which only names their
 * type: the player's own file holds no test-only code.
 */

/**
 * Counters for the benchmarks and the Firefox suite (read through DevTools or the background page):
 * stalls and timings of the current load. Only a test build (`wxt build --mode test`) makes one and
 * hands it to the player; production players have none, and this class is dropped from their bundle.
 */
export class PlayerStats {
  waiting = 0;
  firstBytesAt = 0;
  firstPlayingAt = 0;
  endedAt = 0;
  loads = 0;
  stalls: Array<{ at: number; ms: number }> = [];
  #stalledSince = 0;

  load(): void {
    Object.assign(this, { waiting: 0, firstBytesAt: 0, firstPlayingAt: 0, endedAt: 0, loads: this.loads + 1, stalls: [] });
    this.#stalledSince = 0;
  }

  bytes(): void {
    this.firstBytesAt ||= performance.now();
  }

  playing(currentTime: number): void {
    this.firstPlayingAt ||= performance.now();
    if (this.#stalledSince) this.stalls.push({ at: Math.round(currentTime * 10) / 10, ms: Math.round(performance.now() - this.#stalledSince) });
    this.#stalledSince = 0;
  }

  /** A stall is a wait after playback had begun (not the first buffering). */
  waited(): void {
    if (!this.firstPlayingAt) return;
    this.waiting++;
    this.#stalledSince = performance.now();
  }

  ended(): void {
    this.endedAt = performance.now();
  }
}
