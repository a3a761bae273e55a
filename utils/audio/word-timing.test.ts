import { describe, expect, it } from 'vitest';
import { alignPauses, estimateWordTimes, findPauses, loudnessOf, pauseLikelihood, placeWordStarts, wordAt, wordWeight, wordsOf } from './word-timing';

describe('wordsOf: the words of a part, with their offsets', () => {
  it.each<[string, string[]]>([
    ['Привет, мир!', ['Привет', 'мир']],
    ["Don't stop — now.", ["Don't", 'stop', 'now']],
    ['из-за 3.5 км', ['из-за', '3.5', 'км']],
    ['  …  ', []],
  ])('%j', (text, words) => {
    expect(wordsOf(text).map((w) => text.slice(w.start, w.end))).toEqual(words);
  });
});

describe('wordWeight: longer to say, heavier', () => {
  it.each<[string, string]>([
    ['a', 'extraordinary'],
    ['в', 'здравствуйте'],
    ['the', 'strengths'],
    ['cat', '1984'],
    ['NASA', 'МВД'],
  ])('%s < %s', (light, heavy) => expect(wordWeight(light)).toBeLessThan(wordWeight(heavy)));
});

describe('pauseLikelihood: what lies between two words', () => {
  it.each<[string, number, number]>([
    [' ', 0, 0.1],
    [', ', 0.5, 0.7],
    [' — ', 0.7, 0.8],
    ['. ', 0.9, 0.95],
    ['.\n', 0.95, 1],
  ])('%j', (between, low, high) => {
    const p = pauseLikelihood(between);
    expect(p).toBeGreaterThanOrEqual(low);
    expect(p).toBeLessThanOrEqual(high);
  });
});

/** Sound (a 200 Hz wave) and silence, ms by ms: `[ms, loud]` pieces at 8 kHz. */
function audio(pieces: ReadonlyArray<readonly [number, boolean]>): Float32Array {
  const rate = 8000;
  const out: number[] = [];
  for (const [ms, loud] of pieces) for (let i = 0; i < (ms * rate) / 1000; i++) out.push(loud ? 0.5 * Math.sin((2 * Math.PI * 200 * out.length) / rate) : 0);
  return Float32Array.from(out);
}

/** The silences of `samples` as the player finds them: loudness first, then pauses. */
const pausesIn = (samples: Float32Array, rate: number) => findPauses(loudnessOf(samples, rate), (samples.length * 1000) / rate);

describe('findPauses: the silences, lead-in and tail included', () => {
  it('finds silences of 70 ms and more, and the edges whatever their length', () => {
    const pauses = pausesIn(audio([[50, false], [300, true], [40, false], [300, true], [200, false], [300, true], [30, false]]), 8000);
    expect(pauses.map((p) => [p.startMs, Math.round(p.endMs)])).toEqual([
      [0, 50],
      [690, 890],
      [1190, 1220],
    ]);
  });
  it('a part with no silence has none', () => expect(pausesIn(audio([[500, true]]), 8000)).toEqual([]));
  it('late in a long part, a silence is where it is (windows measured in samples: 221 at 22,050 Hz are 10.02 ms, not 10)', () => {
    const rate = 22050;
    const samples = new Float32Array(rate * 20).map((_, i) => (i >= rate * 18 && i < rate * 18.3 ? 0 : 0.5 * Math.sin(i / 5)));
    const [pause] = pausesIn(samples, rate);
    expect(Math.abs(pause!.startMs - 18000)).toBeLessThan(12);
    expect(Math.abs(pause!.endMs - 18300)).toBeLessThan(12);
  });
});

describe('alignPauses: each pause at the boundary that best explains it', () => {
  it('a sentence end where the time says, a short pause inside a word left at none', () => {
    // Four words of equal weight, 1,000 ms of speech: boundaries at 250, 500, 750 ms of speech.
    const placed = alignPauses([1, 2, 3], 4, [0.04, 0.93, 0.04], [320, 505], [40, 400], 1000);
    expect(placed).toEqual([-1, 1]);
  });
  it('no pauses: nothing to place', () => expect(alignPauses([1], 2, [0.9], [], [], 500)).toEqual([]));
});

describe('estimateWordTimes: the words share the time between the pauses', () => {
  it('two sentences, each word said where its sound is', () => {
    // "Один два. Три четыре." — sound for each sentence, a long pause between.
    const text = 'Один два. Три четыре.';
    const samples = audio([[100, false], [600, true], [400, false], [800, true], [100, false]]);
    const timed = estimateWordTimes(text, 2000, pausesIn(samples, 8000));
    expect(timed.map((w) => text.slice(w.start, w.end))).toEqual(['Один', 'два', 'Три', 'четыре']);
    // The second sentence starts when its sound does; each sentence's words fill its sound.
    expect(timed[0]!.startMs).toBe(100);
    expect(timed[1]!.endMs).toBe(700);
    expect(timed[2]!.startMs).toBe(1100);
    expect(timed[3]!.endMs).toBe(1900);
    // The longer word takes longer.
    expect(timed[3]!.endMs - timed[3]!.startMs).toBeGreaterThan(timed[2]!.endMs - timed[2]!.startMs);
  });
  it('no words: none', () => expect(estimateWordTimes('…', 500, [])).toEqual([]));
});

describe('wordAt: the word being said', () => {
  const timed = [
    { start: 0, end: 1, startMs: 100, endMs: 300 },
    { start: 2, end: 3, startMs: 500, endMs: 800 },
  ];
  it.each<[number, number]>([
    [0, -1],
    [100, 0],
    [400, 0],
    [500, 1],
    [5000, 1],
  ])('at %i ms: word %i', (ms, index) => expect(wordAt(timed, ms)).toBe(index));
});

describe('placeWordStarts: each word starts where the sound comes back, its length near its weight', () => {
  const word = (startMs: number, endMs: number, i: number) => ({ start: 2 * i, end: 2 * i + 1, startMs, endMs });
  it.each<[string, Array<[number, number]>, number[], number[]]>([
    // 10 ms windows over 1,000 ms; [dips as window ranges], the words' weights, the starts expected (ms).
    ['a 40 ms gap near the shared boundary: the next word starts after it', [[30, 34]], [1, 1, 1], [0, 340, 670]],
    ['no dip: the weights share the time', [], [1, 1, 2], [0, 250, 500]],
    ['a short closure inside a long word and a gap where the lengths put a boundary', [[10, 12], [52, 56]], [1, 1], [0, 560]],
    ['a gap far from where the weights put the boundary is not taken', [[8, 12]], [1, 1], [0, 500]],
  ])('%s', (_name, dips, weights, starts) => {
    const rms = new Float32Array(100).fill(0.5);
    for (const [a, b] of dips) for (let w = a; w < b; w++) rms[w] = 0.01;
    const share = 1000 / weights.reduce((a, b) => a + b, 0);
    let t = 0;
    const timed = weights.map((w, i) => word(t, (t += w * share), i));
    placeWordStarts(timed, 0, { windowMs: 10, rms }, weights);
    expect(timed.map((w) => Math.round(w.startMs))).toEqual(starts);
    // Still end to end.
    timed.slice(1).forEach((w, i) => expect(w.startMs).toBe(timed[i]!.endMs));
  });
});
