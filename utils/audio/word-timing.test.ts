import { describe, expect, it } from 'vitest';
import { findPauses, loudnessOf } from './word-measure';
import { alignPauses } from './align-pauses';
import { estimateWordTimes, moreWordTimes } from './word-timing';
import { placeWordStarts } from './word-starts';
import { runSteps } from './steps';

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
  it('the tables kept from a larger run before do not change the next', () => {
    const place = (windows: number, weights: number[], dips: Array<[number, number]>) => {
      const rms = new Float32Array(windows).fill(0.5);
      for (const [a, b] of dips) for (let w = a; w < b; w++) rms[w] = 0.01;
      const share = (windows * 10) / weights.reduce((a, b) => a + b, 0);
      let t = 0;
      const timed = weights.map((w, i) => word(t, (t += w * share), i));
      placeWordStarts(timed, 0, { windowMs: 10, rms }, weights);
      return timed.map((w) => Math.round(w.startMs));
    };
    const small = () => place(100, [1, 1, 1], [[30, 34]]);
    const first = small();
    // 58 short words, each after a dip, then a long one: its last rows hold high scores early on, where the
    // small run's words cannot start.
    const dips = Array.from({ length: 58 }, (_, i): [number, number] => [3 * i + 2, 3 * i + 3]);
    expect(place(3000, [...Array<number>(58).fill(1), 1000], dips).slice(0, 3)).toEqual([0, 30, 60]);
    expect(small()).toEqual(first);
  });
});

describe('moreWordTimes: a part timed as its audio comes', () => {
  // Eight one-word sentences: 400 ms of sound from 400 + 800·i ms, a 400-ms pause after each.
  const text = 'Один. Два. Три. Четыре. Пять. Шесть. Семь. Восемь.';
  const loud = Array.from({ length: 8 }, (): [number, boolean][] => [[400, false], [400, true]]).flat();
  const speech = audio([...loud, [400, false]]);
  const upTo = (ms: number) => speech.subarray(0, ms * 8);
  const near = (starts: number[]) => starts.every((ms, i) => Math.abs(ms - (400 + 800 * i)) <= 30);
  it.each<[string, number, number, number]>([
    // Audio so far (ms), words timed surely (those before the last sentence's pause with a second of audio
    // after it), and for now (the words after, whose sound has come: at least half of it).
    ['a second and a half: no pause has a second after it', 1500, 0, 2],
    ['3.1 s: the pauses ending at 2 and 2.8 s are followed by 1.1 and 0.3 s', 3100, 2, 2],
    ['5 s: the pause ending at 4.4 s is followed by 0.4 s of sound (the silence at the end may go on)', 5000, 4, 2],
  ])('%s', (_name, ms, sure, ahead) => {
    const known = runSteps(moreWordTimes(text, upTo(ms), 8000, null, false, 60));
    expect(known?.starts.length ?? 0).toBe(sure);
    expect(known?.ahead.length ?? 0).toBe(ahead);
    if (known) expect(near(known.starts)).toBe(true);
  });
  it('more audio: the words after those known, the known kept; whole: all', () => {
    const first = runSteps(moreWordTimes(text, upTo(3100), 8000, null, false, 60))!;
    const more = runSteps(moreWordTimes(text, upTo(5000), 8000, first, false))!;
    expect(more.starts.slice(0, first.starts.length)).toEqual(first.starts);
    expect(more.starts.length).toBe(4);
    const all = runSteps(moreWordTimes(text, speech, 8000, more, true))!;
    expect(all.starts).toHaveLength(8);
    expect(near(all.starts)).toBe(true);
  });
  it.each([50, 95])("a pace given far from the voice's 69 ms a unit of weight (paces within 40 percent are tried), %i: the same words", (pace) => {
    const known = runSteps(moreWordTimes(text, upTo(5000), 8000, null, false, pace));
    expect(known?.starts.length).toBe(4);
    expect(near(known!.starts)).toBe(true);
  });
});
