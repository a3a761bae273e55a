/**
 * When each word of a part is said, estimated from the part's audio alone (issue 48): the service sends MP3
 * and no word timings. Three facts are used, measured in `word-measure.ts`:
 * - where the voice is silent (`findPauses`, on the decoded samples): the pauses at commas, full stops and
 *   paragraph ends, and the silence before the first word and after the last;
 * - which word boundaries are likely to have a pause (`pauseLikelihood`: a sentence's end almost always, a
 *   comma or a dash often, two words of a phrase seldom);
 * - how long each word takes to say (`wordWeight`: its sounds, near enough its letters, for Russian and
 *   English; digits as the words they become; an abbreviation letter by letter).
 * The pauses are matched to boundaries in order (`alignPauses`: the most likely match, a dynamic programme);
 * between two matched pauses the words' starts are placed together, each word's length against its weight and
 * each start after a dip in loudness where there is one (`placeWordStarts`).
 * Pure: the player decodes and calls it; the tests and the benchmark feed it known audio.
 */

import { findPauses, type Loudness, loudnessOf, type Pause, pauseLikelihood, type TimedWord, type WordSpan, wordsOf, wordWeight } from './word-measure';
import { placeWordStarts } from './word-starts';
import { alignPauses } from './align-pauses';
import { runSteps, type Steps } from './steps';

/**
 * A part still coming is timed up to a pause that is surely between two words: one of 200 ms or more placed
 * after a comma, a dash or a sentence's end. A shorter pause, or one placed inside a phrase, may be a gap a
 * word's length away from where it was placed (the pace of a few words strays too far to tell): its words
 * wait for more audio.
 */
const CUT_PAUSE_MS = 200;
/** …at a boundary at least this likely to hold a pause (`pauseLikelihood`: a comma 0.6, a dash 0.75, an end 0.93+). */
const CUT_LIKELY = 0.6;
/**
 * …and with this much audio after it (ms): the words said after a pause tell which boundary it is at (a
 * sentence's end 0.5 s before the audio so far ended was taken for a comma's two words on). `bench/word-timing.ts`:
 * a second placed more words right than none; two timed less of the audio so far, and no better.
 */
const CUT_MARGIN_MS = 1000;
/**
 * The paces tried for a part still coming: the one given, and this many steps of this log ratio either side
 * (±40 %), each the less likely the further from it (`PACE_PRIOR_SIGMA`). `bench/word-timing.ts`, audio cut
 * short and a pace given off the test voice's either way: words placed nearly as well as by the whole part's
 * estimate; half the range, with a narrower prior, placed far fewer right when the pace given was too fast.
 */
const PACE_STEPS = 10;
const PACE_STEP = 0.04;
/** Steps either side when the pace was measured on the part's words before (±8 %). */
const KNOWN_PACE_STEPS = 2;
const PACE_PRIOR_SIGMA = 0.2;
/** The shortest pause placed in a part still coming (ms). */
const SO_FAR_PAUSE_MS = 100;

/** A part's words as the estimate sees them: their weights, and how likely a pause is after each. */
interface TextModel {
  words: WordSpan[];
  weights: number[];
  total: number;
  /** The weight up to each boundary (after word i). */
  cum: number[];
  likely: number[];
}

function modelOf(text: string): TextModel {
  const words = wordsOf(text);
  const weights = words.map((w) => wordWeight(text.slice(w.start, w.end)));
  const cum: number[] = [];
  const likely: number[] = [];
  let sum = 0;
  for (let i = 0; i < words.length - 1; i++) {
    sum += weights[i]!;
    cum.push(sum);
    likely.push(pauseLikelihood(text.slice(words[i]!.end, words[i + 1]!.start)));
  }
  return { words, weights, total: sum + (weights.at(-1) ?? 0), cum, likely };
}

/**
 * A voice's usual pace, ms of sound per unit of `wordWeight`: where an estimate of a part still coming starts
 * when no whole part has been timed yet (between the test voice's Russian and English paces, `bench/word-timing.ts`).
 */
export const USUAL_MS_PER_WEIGHT = 60;

/** Word times and the pace they were said at: ms of sound per unit of `wordWeight` (pauses not counted). */
export interface WordEstimate {
  timed: TimedWord[];
  /** So far: how many of the last words timed are only for now (after the last sure pause, at the pace found). */
  ahead: number;
  msPerWeight: number;
  /** Where the audio after the words timed begins (so far: the end of the pause after the last of them). */
  resumeMs: number;
  /** The sound the words timed took (ms, pauses not counted), and their weight: `msPerWeight` is their ratio. */
  soundMs: number;
  weight: number;
}

/** The pace a part still coming is first estimated at; `known`: measured on this part's words already (a few paces near it are tried, not ±40 %). */
export interface SoFarPace {
  msPerWeight: number;
  known?: boolean;
}

