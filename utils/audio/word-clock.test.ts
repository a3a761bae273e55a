import { describe, expect, it } from 'vitest';
import { type PlayPoint, WordClock, wordIndexAt } from './word-clock';

describe('wordIndexAt: the last word started', () => {
  it.each([
    [[0, 300, 700], -1, -1],
    [[100, 300, 700], 50, -1],
    [[100, 300, 700], 100, 0],
    [[100, 300, 700], 299, 0],
    [[100, 300, 700], 300, 1],
    [[100, 300, 700], 5000, 2],
    [[], 10, -1],
  ])('%j at %i ms: %i', (starts, ms, want) => expect(wordIndexAt(starts, ms)).toBe(want));
});

/** A clock on a fake audio clock: `advance` moves the audio and fires the timers due. */
function rig(point: Partial<PlayPoint> | null = {}, lead = 0) {
  let now = 0;
  let at: PlayPoint | null = point && { part: 0, ms: 0, rate: 1, partLeftMs: null, ...point };
  const timers: Array<{ run: () => void; due: number; id: number }> = [];
  let ids = 0;
  const told: Array<[number, number]> = [];
  const clock = new WordClock(
    () => at && { ...at },
    (part, word) => told.push([part, word]),
    {
      set: (run, ms) => (timers.push({ run, due: now + ms, id: ++ids }), ids),
      clear: (id) => timers.splice(timers.findIndex((t) => t.id === id) >>> 0, timers.some((t) => t.id === id) ? 1 : 0),
      now: () => now,
    },
    lead,
  );
  return {
    clock,
    told,
    timers,
    /** Real time passes; the audio moves at its rate while it plays. */
    advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const next = timers.sort((a, b) => a.due - b.due)[0];
        if (!next || next.due > end) break;
        if (at) at.ms += (next.due - now) * at.rate;
        now = next.due;
        timers.shift();
        next.run();
      }
      if (at) at.ms += (end - now) * at.rate;
      now = end;
    },
    set(p: Partial<PlayPoint> | null) {
      at = p && { ...(at ?? { part: 0, ms: 0, rate: 1, partLeftMs: null }), ...p };
    },
  };
}

