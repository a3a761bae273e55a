import { describe, expect, it } from 'vitest';
import { NETWORK_TRIES_MS, NetworkWait, type NetworkNews } from './network-wait';

/** A clock moved by hand, with its timers. */
function world(pauseAfterMs = 60_000) {
  let now = 1_000_000;
  let timers: Array<{ at: number; fire: () => void }> = [];
  const news: NetworkNews[] = [];
  let awake = 0;
  const wait = new NetworkWait({
    now: () => now,
    timer: (ms, fire) => {
      const t = { at: now + ms, fire };
      timers.push(t);
      return () => (timers = timers.filter((x) => x !== t));
    },
    pauseAfterMs: () => pauseAfterMs,
    tell: (n) => news.push(n),
    keepAwake: () => void (awake += 1),
  });
  const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
  return {
    wait,
    news,
    awake: () => awake,
    /** Moves the clock by `ms`, firing the timers due. */
    async advance(ms: number) {
      now += ms;
      const due = timers.filter((t) => t.at <= now);
      timers = timers.filter((t) => t.at > now);
      due.forEach((t) => t.fire());
      await flush();
    },
    /** The machine slept `ms`: the wall clock moved on, the timers (which count only time awake) did not. */
    jump(ms: number) {
      now += ms;
      timers.forEach((t) => (t.at += ms));
    },
    /** The ms until the next timer fires (null: none). */
    next: () => (timers.length ? Math.min(...timers.map((t) => t.at)) - now : null),
    flush,
  };
}

/** Whether `p` has settled, and how. */
function watch(p: Promise<unknown>) {
  const seen = { settled: false as false | 'resolved' | 'rejected' };
  p.then(
    () => (seen.settled = 'resolved'),
    () => (seen.settled = 'rejected'),
  );
  return seen;
}

describe('waiting for the network', () => {
  it('tries again after 1, 2, 4, 8, 8 … s: never more than 8 s between two tries', async () => {
    const w = world(10 * 60_000);
    const signal = new AbortController().signal;
    const gaps: Array<number | null> = [];
    for (let i = 0; i < 6; i++) {
      const p = watch(w.wait.unreachable(signal));
      gaps.push(w.next());
      await w.advance(w.next()!);
      expect(p.settled).toBe('resolved');
    }
    expect(gaps).toEqual([1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
    expect(Math.max(...NETWORK_TRIES_MS)).toBeLessThanOrEqual(8_000);
    // Told once that the wait began; kept awake at every try.
    expect(w.news).toEqual(['unreachable']);
    expect(w.awake()).toBe(6);
  });

  it('is over when the service answers: told once, and the next wait starts from 1 s again', async () => {
    const w = world();
    const signal = new AbortController().signal;
    const p = w.wait.unreachable(signal);
    await w.advance(1_000);
    await p;
    void w.wait.unreachable(signal);
    w.wait.reached();
    w.wait.reached();
    expect(w.news).toEqual(['unreachable', 'reachable']);
    expect(w.wait.since).toBe(0);
    await w.advance(2_000);
    void w.wait.unreachable(signal);
    expect(w.next()).toBe(1_000);
    expect(w.news).toEqual(['unreachable', 'reachable', 'unreachable']);
  });

  it("the browser's online event: every waiting request tries at once", async () => {
    const w = world();
    const signal = new AbortController().signal;
    const a = watch(w.wait.unreachable(signal));
    await w.advance(1_000);
    const b = watch(w.wait.unreachable(signal));
    const c = watch(w.wait.unreachable(signal));
    await w.flush();
    expect([b.settled, c.settled]).toEqual([false, false]);
    w.wait.online();
    await w.flush();
    expect([a.settled, b.settled, c.settled]).toEqual(['resolved', 'resolved', 'resolved']);
    expect(w.next()).toBeNull();
  });

  it('past the pause limit: told once, nothing tried (no timer, not kept awake) until ▶, which tries at once and counts the limit anew', async () => {
    const w = world(30_000);
    const signal = new AbortController().signal;
    for (let t = 0; t < 30_000; ) {
      const p = w.wait.unreachable(signal);
      const gap = w.next()!;
      t += gap;
      await w.advance(gap);
      await p;
    }
    const awake = w.awake();
    const held = watch(w.wait.unreachable(signal));
    expect(w.news).toEqual(['unreachable', 'expired']);
    expect(w.wait.held).toBe(true);
    expect(w.next()).toBeNull();
    expect(w.awake()).toBe(awake);
    // Online again does not undo the pause: the listener does.
    w.wait.online();
    await w.advance(60_000);
    expect(held.settled).toBe(false);
    w.wait.retryNow();
    await w.flush();
    expect(held.settled).toBe('resolved');
    expect(w.wait.held).toBe(false);
    // The limit counts from the ▶: the next failure waits again, and is not held.
    void w.wait.unreachable(signal);
    expect(w.next()).toBe(1_000);
    expect(w.news).toEqual(['unreachable', 'expired']);
  });

  it('a request no longer wanted stops waiting with its reason; its timer goes', async () => {
    const w = world();
    const c = new AbortController();
    const p = watch(w.wait.unreachable(c.signal));
    c.abort(new Error('stopped'));
    await w.flush();
    expect(p.settled).toBe('rejected');
    expect(w.next()).toBeNull();
    await expect(w.wait.unreachable(c.signal)).rejects.toThrow('stopped');
  });

  it('a restarted background takes up the wait where it began (shown from then); the limit counts anew', async () => {
    const w = world(30_000);
    w.wait.resume(1_000_000 - 40_000);
    expect(w.wait.since).toBe(1_000_000 - 40_000);
    void w.wait.unreachable(new AbortController().signal);
    // "unreachable" was told (and shown) in the last life; the 40 s before may have been a machine asleep.
    expect(w.news).toEqual([]);
    expect(w.wait.held).toBe(false);
    w.wait.forget();
    expect(w.wait.since).toBe(0);
  });

  it('a machine asleep mid-wait (the wall clock jumps 20 min): the limit counts the waits, not the clock; one try on waking, no burst', async () => {
    const w = world(60_000);
    const signal = new AbortController().signal;
    const first = watch(w.wait.unreachable(signal));
    w.jump(20 * 60_000);
    await w.flush();
    expect(first.settled).toBe(false);
    await w.advance(w.next()!);
    expect(first.settled).toBe('resolved');
    // Tried once on waking, found the wall still there: waits on, not paused.
    const second = watch(w.wait.unreachable(signal));
    expect(w.news).toEqual(['unreachable']);
    expect(w.wait.held).toBe(false);
    expect(w.next()).toBe(2_000);
    await w.advance(2_000);
    expect(second.settled).toBe('resolved');
  });

  it('two requests waiting together count the time once: the limit is not reached twice as fast', async () => {
    const w = world(30_000);
    const signal = new AbortController().signal;
    let t = 0;
    for (let i = 0; i < 20; i++) {
      void w.wait.unreachable(signal);
      void w.wait.unreachable(signal);
      if (w.wait.held) break;
      const gap = w.next()!;
      t += gap;
      await w.advance(gap);
    }
    // Held at the first look past 30 s of waiting (the tries at 0, 1, 3, 7, 15, 23 and 30 s), not at 15.
    expect(t).toBe(30_000);
    expect(w.news).toEqual(['unreachable', 'expired']);
  });
});