/**
 * When each word of `text` is said in a part of `durationMs` whose silences are `pauses` (`findPauses`):
 * the sound between the first and last silence is the speech; each inner silence is matched to a word
 * boundary (`alignPauses`); between matched silences, the words share the time by `wordWeight`.
 */
export function estimateWordTimes(text: string, durationMs: number, pauses: readonly Pause[], loudness?: Loudness): TimedWord[] {
  return runSteps(estimateWords(text, durationMs, pauses, loudness))?.timed ?? [];
}

function* estimateWords(text: string, durationMs: number, pauses: readonly Pause[], loudness?: Loudness, soFar?: SoFarPace): Steps<WordEstimate | null> {
  const soFarPace = soFar?.msPerWeight;
  const model = modelOf(text);
  const { words, weights, total, cum, likely } = model;
  if (words.length === 0) return null;
  const lead = pauses[0]?.startMs === 0 ? pauses[0].endMs : 0;
  const last = pauses.at(-1);
  // A silence at the end (so far: it may go on) is not speech.
  const tail = last && last.endMs >= durationMs - 1 && last.startMs > lead ? last.startMs : durationMs;
  // So far, only pauses long enough to be between words surely are placed (the pace of a few words is too
  // loose to tell a gap from a consonant's closure); the shorter ones stay inside their runs, where
  // `placeWordStarts` takes the gaps among them.
  const shortest = soFarPace === undefined ? 0 : SO_FAR_PAUSE_MS;
  const inner = pauses.filter((p) => p.startMs >= lead && p.endMs <= tail && p.startMs > 0 && p.endMs < durationMs && p.endMs - p.startMs >= shortest);
  const pauseTotal = inner.reduce((n, p) => n + p.endMs - p.startMs, 0);
  const speech = Math.max(1, tail - lead - pauseTotal);
  let before = 0;
  const at = inner.map((p) => {
    const s = p.startMs - lead - before;
    before += p.endMs - p.startMs;
    return s;
  });
  const lengths = inner.map((p) => p.endMs - p.startMs);
  let placed: number[];
  let msPerWeight = speech / Math.max(1e-9, total);
  // Words timed: all of them, or (so far) those up to the last placed pause.
  let upTo = words.length;
  let endMs = tail;
  let resumeMs = durationMs;
  let soundMs = speech;
  let weight = total;
  let gridPace = msPerWeight;
  let aheadRun: { from: number; to: number; startMs: number; endMs: number } | null = null;
  if (soFarPace === undefined) {
    placed = alignPauses(cum, total, likely, at, lengths, speech);
    yield;
  } else {
    msPerWeight = soFarPace;
    // The pace of a part still coming is not known: each pace within ±40 % of the one given is tried, and the
    // most likely placement taken (its score, and how far its pace is from the one given).
    let bestScore = -Infinity;
    placed = [];
    const steps = soFar!.known ? KNOWN_PACE_STEPS : PACE_STEPS;
    for (let k = -steps; k <= steps; k++) {
      const pace = soFarPace * Math.exp(k * PACE_STEP);
      const scored = { score: 0 };
      const tried = alignPauses(cum, total, likely, at, lengths, speech, { msPerWeight: pace }, scored);
      const score = scored.score - ((k * PACE_STEP) / PACE_PRIOR_SIGMA) ** 2 / 2;
      if (score > bestScore) [bestScore, placed, msPerWeight] = [score, tried, pace];
      yield;
    }
    const lastPlaced = placed.findLastIndex((i, j) => i >= 0 && lengths[j]! >= CUT_PAUSE_MS && likely[i]! >= CUT_LIKELY && tail - inner[j]!.endMs >= CUT_MARGIN_MS);
    gridPace = msPerWeight;
    if (lastPlaced < 0) {
      [upTo, endMs, resumeMs, soundMs, weight, placed] = [0, lead, lead, 0, 0, []];
    } else {
      soundMs = at[lastPlaced]!;
      weight = cum[placed[lastPlaced]!]!;
      msPerWeight = soundMs / weight;
      upTo = placed[lastPlaced]! + 1;
      endMs = inner[lastPlaced]!.startMs;
      resumeMs = inner[lastPlaced]!.endMs;
      placed = placed.slice(0, lastPlaced);
    }
    // The words after, to where the audio so far ends, at the pace found: told for now (`ahead`), so the mark
    // goes on with the voice; the next estimate, with more audio, times them surely.
    const pausedAfter = inner.filter((p) => p.startMs >= resumeMs).reduce((n, p) => n + p.endMs - p.startMs, 0);
    const soundAfter = tail - resumeMs - pausedAfter;
    let aheadWeight = 0;
    let to = upTo;
    // A word is taken when half of it, at least, is in the audio so far.
    while (to < words.length && (aheadWeight + weights[to]! / 2) * gridPace <= soundAfter) aheadWeight += weights[to++]!;
    if (to > upTo) aheadRun = { from: upTo, to, startMs: resumeMs, endMs: Math.min(tail, resumeMs + (aheadWeight * gridPace * (tail - resumeMs)) / Math.max(1, soundAfter)) };
  }
  // Anchors: [word index that starts a run, its start ms, the index after the run, its end ms].
  const runs: Array<{ from: number; to: number; startMs: number; endMs: number }> = [];
  let from = 0;
  let startMs = lead;
  placed.forEach((boundary, j) => {
    if (boundary < 0) return;
    runs.push({ from, to: boundary + 1, startMs, endMs: inner[j]!.startMs });
    from = boundary + 1;
    startMs = inner[j]!.endMs;
  });
  if (upTo > from) runs.push({ from, to: upTo, startMs, endMs });
  if (aheadRun) runs.push(aheadRun);
  const timed: TimedWord[] = [];
  for (const run of runs) {
    // Pauses inside a word (not placed) are part of its run's time.
    const runWeight = weights.slice(run.from, run.to).reduce((a, b) => a + b, 0) || 1;
    let t = run.startMs;
    for (let i = run.from; i < run.to; i++) {
      const length = ((run.endMs - run.startMs) * weights[i]!) / runWeight;
      timed.push({ ...words[i]!, startMs: t, endMs: t + length });
      t += length;
    }
    if (loudness) {
      placeWordStarts(timed, timed.length - (run.to - run.from), loudness, weights.slice(run.from, run.to));
      yield;
    }
  }
  return { timed, ahead: aheadRun ? aheadRun.to - aheadRun.from : 0, msPerWeight, resumeMs, soundMs, weight };
}

