import { describe, expect, it } from 'vitest';
import { pauseLikelihood, wordAt, wordWeight, wordsOf } from './word-measure';

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
