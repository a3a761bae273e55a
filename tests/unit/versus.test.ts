import { describe, expect, it } from 'vitest';
import { compare, figureOf } from '../../bench/versus';
import type { Row } from '../../bench/report';

const row = (measure: string, value: string, num?: number): Row => ({ measure, value, target: '', met: null, ...(num !== undefined ? { num } : {}) });

describe('figureOf: a bench row’s figure', () => {
  it.each<[string, Row, number | null]>([
    ['its own figure first', row('m', 'median 33.8 ms, p95 40 ms', 12), 12],
    ['else the median the value says', row('m', 'median 33.8 ms, p95 40.1 ms'), 33.8],
    ['a figure with thousands', row('m', '1,234.5 ms'), 1234.5],
    ['no figure', row('m', 'skipped: no Firefox'), null],
  ])('%s', (_name, r, want) => expect(figureOf(r)).toBe(want));
});

describe('compare: two builds’ runs, paired', () => {
  it('B over A and B − A, from the pairs, with their spread', () => {
    const a = [[row('first audio', '20 ms')], [row('first audio', '30 ms')], [row('first audio', '25 ms')]];
    const b = [[row('first audio', '10 ms')], [row('first audio', '30 ms')], [row('first audio', '20 ms')]];
    const [c] = compare(a, b);
    expect(c).toMatchObject({ measure: 'first audio', a: 25, b: 20, ratio: 0.8, ratioLow: 0.5, ratioHigh: 1, diff: -5, pairs: 3 });
    expect(c!.diffLow).toBeCloseTo(-7.5);
    expect(c!.diffHigh).toBeCloseTo(-2.5);
  });

  it('a row missing its figure in any run is left out, not compared on the rest', () => {
    const a = [[row('x', '1 ms'), row('y', 'skipped')], [row('x', '2 ms'), row('y', '3 ms')]];
    const b = [[row('x', '1 ms'), row('y', '3 ms')], [row('x', '2 ms'), row('y', '3 ms')]];
    expect(compare(a, b).map((c) => c.measure)).toEqual(['x']);
  });
});
