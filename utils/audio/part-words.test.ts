import { describe, expect, it, vi } from 'vitest';
import { PartWords, SENTENCE_LEAD_MS, type Slicer, tellTimes } from './part-words';
import { runSteps } from './steps';
import { FRAME_BYTES, FRAME_MS, firstFrameNumber, mp3 } from '../../tests/unit/mp3-frames';

/** Audio of `ms` ms at 8 kHz: sound where `loud` says, silence elsewhere. */
function audio(ms: number, loud: Array<[number, number]>): Float32Array {
  const rate = 8000;
  const samples = new Float32Array((ms * rate) / 1000);
  for (const [a, b] of loud) for (let i = (a * rate) / 1000; i < (b * rate) / 1000; i++) samples[i] = Math.sin(i / 3) * 0.5;
  return samples;
}

describe('PartWords: a whole part decoded once, its words timed', () => {
  it('joins the part\'s pieces in order, decodes them, and tells the words\' starts', async () => {
    const seen: number[][] = [];
    const decoded: number[][] = [];
    const words = new PartWords(
      (_part, starts) => seen.push(starts),
      async (bytes) => {
        decoded.push([...bytes]);
        // Two words with a pause between them: "Один. Два."
        return { samples: audio(1500, [[100, 600], [1000, 1400]]), sampleRate: 8000 };
      },
    );
    words.add(0, new Uint8Array([1, 2]).buffer);
    words.add(0, new Uint8Array([3]).buffer);
    await words.end(0, 'Один. Два.');
    expect(decoded).toEqual([[1, 2, 3]]);
    expect(seen).toHaveLength(1);
    const [first, second] = seen[0]!;
    expect(Math.abs(first! - 100)).toBeLessThanOrEqual(20);
    // The second sentence's word is told in the pause before it.
    expect(Math.abs(second! - (1000 - SENTENCE_LEAD_MS))).toBeLessThanOrEqual(20);
  });

  it.each([
    ['no text sent with the part: not decoded', undefined, 0],
    ['a decoder that fails (a part cut short)', 'Один.', 1],
  ])('%s: nothing told', async (_name, text, decodes) => {
    let calls = 0;
    const seen: number[][] = [];
    const words = new PartWords(
      (_p, s) => seen.push(s),
      async () => {
        calls++;
        throw new Error('bad audio');
      },
    );
    words.add(0, new Uint8Array([1]).buffer);
    await words.end(0, text);
    expect(calls).toBe(decodes);
    expect(seen).toHaveLength(0);
  });

  it('a reset while a part decodes: its words are not told (a new reading or load)', async () => {
    const seen: number[][] = [];
    let release = () => undefined as void;
    const words = new PartWords(
      (_p, s) => seen.push(s),
      () => new Promise((resolve) => (release = () => resolve({ samples: audio(500, [[0, 400]]), sampleRate: 8000 }))),
    );
    words.add(0, new Uint8Array([1]).buffer);
    const done = words.end(0, 'Слово.');
    await Promise.resolve();
    await Promise.resolve();
    words.reset();
    release();
    await done;
    expect(seen).toEqual([]);
  });
});


