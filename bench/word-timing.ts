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
import { wordAt } from '../utils/audio/word-measure.ts';
import { moreWordTimes, type PartTimes, USUAL_MS_PER_WEIGHT, wordTimesOfAudio } from '../utils/audio/word-timing.ts';
import { runSteps } from '../utils/audio/steps.ts';
import { wordIndexAt } from '../utils/audio/word-clock.ts';
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
  /** On the word, the part timed as it streamed (`SO_FAR_MS`) and its rest once whole: against `onWord`, the whole part at once. */
  chainedOnWord: number;
  /** Timed from the audio's start alone (a part still coming; `SO_FAR_MS`), at the voice's usual pace to begin with. */
  soFar?: SoFarResult;
}

/** Estimates on the start of each part's audio, as the player makes them while a part streams. */
export interface SoFarResult {
  estimates: number;
  /** Of the audio so far, the share up to the last word timed. */
  covered: number;
  samples: number;
  onWord: number;
  withinOne: number;
  /** The whole part's estimate on the same samples. */
  wholeOnWord: number;
  /** The words after the last sure pause, told for now: samples to the audio's end, and those within one word. */
  aheadSamples: number;
  aheadWithinOne: number;
}

/** Where a part's audio is cut for its estimates so far (ms), one after another: as when 4, 8, 15 and 25 s have come. */
const SO_FAR_MS = [4000, 8000, 15000, 25000];

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

/**
 * `WORD_TIMING_RATE=<Hz>`: the voice taken down to that rate (an integer fraction of the voice's own, each output
 * sample the mean of the ones it stands for), as a decoder at a lower rate would give it.
 */
async function atRate(voice: Awaited<ReturnType<typeof timedVoice>>): Promise<Awaited<ReturnType<typeof timedVoice>>> {
  const rate = Number(process.env.WORD_TIMING_RATE ?? voice.sampleRate);
  const step = Math.round(voice.sampleRate / rate);
  if (step <= 1) return voice;
  const pcm = new Int16Array(Math.floor(voice.pcm.length / step));
  for (let i = 0; i < pcm.length; i++) {
    let sum = 0;
    for (let j = 0; j < step; j++) sum += voice.pcm[i * step + j]!;
    pcm[i] = Math.round(sum / step);
  }
  return { ...voice, pcm, sampleRate: voice.sampleRate / step };
}