describe('WordClock: each word told as it is said', () => {
  it('tells the words in order, each once, at their starts', () => {
    const r = rig();
    r.clock.setWords(0, [0, 250, 600, 900]);
    expect(r.told).toEqual([[0, 0]]);
    r.advance(249);
    expect(r.told).toEqual([[0, 0]]);
    r.advance(2);
    expect(r.told).toEqual([[0, 0], [0, 1]]);
    r.advance(1000);
    expect(r.told).toEqual([[0, 0], [0, 1], [0, 2], [0, 3]]);
    expect(r.timers).toHaveLength(0);
  });

  it('at twice the rate, the same words in half the time', () => {
    const r = rig({ rate: 2 });
    r.clock.setWords(0, [0, 400, 800]);
    r.advance(201);
    expect(r.told).toEqual([[0, 0], [0, 1]]);
    r.advance(200);
    expect(r.told).toEqual([[0, 0], [0, 1], [0, 2]]);
  });

  it('paused: no timer runs, the word told stays; resumed: it goes on from there', () => {
    const r = rig();
    r.clock.setWords(0, [0, 300, 600]);
    r.set(null);
    r.clock.stop();
    r.advance(1000);
    expect(r.told).toEqual([[0, 0]]);
    r.set({ ms: 0 });
    r.clock.sync();
    expect(r.told).toEqual([[0, 0]]);
    r.advance(301);
    expect(r.told).toEqual([[0, 0], [0, 1]]);
  });

  it('a part not yet timed tells nothing, but its end wakes the clock for the next part', () => {
    const r = rig({ part: 0, ms: 0, partLeftMs: 500 });
    r.clock.setWords(1, [0, 200]);
    r.clock.sync();
    expect(r.told).toEqual([]);
    r.advance(400);
    r.set({ part: 1, ms: 0, partLeftMs: null });
    r.advance(101);
    expect(r.told).toEqual([[1, 0]]);
  });

  it('a part whose words are not known yet is told as it begins (the player then says where it is)', () => {
    const begun: number[] = [];
    let at: PlayPoint = { part: 0, ms: 0, rate: 1, partLeftMs: null };
    const clock = new WordClock(() => at, () => undefined, { set: () => 0, clear: () => undefined, now: () => 0 }, 0, (part) => begun.push(part));
    clock.setWords(0, [0, 200]);
    expect(begun).toEqual([]);
    at = { ...at, part: 1 };
    clock.sync();
    clock.sync();
    expect(begun).toEqual([1]);
  });

  it('told ahead by the mark\'s way to the page: 20 ms of listening, 40 ms of audio at 2×', () => {
    const r = rig({ rate: 2 }, 20);
    r.clock.setWords(0, [0, 400]);
    r.advance(179);
    expect(r.told).toEqual([[0, 0]]);
    r.advance(2);
    expect(r.told).toEqual([[0, 0], [0, 1]]);
  });

  it('words faster than one each 30 ms are passed over, not each told (no flood of messages)', () => {
    const r = rig();
    r.clock.setWords(0, Array.from({ length: 100 }, (_, i) => i * 5));
    r.advance(530);
    expect(r.told.length).toBeLessThanOrEqual(19);
    expect(r.told.at(-1)).toEqual([0, 99]);
  });

  it("a look that tells nothing does not hold the next word back (a part's start, 10 ms away)", () => {
    const r = rig({ ms: -10 });
    r.clock.setWords(0, [100, 400]);
    expect(r.told).toEqual([]);
    r.advance(11);
    expect(r.told).toEqual([[0, 0]]);
  });

  it("a part's first word is told as the part begins, in the silence before it (its estimated start may be late)", () => {
    const r = rig({ part: 0, ms: 0, partLeftMs: 500 });
    r.clock.setWords(0, [170, 300]);
    r.clock.setWords(1, [170, 300]);
    expect(r.told).toEqual([[0, 0]]);
    r.advance(301);
    expect(r.told).toEqual([[0, 0], [0, 1]]);
    r.set({ part: 1, ms: 0, partLeftMs: null });
    r.clock.sync();
    expect(r.told).toEqual([[0, 0], [0, 1], [1, 0]]);
    r.advance(301);
    expect(r.told).toEqual([[0, 0], [0, 1], [1, 0], [1, 1]]);
  });

  it('a word right after the last told waits until 30 ms have passed since', () => {
    const r = rig();
    r.clock.setWords(0, [0, 20, 400]);
    expect(r.told).toEqual([[0, 0]]);
    r.advance(21);
    expect(r.told).toEqual([[0, 0]]);
    r.advance(10);
    expect(r.told).toEqual([[0, 0], [0, 1]]);
  });

  it('playback found a little behind the last look does not take the mark back a word, or a part', () => {
    const r = rig({ part: 0, ms: 0, partLeftMs: 400 });
    r.clock.setWords(0, [0, 300]);
    r.clock.setWords(1, [0, 50]);
    r.advance(350);
    expect(r.told).toEqual([[0, 0], [0, 1]]);
    r.set({ ms: 280 }); // Firefox's position carried forward, then set back by its element
    r.clock.sync();
    r.set({ part: 1, ms: 60, partLeftMs: null });
    r.clock.sync();
    r.set({ part: 0, ms: 395, partLeftMs: 5 });
    r.clock.sync();
    r.set({ part: 1, ms: 70, partLeftMs: null });
    r.clock.sync();
    expect(r.told).toEqual([[0, 0], [0, 1], [1, 1]]);
  });

  it("words re-timed later than told (a streaming part's estimate) hold the word told until playback reaches the next", () => {
    const r = rig();
    r.clock.setWords(0, [0, 200, 400]);
    r.advance(250);
    expect(r.told).toEqual([[0, 0], [0, 1]]);
    r.clock.setWords(0, [0, 300, 500]);
    expect(r.told).toEqual([[0, 0], [0, 1]]);
    r.advance(200);
    expect(r.told).toEqual([[0, 0], [0, 1]]);
    r.advance(51);
    expect(r.told).toEqual([[0, 0], [0, 1], [0, 2]]);
  });

  it('after a seek back, the word there is told', () => {
    const r = rig();
    r.clock.setWords(0, [0, 200, 400]);
    r.advance(450);
    r.set({ ms: 100 });
    r.clock.sync();
    expect(r.told.at(-1)).toEqual([0, 2]);
    r.clock.retell();
    r.clock.sync();
    expect(r.told.at(-1)).toEqual([0, 0]);
  });

  it('a jump tells the word again, even the same one; a new reading forgets the parts', () => {
    const r = rig();
    r.clock.setWords(0, [0, 300]);
    r.clock.retell();
    r.clock.sync();
    expect(r.told).toEqual([[0, 0], [0, 0]]);
    r.clock.reset();
    r.clock.sync();
    expect(r.clock.has(0)).toBe(false);
    expect(r.told).toHaveLength(2);
  });
});