describe('PartWords: a part still streaming is timed as it comes', () => {
  // "Один. Два. …": each word 400 ms of sound after a 400-ms pause (a sentence's end), from 400 ms.
  const TEXT = 'Один. Два. Три. Четыре. Пять. Шесть. Семь. Восемь.';
  const WORDS = 8;
  const trueStart = (i: number) => 400 + 800 * i;
  const speech = audio(800 * WORDS + 400, Array.from({ length: WORDS }, (_, i): [number, number] => [trueStart(i), trueStart(i) + 400]));
  /** Decodes n bytes to the first n / 6 ms of the voice (6,000 bytes a second: no MP3 frame tells otherwise). */
  const decode = async (bytes: Uint8Array) => ({ samples: speech.subarray(0, Math.min(speech.length, Math.round((bytes.length / 6000) * 8000))), sampleRate: 8000 });
  const atOnce: Slicer = async (steps) => runSteps(steps);
  const noWait = async () => undefined;
  /** A second of audio's bytes. */
  const second = () => new Uint8Array(6000).buffer;

  it('tells the words said so far before the part is whole (the last few for now), then all', async () => {
    const seen: number[][] = [];
    const words = new PartWords((_p, starts) => seen.push(starts), decode, atOnce, noWait);
    words.text(0, TEXT);
    for (let s = 0; s < 5; s++) words.add(0, second());
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    const [soFar] = seen;
    // The words begun in the 5 s so far (up to a sure pause, surely; after it, at the pace found, for now): each
    // nearer its own start than the next word's.
    expect(soFar).toHaveLength(6);
    soFar!.forEach((ms, i) => expect(Math.abs(ms - trueStart(i))).toBeLessThan(400));
    for (let s = 5; s < 7; s++) words.add(0, second());
    await words.end(0, TEXT);
    const all = seen.at(-1)!;
    expect(all).toHaveLength(WORDS);
    const want = tellTimes(TEXT, Array.from({ length: WORDS }, (_, i) => trueStart(i)));
    all.forEach((ms, i) => expect(Math.abs(ms - want[i]!)).toBeLessThanOrEqual(30));
  });

  it.each([
    ['its text not known until it ends', false, 0],
    ['a later part while an earlier one streams', true, 1],
  ])('%s: not timed before it is whole', async (_name, withText, part) => {
    let decodes = 0;
    const words = new PartWords(() => undefined, async (b) => (decodes++, decode(b)), atOnce, noWait);
    if (part > 0) words.add(0, second());
    if (withText) words.text(part, TEXT);
    for (let s = 0; s < 6; s++) words.add(part, second());
    await Promise.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(decodes).toBe(0);
  });

  it('all its bytes at once (from the cache), then its end: decoded once, whole', async () => {
    let decodes = 0;
    let settled = () => undefined as void;
    const words = new PartWords(() => undefined, async (b) => (decodes++, decode(b)), atOnce, () => new Promise((resolve) => (settled = resolve)));
    words.text(0, TEXT);
    for (let s = 0; s < 7; s++) words.add(0, second());
    const done = words.end(0, TEXT);
    settled();
    await done;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(decodes).toBe(1);
  });
});

