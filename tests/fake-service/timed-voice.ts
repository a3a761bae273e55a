/**
 * A test voice whose word timings are known (issue 48): each word of the text synthesised alone by espeak-ng,
 * its silent edges cut, and the words laid end to end with pauses as a speaker makes them — a few tens of ms
 * between the words of a phrase (none at times), longer after a comma or a dash, longer still at a sentence's
 * end and a paragraph's, each varied (a fixed sequence, the same for the same text). What the service would
 * send is the audio alone; the timings are for the tests and the benchmark to score a highlight against,
 * never part of the API's answer.
 */
import { wordsOf } from '../../utils/audio/word-measure.ts';
import { type AudioFormat, encodeMp3, encodeWav, MP3_KBPS, mp3DurationMs, type RenderedAudio, SAMPLE_RATE, synthesizeSpeech } from './audio.ts';

export interface TrueWord {
  /** Code-unit offsets in the text. */
  start: number;
  end: number;
  startMs: number;
  endMs: number;
}

export interface TimedVoice {
  pcm: Int16Array;
  sampleRate: number;
  words: TrueWord[];
}

/** Lead-in and tail silence, ms. */
const EDGE_MS = 120;

/** The pause after a word, ms, from what lies between it and the next (`k`: the word's index, for variety). */
export function pauseAfterMs(between: string, k: number): number {
  const vary = (span: number) => ((k * 37) % 11) * (span / 10);
  if (/\n/.test(between)) return 600 + vary(250);
  if (/[.!?…]/.test(between)) return 330 + vary(220);
  if (/[,;:—–()«»"]/.test(between)) return 140 + vary(160);
  // Inside a phrase: mostly a short gap, now and then none (words run together).
  return k % 5 === 3 ? 0 : 15 + vary(55);
}

/** The word's sound without espeak-ng's silent lead-in and tail. */
function trimmed(pcm: Int16Array): Int16Array {
  const quiet = 300;
  let a = 0;
  let b = pcm.length;
  while (a < b && Math.abs(pcm[a]!) < quiet) a++;
  while (b > a && Math.abs(pcm[b - 1]!) < quiet) b--;
  return pcm.subarray(a, b);
}

/**
 * Each word's sound: one espeak-ng run for all the words, each said as a sentence of its own, cut apart at
 * the long silences between them (a run takes ~250 ms, most of it starting the WASM module); word by word
 * when the cut does not give one piece per word.
 */
async function wordSounds(words: readonly string[]): Promise<Int16Array[]> {
  const pcm = await synthesizeSpeech(words.join('.\n\n'));
  const gap = Math.round(SAMPLE_RATE * 0.2);
  const pieces: Int16Array[] = [];
  let i = 0;
  while (i < pcm.length) {
    while (i < pcm.length && Math.abs(pcm[i]!) < 300) i++;
    if (i >= pcm.length) break;
    let end = i;
    let quietSince = -1;
    for (let k = i; k < pcm.length; k++) {
      if (Math.abs(pcm[k]!) >= 300) quietSince = -1;
      else if (quietSince < 0) quietSince = k;
      else if (k - quietSince >= gap) break;
      end = k + 1;
    }
    pieces.push(trimmed(pcm.subarray(i, end)));
    i = end;
  }
  if (pieces.length === words.length) return pieces;
  return Promise.all(words.map(async (w) => trimmed(await synthesizeSpeech(w))));
}

/** The timed voice as the service sends it (MP3, or WAV for `pcm`), with its words' true times for the log. */
export async function renderTimedVoice(text: string, format: AudioFormat): Promise<RenderedAudio> {
  const { pcm, words } = await timedVoice(text);
  if (format === 'pcm') return { bytes: encodeWav(pcm), contentType: 'audio/wav', durationMs: (pcm.length * 1000) / SAMPLE_RATE, words };
  const bytes = encodeMp3(pcm, MP3_KBPS[format]);
  return { bytes, contentType: 'audio/mpeg', durationMs: mp3DurationMs(bytes), words };
}

export async function timedVoice(text: string): Promise<TimedVoice> {
  const spans = wordsOf(text);
  const sounds = await wordSounds(spans.map((s) => text.slice(s.start, s.end)));
  const pieces: Int16Array[] = [];
  const words: TrueWord[] = [];
  const ms = (samples: number) => (samples * 1000) / SAMPLE_RATE;
  const silence = (durationMs: number) => new Int16Array(Math.round((durationMs * SAMPLE_RATE) / 1000));
  let at = 0;
  const add = (piece: Int16Array) => {
    pieces.push(piece);
    at += piece.length;
  };
  add(silence(EDGE_MS));
  for (let k = 0; k < spans.length; k++) {
    const span = spans[k]!;
    const sound = sounds[k]!;
    const startMs = ms(at);
    add(sound);
    words.push({ ...span, startMs, endMs: ms(at) });
    const next = spans[k + 1];
    if (next) add(silence(pauseAfterMs(text.slice(span.end, next.start), k)));
  }
  add(silence(EDGE_MS));
  const pcm = new Int16Array(at);
  let offset = 0;
  for (const piece of pieces) {
    pcm.set(piece, offset);
    offset += piece.length;
  }
  return { pcm, sampleRate: SAMPLE_RATE, words };
}
