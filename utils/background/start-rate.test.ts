import { describe, expect, it } from 'vitest';
import { PAGE_START_GAP_MS, PAGE_STARTS_WINDOW_MS, StartRate } from './start-rate';

describe('starts from pages', () => {
  it.each<[string, number[], boolean[]]>([
    ['one', [0], [true]],
    ['a double click is one start', [0, 200], [true, false]],
    ['clicks a gap apart', [0, PAGE_START_GAP_MS, 2 * PAGE_START_GAP_MS], [true, true, true]],
    ['a fourth within the window is refused', [0, 1_000, 2_000, 3_000], [true, true, true, false]],
    ['after the window, more', [0, 1_000, 2_000, PAGE_STARTS_WINDOW_MS + 1], [true, true, true, true]],
    ['a refused click does not count', [0, 500, 1_000], [true, false, true]],
    ['a clock gone back is not a free start', [5_000, 0], [true, false]],
  ])('%s', (_n, at, allowed) => {
    const rate = new StartRate();
    expect(at.map((t) => rate.take(t))).toEqual(allowed);
  });
});
