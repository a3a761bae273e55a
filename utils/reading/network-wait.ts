/**
 * The service cannot be reached (no answer at all: refused, reset or timed out before any byte): a wait
 * of the reading, not an error. What was received plays on; every request that met the wall tries again
 * at a capped interval, at once when the browser says it is online again, and the reading carries on by
 * itself when one is answered. Past the pause limit the reading pauses (the table's `wait-expired`) and
 * nothing more is tried until the listener presses ▶ (`retryNow`).
 *
 * One per reader: the network is one fact for every request. It only counts and wakes; what the listener
 * sees is the table's (`machine.ts`), told through `tell`.
 */

/** The waits between tries, then the last again: never more than 8 s between two. */
export const NETWORK_TRIES_MS: readonly number[] = [1_000, 2_000, 4_000, 8_000];
/**
 * The longest a single move of the clock counts towards the pause limit: a try that timed out (30 s) and
 * the wait after it, not the hours of a machine asleep.
 */
export const GAP_CAP_MS = 40_000;
/** After this long without the service the reading pauses (▶ carries on from the same place). */
export const NETWORK_PAUSE_AFTER_MS = 10 * 60_000;

export type NetworkNews = 'unreachable' | 'reachable' | 'expired';

export interface NetworkWaitDeps {
  now(): number;
  /** A timer: calls `fire` after `ms`; returns its cancel. */
  timer(ms: number, fire: () => void): () => void;
  /** The pause limit (a test may shorten it). */
  pauseAfterMs(): number;
  /** The wait began, ended (the service answered), or passed the pause limit. */
  tell(news: NetworkNews): void;
  /**
   * Something the browser counts as the extension at work, at every try: Chrome ends a worker idle for
   * 30 s, and neither a timer nor a failed fetch counts, while a wait with nothing left to play sends no
   * other event.
   */
  keepAwake?(): void;
}

export class NetworkWait {
  #since = 0;
  /**
   * The time waited, for the pause limit: the clock's moves between the moments the wait is looked at (a
   * request meeting the wall, a try's timer), each counted once whatever number of requests wait, and each
   * at most GAP_CAP_MS — a machine asleep mid-wait (a lid closed) does not find the limit passed on waking.
   */
  #waited = 0;
  #seenAt = 0;
  #tries = 0;
  #held = false;
  readonly #wakers = new Set<() => void>();

  constructor(private readonly deps: NetworkWaitDeps) {}

  /** When the wait began (epoch ms); 0 when the service is not being waited for. */
  get since(): number {
    return this.#since;
  }

  /** Past the pause limit: nothing is tried until `retryNow`. */
  get held(): boolean {
    return this.#held;
  }

  /**
   * A request found the service unreachable: resolves when it is time to try again; rejects with the
   * signal's reason when the request is no longer wanted. `giveUp`: past the pause limit it is thrown
   * instead of waiting (a reading's text that never came has nothing to pause on).
   */
  async unreachable(signal: AbortSignal, giveUp?: Error): Promise<void> {
    signal.throwIfAborted();
    const now = this.deps.now();
    if (!this.#since) {
      this.#since = now;
      this.#waited = 0;
      this.#seenAt = now;
      this.#tries = 0;
      this.deps.tell('unreachable');
    } else {
      this.count();
    }
    if (!this.#held && this.#waited >= this.deps.pauseAfterMs()) {
      this.#held = true;
      this.deps.tell('expired');
    }
    if (this.#held && giveUp) throw giveUp;
    if (!this.#held) this.deps.keepAwake?.();
    const ms = NETWORK_TRIES_MS[Math.min(this.#tries, NETWORK_TRIES_MS.length - 1)]!;
    this.#tries += 1;
    // A last try at the limit itself: the pause comes then, not up to a whole interval later.
    const left = this.deps.pauseAfterMs() - this.#waited;
    await this.nap(this.#held ? null : Math.max(0, Math.min(ms, left)), signal);
  }

  /** The service answered (any answer, an error's too): the wait is over. */
  reached(): void {
    if (!this.#since) return;
    this.#since = 0;
    this.#waited = 0;
    this.#seenAt = 0;
    this.#tries = 0;
    this.#held = false;
    this.deps.tell('reachable');
  }

  /** The browser says it is online again: every waiting request tries at once (unless held at the limit). */
  online(): void {
    if (this.#held) return;
    this.#tries = 0;
    this.wakeAll();
  }

  /** The listener pressed ▶ (after the limit paused the reading, or while waiting): tried at once, the limit counted anew. */
  retryNow(): void {
    if (this.#since) this.#since = this.deps.now();
    this.#waited = 0;
    this.#seenAt = this.#since;
    this.#held = false;
    this.#tries = 0;
    this.wakeAll();
  }

  /** The reading ended or was replaced: its waiting requests end by their own signals; the wait is forgotten. */
  forget(): void {
    this.#since = 0;
    this.#waited = 0;
    this.#seenAt = 0;
    this.#tries = 0;
    this.#held = false;
  }

  /**
   * A restarted background takes up a wait that had begun at `since` (from the saved view, for what is
   * shown); the pause limit counts anew (the time before may have been a machine asleep).
   */
  resume(since: number): void {
    if (since <= 0 || this.#since) return;
    this.#since = since;
    this.#waited = 0;
    this.#seenAt = this.deps.now();
  }

  /** Counts the clock's move since the wait was last looked at (at most GAP_CAP_MS). */
  private count(): void {
    const now = this.deps.now();
    if (this.#seenAt) this.#waited += Math.min(Math.max(0, now - this.#seenAt), GAP_CAP_MS);
    this.#seenAt = now;
  }

  private wakeAll(): void {
    const wakers = [...this.#wakers];
    this.#wakers.clear();
    wakers.forEach((wake) => wake());
  }

  /** Resolves after `ms` (never, when null) or at a wake, counting the time waited; rejects when `signal` aborts. */
  private nap(ms: number | null, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      let cancel = () => undefined as void;
      const done = (abort: boolean) => {
        cancel();
        if (this.#since) this.count();
        this.#wakers.delete(wake);
        signal.removeEventListener('abort', onAbort);
        if (abort) reject(signal.reason);
        else resolve();
      };
      const wake = () => done(false);
      const onAbort = () => done(true);
      this.#wakers.add(wake);
      signal.addEventListener('abort', onAbort, { once: true });
      if (ms !== null) cancel = this.deps.timer(ms, () => done(false));
    });
  }
}
