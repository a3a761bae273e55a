import { describe, expect, it } from 'vitest';
import { PartWords } from './part-words';

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
    expect(Math.abs(second! - 1000)).toBeLessThanOrEqual(20);
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