export async function measureWordTiming(perText = 2): Promise<Record<'ru' | 'en' | 'all', WordTimingResult>> {
  const out = {} as Record<'ru' | 'en' | 'all', WordTimingResult>;
  const all = { parts: 0, words: 0, samples: 0, on: 0, near: 0, errors: [] as number[], soFar: noSoFar(), chainedOn: 0 };
  for (const lang of ['ru', 'en'] as const) {
    const acc = { parts: 0, words: 0, samples: 0, on: 0, near: 0, errors: [] as number[], soFar: noSoFar(), chainedOn: 0 };
    for (const text of partsOf(lang, perText)) {
      const voice = await atRate(await timedVoice(text));
      const samples = Float32Array.from(voice.pcm, (s) => s / 32768);
      const { timed } = wordTimesOfAudio(text, samples, voice.sampleRate);
      if (timed.length !== voice.words.length) throw new Error(`words differ: ${timed.length} estimated, ${voice.words.length} said`);
      acc.parts++;
      acc.words += timed.length;
      timed.forEach((w, i) => acc.errors.push(Math.abs(w.startMs - voice.words[i]!.startMs)));
      const durationMs = (samples.length * 1000) / voice.sampleRate;
      // As the player does while a part streams: more words timed as more audio comes, each estimate on the audio
      // after the words before; then the rest once the part is whole.
      let known: PartTimes | null = null;
      const pace = Number(process.env.SO_FAR_PACE ?? USUAL_MS_PER_WEIGHT);
      for (const cut of SO_FAR_MS.filter((ms) => ms < durationMs - 1000)) {
        const before: number = known?.starts.length ?? 0;
        known = runSteps(moreWordTimes(text, samples.subarray(0, Math.round((cut * voice.sampleRate) / 1000)), voice.sampleRate, known, false, pace));
        acc.soFar.estimates++;
        const starts = known?.starts ?? [];
        acc.soFar.covered += (starts.length ? voice.words[starts.length - 1]!.endMs : 0) / cut;
        // The words told for now: from the first of them to where the audio so far ends.
        const told = [...starts, ...(known?.ahead ?? [])];
        if (told.length > starts.length) {
          for (let t = told[starts.length]!; t < cut; t += 20) {
            const truth = wordAt(voice.words, t);
            acc.soFar.aheadSamples++;
            if (Math.abs(wordIndexAt(told, t) - truth) <= 1) acc.soFar.aheadWithinOne++;
          }
        }
        // Scored on the words this estimate added.
        if (starts.length === before) continue;
        for (let t = voice.words[before]!.startMs; t < voice.words[starts.length - 1]!.endMs; t += 20) {
          const truth = wordAt(voice.words, t);
          const guess = wordIndexAt(starts, t);
          acc.soFar.samples++;
          if (guess === truth) acc.soFar.onWord++;
          if (Math.abs(guess - truth) <= 1) acc.soFar.withinOne++;
          if (wordAt(timed, t) === truth) acc.soFar.wholeOnWord++;
        }
      }
      const chained = runSteps(moreWordTimes(text, samples, voice.sampleRate, known, true, pace))?.starts ?? [];
      const first = voice.words[0]!.startMs;
      const last = voice.words.at(-1)!.endMs;
      for (let t = first; t < last; t += 20) {
        const truth = wordAt(voice.words, t);
        const guess = wordAt(timed, t);
        if (wordIndexAt(chained, t) === truth) acc.chainedOn++;
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
    for (const k of Object.keys(all.soFar) as Array<keyof SoFarResult>) all.soFar[k] += acc.soFar[k];
    all.chainedOn += acc.chainedOn;
  }
  out.all = summary(all);
  return out;
}

const noSoFar = (): SoFarResult => ({ estimates: 0, covered: 0, samples: 0, onWord: 0, withinOne: 0, wholeOnWord: 0, aheadSamples: 0, aheadWithinOne: 0 });

function summary(acc: { parts: number; words: number; samples: number; on: number; near: number; errors: number[]; soFar: SoFarResult; chainedOn: number }): WordTimingResult {
  const sorted = [...acc.errors].sort((a, b) => a - b);
  return {
    parts: acc.parts,
    words: acc.words,
    samples: acc.samples,
    onWord: acc.on / Math.max(1, acc.samples),
    withinOne: acc.near / Math.max(1, acc.samples),
    medianMs: Math.round(quantile(sorted, 0.5)),
    p90Ms: Math.round(quantile(sorted, 0.9)),
    chainedOnWord: acc.chainedOn / Math.max(1, acc.samples),
    soFar: {
      estimates: acc.soFar.estimates,
      covered: acc.soFar.covered / Math.max(1, acc.soFar.estimates),
      samples: acc.soFar.samples,
      onWord: acc.soFar.onWord / Math.max(1, acc.soFar.samples),
      withinOne: acc.soFar.withinOne / Math.max(1, acc.soFar.samples),
      wholeOnWord: acc.soFar.wholeOnWord / Math.max(1, acc.soFar.samples),
      aheadSamples: acc.soFar.aheadSamples,
      aheadWithinOne: acc.soFar.aheadWithinOne / Math.max(1, acc.soFar.aheadSamples),
    },
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
  for (const [k, r] of Object.entries(result)) {
    const f = r.soFar!;
    console.log(`${k}: so far (audio cut at ${SO_FAR_MS.join(', ')} ms; ${f.estimates} estimates): ${pct(f.covered)} of the audio timed; the words each added: on the word ${pct(f.onWord)} (the whole part's estimate there ${pct(f.wholeOnWord)}), within one ${pct(f.withinOne)} (${f.samples} samples); then the rest: on the word ${pct(r.chainedOnWord)} in all (the whole at once ${pct(r.onWord)}); the words after the last sure pause, for now: within one ${pct(f.aheadWithinOne)} (${f.aheadSamples} samples)`);
  }
  console.log(`took ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
