import { describe, expect, it } from 'vitest';
import type { Part } from '../text/parts';
import { sleepHoldFrom, untilSentenceEnd } from './sleep-timer';

/** Parts of 10 s each; part k has two sentences, ending halfway and at its end. */
const run = (n: number) => ({
  parts: Array.from({ length: n }, (_, index): Part => ({ index, text: 'x'.repeat(100), previousText: '', nextText: '', chars: 100, sentences: [{ start: 0, end: 50, block: 0 }, { start: 50, end: 100, block: 0 }] })),
  partDuration: () => 10,
});

describe('sleepHoldFrom', () => {
  it.each([
    // [seconds until the timer, part, seconds into it, rate, parts, hold]
    [3, 0, 0, 1, 5, 1], // up within part 0: part 1 is held
    [15, 0, 0, 1, 5, 2], // up within part 1
    [15, 0, 0, 2, 5, 3], // at 2× speed, 30 s of audio: up within part 2
    [8, 1, 5, 1, 5, 3], // 5 s left in part 1, then 3 s into part 2
    [100, 0, 0, 1, 5, Infinity], // the reading ends first
    [10.5, 0, 0, 1, 5, 1], // part 1 would start 0.5 s before the timer: within the margin, held
    [11.5, 0, 0, 1, 5, 2], // 1.5 s before: requested; part 2 is held
    [10.5, 0, 0, 2, 5, 2], // at 2× speed part 1 starts 5.5 s before: requested
    [1, 0, 9.5, 1, 5, 1], // the timer up in the last half second of part 0
  ])('%d s left, at part %d + %d s, rate %d, %d parts → hold from %s', (left, part, partTime, rate, parts, hold) => {
    expect(sleepHoldFrom(run(parts), { part, partTime, rate }, 1_000_000 + left * 1000, 1_000_000)).toBe(hold);
  });

  it('no timer holds nothing', () => {
    expect(sleepHoldFrom(run(3), { part: 0, partTime: 0, rate: 1 }, 0, 5)).toBe(Infinity);
  });
});

describe('untilSentenceEnd', () => {
  it.each([
    [0, 1, 5000], // in the first sentence: it ends at 5 s
    [4, 1, 1000],
    [6, 1, 4000], // in the second: it ends at 10 s
    [6, 2, 2000], // at 2× speed, half the wait
    [10, 1, 0],
  ])('%d s into the part at rate %d → %d ms', (partTime, rate, ms) => {
    expect(untilSentenceEnd(run(1), { part: 0, partTime, rate })).toBe(ms);
  });
});
