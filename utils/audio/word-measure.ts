/**
 * What the word timing (`word-timing.ts`, issue 48) measures before it estimates: the words of a part's text
 * and how long each takes to say (`wordsOf`, `wordWeight`), how likely a pause is between two (`pauseLikelihood`),
 * and in its decoded audio the loudness and the silences (`loudnessOf`, `findPauses`); and the word being said at
 * a time, once the words are timed (`wordAt`, `lastStarted`). Pure, and text-only but for the two audio measures:
 * the background's reading takes the words of a part from here without the estimate's dynamic programmes.
 */

/** A word of the part's text: its code-unit offsets. */
export interface WordSpan {
  start: number;
  end: number;
}

/** A word with the time it is said, in ms from the part's audio start. */
export interface TimedWord extends WordSpan {
  startMs: number;
  endMs: number;
}

/** A silence in the audio, in ms from its start. */
export interface Pause {
  startMs: number;
  endMs: number;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}'’.-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu;

/** The words of `text` (letters and digits, with inner apostrophes, hyphens and dots: "don't", "из-за", "3.5"). */
export function wordsOf(text: string): WordSpan[] {
  return Array.from(text.matchAll(WORD), (m) => ({ start: m.index, end: m.index + m[0].length }));
}

const VOWELS = /[aeiouyаеёиоуыэюяäöüéèêàáíóúå]/giu;
const UPPER = /^[\p{Lu}\d]+$/u;

/**
 * A word's onset and release take time whatever its length, in the units of `wordWeight` (a sound's). The test
 * voice's words, said one by one, fit more (`bench/word-timing.ts` placed more words right at 3 than at 2, fewer
 * at 1); a voice reading on joins its words more closely, so less is taken than fits it best.
 */
export const WORD_ONSET = 2;

/**
 * How long a word takes to say, in sounds (near enough, letters): a vowel one, a consonant a little less; a
 * digit six (a number is said as words: "1984", «сорок два»); an abbreviation ("NASA" aside: an all-capital
 * word with few vowels, "FBI", «МВД») letter by letter, each a syllable of two sounds; and `WORD_ONSET` more.
 */
export function wordWeight(word: string): number {
  const digits = word.match(/\d/g)?.length ?? 0;
  const letters = word.replace(/[^\p{L}]/gu, '');
  const vowels = letters.match(VOWELS)?.length ?? 0;
  const abbreviation = letters.length >= 2 && letters.length <= 5 && UPPER.test(letters) && vowels * 2 < letters.length;
  const sounds = abbreviation ? 2 * letters.length : vowels + 0.9 * (letters.length - vowels);
  return WORD_ONSET + sounds + 6 * digits;
}

/** Whether the characters between two words end a sentence (or a paragraph). */
export function endsSentence(between: string): boolean {
  return /[.!?…\n]/.test(between);
}

/**
 * How likely a pause is after word `i` (before word `i + 1`), from the characters between them: a paragraph
 * or sentence end almost always; a comma, semicolon, colon, dash or bracket often; nothing, seldom.
 */
export function pauseLikelihood(between: string): number {
  if (/\n/.test(between)) return 0.97;
  if (endsSentence(between)) return 0.93;
  if (/[;:—–()«»"]/.test(between) || /\s-\s/.test(between)) return 0.75;
  if (/,/.test(between)) return 0.6;
  return 0.04;
}

/** Options of `findPauses`. */
export interface PauseOptions {
  /** The shortest silence counted, ms. */
  minPauseMs?: number;
  /** Silence: quieter than this share of the part's loud windows' level (its 90th percentile). */
  threshold?: number;
}

/** The loudness of `samples` (RMS) in windows of `windowMs`. */
export interface Loudness {
  windowMs: number;
  rms: Float32Array;
}

export function loudnessOf(samples: Float32Array, sampleRate: number, wantedMs = 10): Loudness {
  const size = Math.max(1, Math.round((sampleRate * wantedMs) / 1000));
  // The window's true length: 221 samples at 22,050 Hz are 10.02 ms, and 10 ms a window would drift 45 ms in 20 s.
  const windowMs = (size * 1000) / sampleRate;
  const windows = Math.floor(samples.length / size);
  const rms = new Float32Array(windows);
  for (let w = 0; w < windows; w++) {
    let sum = 0;
    for (let i = w * size; i < (w + 1) * size; i++) sum += samples[i]! * samples[i]!;
    rms[w] = Math.sqrt(sum / size);
  }
  return { windowMs, rms };
}

/**
 * The silences in a part's audio (its `loudnessOf`, `durationMs` long): windows quieter than `threshold` of
 * the part's loud level, for at least `minPauseMs`. The silence before the first sound and after the last
 * are among them (they start at 0 and end at the audio's end). The loudness is measured once and serves
 * `placeWordStarts` too.
 */
export function findPauses({ rms, windowMs }: Loudness, durationMs: number, opts: PauseOptions = {}): Pause[] {
  const windows = rms.length;
  if (windows === 0) return [];
  const loud = Float32Array.from(rms).sort()[Math.floor(windows * 0.9)]!;
  const quiet = loud * (opts.threshold ?? 0.06);
  const minWindows = Math.ceil((opts.minPauseMs ?? 70) / windowMs);
  const pauses: Pause[] = [];
  for (let w = 0; w < windows; ) {
    if (rms[w]! > quiet) {
      w++;
      continue;
    }
    let end = w;
    while (end < windows && rms[end]! <= quiet) end++;
    if (end - w >= minWindows || w === 0 || end === windows) pauses.push({ startMs: w * windowMs, endMs: end === windows ? durationMs : end * windowMs });
    w = end;
  }
  return pauses;
}


/** The word being said at `ms` (the last one started; −1 before the first). */
export function wordAt(timed: readonly { startMs: number }[], ms: number): number {
  return lastStarted(timed.length, (i) => timed[i]!.startMs, ms);
}

/** Of `n` ascending starts (`startOf(i)`), the index of the last at or before `ms` (−1 before the first). */
export function lastStarted(n: number, startOf: (i: number) => number, ms: number): number {
  let lo = 0;
  let hi = n - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (startOf(mid) <= ms) [found, lo] = [mid, mid + 1];
    else hi = mid - 1;
  }
  return found;
}
