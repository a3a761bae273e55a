import { describe, expect, it } from 'vitest';
import { pauseAfterMs, timedVoice } from './timed-voice.ts';

describe('the timed test voice: words where it says they are', () => {
  it('every word, in order, each with its sound, and the pauses a speaker makes between them', async () => {
    const text = 'Мост откроют весной, сказал глава. Жители ждут.';
    const voice = await timedVoice(text);
    expect(voice.words.map((w) => text.slice(w.start, w.end))).toEqual(['Мост', 'откроют', 'весной', 'сказал', 'глава', 'Жители', 'ждут']);
    for (const [i, w] of voice.words.entries()) {
      expect(w.endMs).toBeGreaterThan(w.startMs + 50);
      if (i > 0) expect(w.startMs).toBeGreaterThanOrEqual(voice.words[i - 1]!.endMs);
    }
    // Sound where a word is said, silence in the pause after a sentence.
    const loudAt = (ms: number) => Math.abs(voice.pcm[Math.round((ms * voice.sampleRate) / 1000)] ?? 0);
    const peak = (from: number, to: number) => {
      let max = 0;
      for (let ms = from; ms < to; ms += 1) max = Math.max(max, loudAt(ms));
      return max;
    };
    const [, , , , glava, zhiteli] = voice.words;
    expect(peak(glava!.startMs, glava!.endMs)).toBeGreaterThan(3000);
    expect(peak(glava!.endMs + 5, zhiteli!.startMs - 5)).toBe(0);
    // The pause at the sentence's end is longer than the one at the comma, which is longer than within a phrase.
    const gap = (i: number) => voice.words[i + 1]!.startMs - voice.words[i]!.endMs;
    expect(gap(4)).toBeGreaterThan(gap(2));
    expect(gap(2)).toBeGreaterThan(gap(0));
  });

  it.each<[string, number, number]>([
    [' ', 0, 70],
    [', ', 140, 300],
    ['. ', 330, 550],
    ['.\n', 600, 850],
  ])('the pause after %j is %i–%i ms', (between, low, high) => {
    for (let k = 0; k < 11; k++) {
      expect(pauseAfterMs(between, k)).toBeGreaterThanOrEqual(low);
      expect(pauseAfterMs(between, k)).toBeLessThanOrEqual(high);
    }
  });
});
