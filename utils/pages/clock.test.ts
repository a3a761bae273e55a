import { describe, expect, it } from 'vitest';
import { minutesSeconds } from './clock';

describe('minutesSeconds', () => {
  it.each([
    [0, '0:00'],
    [-500, '0:00'],
    [1, '0:01'],
    [12_000, '0:12'],
    [59_001, '1:00'],
    [600_000, '10:00'],
  ])('%i ms → %s', (ms, shown) => expect(minutesSeconds(ms)).toBe(shown));
});
