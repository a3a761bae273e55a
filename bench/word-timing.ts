/**
 * `npx tsx bench/word-timing.ts [parts]`: how well word timings estimated from audio alone
 * (`utils/audio/word-timing.ts`) follow a voice whose timings are known (`tests/fake-service/timed-voice.ts`:
 * each word synthesised alone by espeak-ng, laid out with varied pauses). Parts of up to ~600 characters, cut
 * at paragraph ends from the hand-checked texts (`tests/corpus-expected/`, Russian and English). Sampled
 * every 20 ms of audio from the first word to the last:
 * - on the word: the estimated word is the one being said (between words: the one just said);
 * - within one word: off by at most one;
 * - the error: for each word, |estimated start − true start|, median and 90th percentile, in ms of audio
 *   (at 1×) and of the listener's time at 2× (half).
 * Runs in Node on the voice's samples; in the browser the same samples come from decoding the MP3.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { wordAt, wordTimesOfAudio } from '../utils/audio/word-timing.ts';
import { timedVoice } from '../tests/fake-service/timed-voice.ts';

const DIR = resolve(import.meta.dirname, '../tests/corpus-expected');
const PART_CHARS = 600;

export interface WordTimingResult {
  parts: number;
  words: number;
  samples: number;
  onWord: number;
  withinOne: number;
  medianMs: number;
  p90Ms: number;
}

/** Parts of the hand-checked texts: paragraphs joined up to `PART_CHARS`, `perText` from each text. */
function partsOf(lang: 'ru' | 'en', perText: number): string[] {
  const parts: string[] = [];
  for (const file of readdirSync(join(DIR, lang)).filter((f) => f.endsWith('.txt')).sort()) {
    const paragraphs = readFileSync(join(DIR, lang, file), 'utf8').split(/\n+/).map((p) => p.trim()).filter((p) => p.length > 40);
    let part = '';
    let taken = 0;
    for (const p of paragraphs) {
      if (taken >= perText) break;
      if (part && part.length + p.length > PART_CHARS) {
        parts.push(part);
        taken++;
        part = '';
      }
      part = part ? `${part}\n${p}` : p.slice(0, PART_CHARS * 2);
    }
    if (part && taken < perText) parts.push(part);
  }
  return parts;
}

const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;

export async function measureWordTiming(perText = 2): Promise<Record<'ru' | 'en' | 'all', WordTimingResult>> {
  const out = {} as Record<'ru' | 'en' | 'all', WordTimingResult>;
  const all = { parts: 0, words: 0, samples: 0, on: 0, near: 0, errors: [] as number[] };
  for (const lang of ['ru', 'en'] as const) {
    const acc = { parts: 0, words: 0, samples: 0, on: 0, near: 0, errors: [] as number[] };
    for (const text of partsOf(lang, perText)) {
      const voice = await timedVoice(text);
      const samples = Float32Array.from(voice.pcm, (s) => s / 32768);
      const timed = wordTimesOfAudio(text, samples, voice.sampleRate);
      if (timed.length !== voice.words.length) throw new Error(`words differ: ${timed.length} estimated, ${voice.words.length} said`);
      acc.parts++;
      acc.words += timed.length;
      timed.forEach((w, i) => acc.errors.push(Math.abs(w.startMs - voice.words[i]!.startMs)));
      const first = voice.words[0]!.startMs;
      const last = voice.words.at(-1)!.endMs;
      for (let t = first; t < last; t += 20) {
        const truth = wordAt(voice.words, t);
        const guess = wordAt(timed, t);
        acc.samples++;
        if (guess === truth) acc.on++;
        if (Math.abs(guess - truth) <= 1) acc.near++;
      }
    }
    out[lang] = summary(acc);
    all.parts += acc.parts;
    all.words += acc.words;
    all.samples += acc.samples;
    all.on += acc.on;
    all.near += acc.near;
    all.errors.push(...acc.errors);
  }
  out.all = summary(all);
  return out;
}

function summary(acc: { parts: number; words: number; samples: number; on: number; near: number; errors: number[] }): WordTimingResult {
  const sorted = [...acc.errors].sort((a, b) => a - b);
  return {
    parts: acc.parts,
    words: acc.words,
    samples: acc.samples,
    onWord: acc.on / Math.max(1, acc.samples),
    withinOne: acc.near / Math.max(1, acc.samples),
    medianMs: Math.round(quantile(sorted, 0.5)),
    p90Ms: Math.round(quantile(sorted, 0.9)),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  const result = await measureWordTiming(Number(process.argv[2] ?? 2));
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  console.table(
    Object.fromEntries(
      Object.entries(result).map(([k, r]) => [
        k,
        { parts: r.parts, words: r.words, samples: r.samples, 'on the word': pct(r.onWord), 'within one': pct(r.withinOne), 'median ms (1×)': r.medianMs, 'p90 ms (1×)': r.p90Ms, 'median ms (2×)': Math.round(r.medianMs / 2), 'p90 ms (2×)': Math.round(r.p90Ms / 2) },
      ]),
    ),
  );
  console.log(`took ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
