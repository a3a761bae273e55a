import { describe, expect, it } from 'vitest';
import { parseRub } from '../money/money';
import { FRAME_SECONDS, mp3 } from '../../tests/unit/reader-world';
import { DEFAULT_CHARS_PER_SECOND, type ReadingPlan } from './plan';
import { ReadingRun } from './run';
import { IDLE_VIEW, type ReadingView } from './state';

describe('ReadingRun.adopt: the site the media controls and the floating player show', () => {
  const plan: ReadingPlan = { id: 'r1', parts: [], voice: 'v', format: 'mp3', priceRub: '1', maxConcurrency: 1 };
  it.each([
    ['a Unicode name as people write it, not as the browser keeps it', 'xn--c1aapkosapc.xn--p1ai', 'госуслуги.рф'],
    ['an ASCII host as it is', 'www.theguardian.com', 'www.theguardian.com'],
    ["a PDF's file name as it is", 'отчёт-2026.pdf', 'отчёт-2026.pdf'],
    ['none', undefined, ''],
  ])('%s', (_name, site, expected) => {
    const run = new ReadingRun('r1');
    run.adopt({ title: 'Статья', source: 'article', blocks: [], site }, { plan: { ...plan }, price: parseRub('1')! }, false);
    expect(run.site).toBe(expected);
  });
});

describe('Band.goes: within one load of the player the band goes forward or stays', () => {
  // Each row: the band's moves [load, part, sentence] in turn, and whether each may go.
  it.each([
    ['forward through a part and into the next', [[1, 0, 0], [1, 0, 1], [1, 1, 0]], [true, true, true]],
    ['the same sentence again (a word inside it)', [[1, 0, 1], [1, 0, 1]], [true, true]],
    ['back a sentence: it waits where it is', [[1, 0, 2], [1, 0, 1], [1, 0, 2]], [true, false, true]],
    ['back a part: it waits where it is', [[1, 1, 0], [1, 0, 3], [1, 1, 1]], [true, false, true]],
    ['a new load (a jump or seek back) goes where it is sent', [[1, 2, 0], [2, 0, 0], [2, 0, 1]], [true, true, true]],
  ])('%s', (_name, moves, want) => {
    const run = new ReadingRun('r1');
    expect(moves.map(([load, part, sentence]) => run.band.goes(load!, part!, sentence!))).toEqual(want);
  });

  it('a band taken off (the reading closed) is placed anew', () => {
    const run = new ReadingRun('r1');
    run.band.goes(1, 3, 0);
    run.band.mark('');
    expect(run.band.goes(1, 0, 0)).toBe(true);
  });
});

describe('ReadingRun: the speech pace outlives a restart of the background', () => {
  const part = (index: number, chars: number) => ({ index, text: 'а'.repeat(chars), previousText: '', nextText: '', chars, sentences: [{ start: 0, end: chars, block: 0 }] });
  const plan: ReadingPlan = { id: 'r1', parts: [part(0, 500), part(1, 500)], voice: 'v', format: 'mp3', priceRub: '1500.0000', maxConcurrency: 1 };

  it('measured on a part received whole, it is what the next life cuts by (a usual pace, before any)', () => {
    const run = new ReadingRun('r1');
    run.adopt({ title: 'Статья', source: 'article', blocks: [] }, { plan, price: parseRub('1500')! }, false);
    expect(run.pace.charsPerSecond()).toBe(DEFAULT_CHARS_PER_SECOND);
    // 500 characters in 2 s of audio (77 frames of 26.12 ms).
    run.pace.heard(0, mp3(77));
    const pace = run.pace.charsPerSecond();
    expect(pace).toBeCloseTo(500 / (77 * FRAME_SECONDS), 3);
    const view: ReadingView = { ...IDLE_VIEW, id: 'r1', state: 'playing', costRub: '0.0000' };
    expect(ReadingRun.fromSaved(view, plan, run.progress(), 0n).pace.charsPerSecond()).toBe(pace);
    // What an earlier version saved has no pace: the usual one.
    const { pace: _, ...older } = run.progress();
    expect(ReadingRun.fromSaved(view, plan, older, 0n).pace.charsPerSecond()).toBe(DEFAULT_CHARS_PER_SECOND);
  });
});