/** What is known of a part's words: the first `starts.length` words' starts (ms), where its audio after them begins, its pace. */
export interface PartTimes {
  starts: number[];
  /** The starts of the words after those, for now (see `WordEstimate.ahead`). */
  ahead: number[];
  resumeMs: number;
  /** The pace of all the words timed: their sound (ms) and weight. */
  soundMs: number;
  weight: number;
}

/**
 * More of a part's words timed, from its decoded audio (`samples` at `sampleRate`, one channel, from the
 * part's start): what the player runs, in steps. `known`: the words timed before, on less of the audio;
 * only the words after them are estimated, on the audio after them (each estimate's cost is the new
 * audio's, not the whole part's). `whole`: the audio is all there, and every word is timed; else only those
 * up to the last sure pause (`CUT_PAUSE_MS`), from the pace `known` measured, or `usualPace` for a
 * part's first estimate. `offsetMs`: where `samples` begin in the part (a piece decoded from a frame before
 * the words not yet timed). What comes back holds `known`'s starts and those after, or is `known` unchanged.
 */
export function* moreWordTimes(text: string, samples: Float32Array, sampleRate: number, known: PartTimes | null, whole: boolean, usualPace = USUAL_MS_PER_WEIGHT, offsetMs = 0): Steps<PartTimes | null> {
  const words = wordsOf(text);
  const done = known?.starts.length ?? 0;
  if (done >= words.length) return known;
  const fromMs = known?.resumeMs ?? 0;
  const rest = samples.subarray(Math.min(samples.length, Math.max(0, Math.round(((fromMs - offsetMs) * sampleRate) / 1000))));
  const durationMs = (rest.length * 1000) / sampleRate;
  const loudness = loudnessOf(rest, sampleRate);
  const pauses = findPauses(loudness, durationMs);
  yield;
  const restText = text.slice(words[done]!.start);
  // The pace measured on all the part's words timed so far (a few words' own pace strays widely within a part).
  const measured = known !== null && known.weight > 0;
  const msPerWeight = measured ? known.soundMs / known.weight : usualPace;
  const estimate = yield* estimateWords(restText, durationMs, pauses, loudness, whole ? undefined : { msPerWeight, known: measured });
  if (!estimate) return known && { ...known, ahead: [] };
  const starts = estimate.timed.map((w) => Math.round(fromMs + w.startMs));
  const sure = starts.length - estimate.ahead;
  if (sure === 0) return { starts: known?.starts ?? [], ahead: starts, resumeMs: fromMs, soundMs: known?.soundMs ?? 0, weight: known?.weight ?? 0 };
  return {
    starts: [...(known?.starts ?? []), ...starts.slice(0, sure)],
    ahead: starts.slice(sure),
    resumeMs: fromMs + estimate.resumeMs,
    soundMs: (known?.soundMs ?? 0) + estimate.soundMs,
    weight: (known?.weight ?? 0) + estimate.weight,
  };
}

/** The words of `text` timed in its whole part's decoded audio, at once (the benchmarks). */
export function wordTimesOfAudio(text: string, samples: Float32Array, sampleRate: number): WordEstimate {
  const durationMs = (samples.length * 1000) / sampleRate;
  const loudness = loudnessOf(samples, sampleRate);
  return runSteps(estimateWords(text, durationMs, findPauses(loudness, durationMs), loudness)) ?? { timed: [], ahead: 0, msPerWeight: 0, resumeMs: durationMs, soundMs: 0, weight: 0 };
}
