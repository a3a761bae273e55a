import { describe, expect, it } from 'vitest';
import { FinePosition } from './fine-position';

/** Each row: readings [element's seconds, wall ms, rate], and the positions expected (s) after each. */
describe('FinePosition: a stepping currentTime read finer', () => {
  it.each<[string, Array<[number, number, number]>, number[]]>([
    ['a smooth clock: each reading as it is', [[1, 0, 1], [1.05, 50, 1], [1.2, 200, 1]], [1, 1.05, 1.2]],
    ['40 ms steps: the last step carried forward', [[1.04, 0, 1], [1.04, 30, 1], [1.08, 45, 1], [1.08, 75, 1]], [1.04, 1.07, 1.085, 1.115]],
    ['at 2×: carried forward twice as fast', [[1, 0, 2], [1, 10, 2]], [1, 1.02]],
    ['a jump back: the old readings dropped', [[5, 0, 1], [2, 20, 1], [2, 30, 1]], [5, 2, 2.01]],
    ['a reading over a second old is dropped', [[1.04, 0, 1], [2, 1500, 1]], [1.04, 2]],
    ['a rate change: the readings before dropped', [[1, 0, 1], [1, 20, 2]], [1, 1]],
  ])('%s', (_name, readings, want) => {
    const p = new FinePosition();
    const got = readings.map(([s, at, rate]) => p.read(s, at, rate));
    got.forEach((g, i) => expect(g).toBeCloseTo(want[i]!, 6));
  });
});