describe('PartWords: an MP3 part is decoded a piece at a time', () => {
  // The same voice as above, in MP3 frames: each word 400 ms of sound after a 400-ms pause, from 400 ms.
  const TEXT = 'Один. Два. Три. Четыре. Пять. Шесть. Семь. Восемь.';
  const WORDS = 8;
  const trueStart = (i: number) => 400 + 800 * i;
  const speech = audio(800 * WORDS + 400, Array.from({ length: WORDS }, (_, i): [number, number] => [trueStart(i), trueStart(i) + 400]));
  const FRAMES = Math.ceil((800 * WORDS + 400) / FRAME_MS);
  const atOnce: Slicer = async (steps) => runSteps(steps);

  it.each([
    ['a decoder that gives every frame', 0],
    ['a decoder that leaves out the first two frames of a part decoded from its start (an encoder header and delay)', 2],
  ])('%s: the words where they are heard, each piece after the first from a frame near the words not yet timed', async (_name, trimmed) => {
    const firsts: number[] = [];
    // Frame n of the bytes is the voice from n frames in; from the part's start, the first `trimmed` are left out.
    const decode = async (bytes: Uint8Array) => {
      const first = firstFrameNumber(bytes) ?? 0;
      firsts.push(first);
      const from = first === 0 ? trimmed : first;
      const to = first + Math.floor(bytes.length / FRAME_BYTES);
      return { samples: speech.subarray(Math.round((from * FRAME_MS * 8000) / 1000), Math.round((to * FRAME_MS * 8000) / 1000)), sampleRate: 8000 };
    };
    const seen: number[][] = [];
    const words = new PartWords((_p, starts) => seen.push(starts), decode, atOnce, async () => undefined);
    words.text(0, TEXT);
    // A second of frames at a time, each estimate so far waited for.
    const perSecond = Math.round(1000 / FRAME_MS);
    for (let f = 0; f < FRAMES; f += perSecond) {
      words.add(0, mp3(Math.min(perSecond, FRAMES - f), f).slice().buffer);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await words.end(0, TEXT);
    // As heard: the part's audio begins where the decoder's begins.
    const heard = (i: number) => trueStart(i) - trimmed * FRAME_MS;
    expect(firsts[0]).toBe(0);
    expect(firsts.length).toBeGreaterThan(2);
    expect(firsts.at(-1)).toBeGreaterThan(FRAMES / 2);
    const all = seen.at(-1)!;
    expect(all).toHaveLength(WORDS);
    const want = tellTimes(TEXT, Array.from({ length: WORDS }, (_, i) => heard(i)));
    all.forEach((ms, i) => expect(Math.abs(ms - want[i]!)).toBeLessThanOrEqual(30));
  });
});

describe('PartWords: a long part come whole is decoded in pieces of at most 20 s', () => {
  // 40 sentences of one word: 32.4 s, each word 400 ms after a 400-ms pause.
  const WORDS = 40;
  const TEXT = Array.from({ length: WORDS }, (_, i) => (i % 2 ? 'Два.' : 'Один.')).join(' ');
  const trueStart = (i: number) => 400 + 800 * i;
  const speech = audio(800 * WORDS + 400, Array.from({ length: WORDS }, (_, i): [number, number] => [trueStart(i), trueStart(i) + 400]));
  const FRAMES = Math.ceil((800 * WORDS + 400) / FRAME_MS);

  it('every word where it is heard, no piece longer than 20 s and its lead', async () => {
    const pieces: number[] = [];
    const decode = async (bytes: Uint8Array) => {
      const first = firstFrameNumber(bytes) ?? 0;
      const frames = Math.floor(bytes.length / FRAME_BYTES);
      pieces.push(frames * FRAME_MS);
      return { samples: speech.subarray(Math.round((first * FRAME_MS * 8000) / 1000), Math.round(((first + frames) * FRAME_MS * 8000) / 1000)), sampleRate: 8000 };
    };
    const seen: number[][] = [];
    const words = new PartWords((_p, starts) => seen.push(starts), decode, async (steps) => runSteps(steps), async () => undefined);
    words.add(0, mp3(FRAMES).slice().buffer);
    await words.end(0, TEXT);
    expect(pieces.length).toBeGreaterThanOrEqual(2);
    pieces.forEach((ms) => expect(ms).toBeLessThanOrEqual(20_000 + 9 * FRAME_MS));
    const all = seen.at(-1)!;
    expect(all).toHaveLength(WORDS);
    const want = tellTimes(TEXT, Array.from({ length: WORDS }, (_, i) => trueStart(i)));
    all.forEach((ms, i) => expect(Math.abs(ms - want[i]!)).toBeLessThanOrEqual(30));
  });
});

describe("tellTimes: a sentence's first word is told in the pause before it", () => {
  it.each([
    ['inside a sentence: at the starts', 'Один два три.', [100, 400, 700], [100, 400, 700]],
    ['after a full stop: 80 ms before', 'Один. Два три', [100, 900, 1200], [100, 820, 1200]],
    ['after a question mark and a paragraph end too', 'One? Two\nthree', [0, 500, 1000], [0, 420, 920]],
    ['a short word before: not before halfway from its start', 'Да. Нет', [100, 200], [100, 150]],
    ['a comma is no sentence end', 'Один, два', [100, 900], [100, 900]],
    ['the words told so far alone', 'Один. Два. Три.', [100, 900], [100, 820]],
  ])('%s', (_name, text, starts, want) => expect(tellTimes(text, starts)).toEqual(want));
});
