import { describe, expect, it } from 'vitest';
import { PlayTimeline } from './play-timeline';

/** A load from part 2, 1.5 s into it, after 40 s of the reading: parts 2, 3, 4 begin at 0, 10 and 25 s of the timeline. */
function timeline() {
  const t = new PlayTimeline();
  t.load(2, 1.5, 40);
  t.begins(2, 0);
  t.received(2, 60_000);
  t.completed(2);
  t.begins(3, 10);
  t.begins(3, 99); // kept from the first time
  t.received(3, 30_000);
  t.received(3, 6_000);
  return t;
}

describe('PlayTimeline: where the parts of a load lie on the player\'s timeline', () => {
  it.each([
    ['the load began 1.5 s into its first part', 1.5, { part: 2, partTime: 1.5, position: 40 }],
    ['in the first part', 6, { part: 2, partTime: 6, position: 44.5 }],
    ['10 ms before the next part: taken as begun', 9.995, { part: 3, partTime: 0, position: 48.495 }],
    ['in the second part', 12.25, { part: 3, partTime: 2.25, position: 50.75 }],
  ])('%s', (_name, at, want) => {
    expect(timeline().held(at, 18)).toMatchObject(want);
  });

  it('tells what it holds: the parts whole in a row, and the bytes and seconds of the one after', () => {
    expect(timeline().held(12, 18)).toMatchObject({ complete: 2, partialBytes: 36_000, partialSeconds: 8 });
    const none = new PlayTimeline();
    none.load(0, 0, 0);
    expect(none.held(0, 0)).toMatchObject({ complete: -1, partialBytes: 0, partialSeconds: 0 });
  });

  it("a part given from a sentence on (its rest, the player holding nothing of it): its time in the part counts from there", () => {
    const t = new PlayTimeline();
    t.load(2, 0, 30, 12.5);
    t.begins(2, 0);
    t.received(2, 8_000);
    // 3 s of the rest played: 15.5 s into the part; the position goes on from the load's.
    expect(t.held(3, 5)).toMatchObject({ part: 2, partTime: 15.5, position: 33, complete: 1, partialBytes: 8_000, partialSeconds: 17.5 });
    // The word clock follows the audio it has: 3 s into it.
    expect(t.inPart(3)).toMatchObject({ part: 2, ms: 3000 });
  });

  it('where a seek lands, and the time to the next part for the word clock', () => {
    const t = timeline();
    expect(t.seekTarget(1.5)).toBe(1.5);
    expect(t.inPart(9)).toEqual({ part: 2, ms: 9000, partLeftMs: 1000 });
    expect(t.inPart(11)).toEqual({ part: 3, ms: 1000, partLeftMs: null });
    expect(t.base).toBe(40);
    t.clear();
    expect(t.anyComplete).toBe(false);
    expect(t.held(12, 18).partialSeconds).toBe(0);
  });
});
