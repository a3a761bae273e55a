/**
 * Audio sources of the fake service: a deterministic sine tone (default) and real
 * speech from espeak-ng (WASM), both encoded to MP3 with lamejs, or to WAV for `pcm`.
 */
import { Mp3Encoder } from '@breezystack/lamejs';
import ESpeakNg from 'espeak-ng';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { mp3DurationMs, parseMp3Frames } from './mp3.ts';

export { hasMp3InfoHeader, mp3DurationMs, parseMp3Frames, type Mp3Frame } from './mp3.ts';

/** Sample rate of all generated audio; espeak-ng synthesizes at this rate too. */
export const SAMPLE_RATE = 22050;
/** MPEG-2 Layer III frames hold 576 samples (≈ 26.1 ms at 22050 Hz). */
export const SAMPLES_PER_FRAME = 576;
export const FRAME_MS = (SAMPLES_PER_FRAME * 1000) / SAMPLE_RATE;

export type AudioFormat = 'mp3' | 'mp3_high' | 'mp3_low' | 'pcm';
export const AUDIO_FORMATS: readonly AudioFormat[] = ['mp3', 'mp3_high', 'mp3_low', 'pcm'];
/** `timed`: the test voice whose word timings are known (`timed-voice.ts`), kept in the log for the tests only. */
export type AudioSource = 'tone' | 'speech' | 'timed';

/** Constant bitrates per format; all are mono 22050 Hz MPEG-2 Layer III. */
export const MP3_KBPS: Readonly<Record<Exclude<AudioFormat, 'pcm'>, number>> = { mp3_low: 32, mp3: 48, mp3_high: 64 };

export interface RenderedAudio {
  bytes: Uint8Array;
  contentType: 'audio/mpeg' | 'audio/wav';
  durationMs: number;
  /** The timed voice only: when each word is said (offsets in the text, ms in the audio). Never sent to the client. */
  words?: Array<{ start: number; end: number; startMs: number; endMs: number }>;
}

export interface ToneOptions {
  msPerChar: number;
  minMs: number;
}

/**
 * 11 whole cycles in each 576-sample frame (≈ 421 Hz): past its first frames the tone's frames repeat,
 * so a long tone is put together from a short one's frames instead of encoded (see `toneMp3`).
 */
const TONE_HZ = (11 * SAMPLE_RATE) / SAMPLES_PER_FRAME;
const TONE_AMPLITUDE = 0.3 * 32767;
const FADE_SAMPLES = Math.round(SAMPLE_RATE * 0.01);
// lamejs delays its output by ≈ 1105 samples (encoder + MDCT delay); ending the tone
// two frames before the last kept frame keeps the whole tone, fade-out included.
const ENCODER_LAG_SAMPLES = 2 * SAMPLES_PER_FRAME;

class LruCache<V> {
  private readonly entries = new Map<string, V>();
  constructor(private readonly limit: number) {}

  get(key: string, make: () => V): V {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const value = make();
    this.entries.set(key, value);
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as string);
    return value;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}

const toneCache = new LruCache<Uint8Array>(256);
const speechCache = new LruCache<Promise<Int16Array>>(64);

export function toneDurationMs(chars: number, options: ToneOptions): number {
  return Math.max(options.minMs, chars * options.msPerChar);
}

/** A 440 Hz sine of `toneSamples` samples with 10 ms fades, padded with silence to `totalSamples`. */
export function tonePcm(totalSamples: number, toneSamples = totalSamples): Int16Array {
  const pcm = new Int16Array(totalSamples);
  const fade = Math.min(FADE_SAMPLES, Math.floor(toneSamples / 2));
  for (let i = 0; i < toneSamples; i++) {
    const envelope = Math.min(1, i / fade, (toneSamples - 1 - i) / fade);
    pcm[i] = Math.round(Math.sin((2 * Math.PI * TONE_HZ * i) / SAMPLE_RATE) * TONE_AMPLITUDE * envelope);
  }
  return pcm;
}

function concatBytes(parts: readonly ArrayBufferView[]): Uint8Array {
  const total = parts.reduce((n, p) => n + p.byteLength, 0);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(new Uint8Array(part.buffer, part.byteOffset, part.byteLength), offset);
    offset += part.byteLength;
  }
  return out;
}

/**
 * Mono CBR MP3. lamejs writes no ID3 tag and no Xing/LAME info frame, and does not
 * use the bit reservoir, so every frame decodes on its own and outputs can be appended.
 */
export function encodeMp3(pcm: Int16Array, kbps: number, sampleRate = SAMPLE_RATE): Uint8Array {
  const encoder = new Mp3Encoder(1, sampleRate, kbps);
  const parts: Uint8Array[] = [];
  const block = SAMPLES_PER_FRAME * 16;
  for (let i = 0; i < pcm.length; i += block) parts.push(encoder.encodeBuffer(pcm.subarray(i, i + block)));
  parts.push(encoder.flush());
  return concatBytes(parts);
}

export function encodeWav(pcm: Int16Array, sampleRate = SAMPLE_RATE): Uint8Array {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + pcm.byteLength, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(pcm.byteLength, 40);
  return concatBytes([header, pcm]);
}

/** Mono 16-bit PCM samples and sample rate of a RIFF/WAVE file. */
export function decodeWav(wav: Uint8Array): { pcm: Int16Array; sampleRate: number } {
  const view = Buffer.from(wav.buffer, wav.byteOffset, wav.byteLength);
  if (view.toString('latin1', 0, 4) !== 'RIFF' || view.toString('latin1', 8, 12) !== 'WAVE') throw new Error('not a WAV file');
  let sampleRate = 0;
  for (let offset = 12; offset + 8 <= view.length; ) {
    const id = view.toString('latin1', offset, offset + 4);
    const size = view.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') sampleRate = view.readUInt32LE(body + 4);
    if (id === 'data') {
      // Writers that stream the file may leave a placeholder size: trust the file length.
      const end = Math.min(view.length, body + size);
      const pcm = new Int16Array(Math.floor((end - body) / 2));
      for (let i = 0; i < pcm.length; i++) pcm[i] = view.readInt16LE(body + 2 * i);
      return { pcm, sampleRate };
    }
    offset = body + size + (size % 2);
  }
  throw new Error('WAV file has no data chunk');
}

function toneFrameCount(durationMs: number): number {
  return Math.max(1, Math.ceil(durationMs / FRAME_MS));
}

/** The tone MP3 of `frames` frames, encoded whole. */
export function encodeToneMp3(frames: number, kbps: number): Uint8Array {
  const total = frames * SAMPLES_PER_FRAME;
  const encoded = encodeMp3(tonePcm(total, Math.max(0, total - ENCODER_LAG_SAMPLES)), kbps);
  const last = parseMp3Frames(encoded).slice(0, frames).at(-1);
  return last ? encoded.slice(0, last.offset + last.length) : encoded;
}

/**
 * Frames of a tone past which the encoder's output repeats (the fade-in and the encoder's start are
 * behind), and the period it repeats with: every bitrate here makes frames of n + k/49 bytes, so the
 * padding byte comes back in the same places every 49 frames.
 */
const TONE_HEAD_FRAMES = 8;
const PADDING_PERIOD = 49;
/** The shortest tone put together (below it, encoded whole): a head, a whole period, and the ending's frames. */
const COMPOSED_FROM = 64;

/**
 * A tone MP3 of exactly ceil(durationMs / FRAME_MS) frames; cached by frame count and bitrate. A long
 * one is the same bytes as its encoding (tested), put together from a short tone of the same padding
 * phase: its head, whole periods of its steady frames, then its ending. Encoding a 10 s tone took
 * ~0.4 s of the local service's CPU in every end-to-end test that asked for a new length.
 */
export function toneMp3(durationMs: number, kbps: number = MP3_KBPS.mp3): Uint8Array {
  return toneMp3Frames(toneFrameCount(durationMs), kbps);
}

function toneMp3Frames(frames: number, kbps: number): Uint8Array {
  return toneCache.get(`mp3:${kbps}:${frames}`, () => {
    if (frames < COMPOSED_FROM + PADDING_PERIOD) return encodeToneMp3(frames, kbps);
    const short = COMPOSED_FROM + ((frames - COMPOSED_FROM) % PADDING_PERIOD);
    const base = toneMp3Frames(short, kbps);
    const at = parseMp3Frames(base).map((f) => f.offset);
    const head = base.subarray(0, at[TONE_HEAD_FRAMES]);
    const period = base.subarray(at[TONE_HEAD_FRAMES], at[TONE_HEAD_FRAMES + PADDING_PERIOD]);
    const rest = base.subarray(at[TONE_HEAD_FRAMES]);
    const repeats = (frames - short) / PADDING_PERIOD;
    return concatBytes([head, ...Array.from({ length: repeats }, () => period), rest]);
  });
}

export function toneWav(durationMs: number): Uint8Array {
  const samples = Math.max(1, Math.round((durationMs * SAMPLE_RATE) / 1000));
  return toneCache.get(`wav:${samples}`, () => encodeWav(tonePcm(samples)));
}

function wavDurationMs(bytes: Uint8Array): number {
  return ((bytes.byteLength - 44) / 2 / SAMPLE_RATE) * 1000;
}

export function renderTone(text: string, format: AudioFormat, options: ToneOptions): RenderedAudio {
  const durationMs = toneDurationMs([...text].length, options);
  if (format === 'pcm') {
    const bytes = toneWav(durationMs);
    return { bytes, contentType: 'audio/wav', durationMs: wavDurationMs(bytes) };
  }
  const bytes = toneMp3(durationMs, MP3_KBPS[format]);
  return { bytes, contentType: 'audio/mpeg', durationMs: mp3DurationMs(bytes) };
}

// --- speech (espeak-ng) ---

let espeakWasm: Promise<WebAssembly.Module> | undefined;

function compiledEspeak(): Promise<WebAssembly.Module> {
  const dir = path.dirname(createRequire(import.meta.url).resolve('espeak-ng'));
  espeakWasm ??= readFile(path.join(dir, 'espeak-ng.wasm')).then((bytes) => WebAssembly.compile(bytes));
  return espeakWasm;
}

/** Russian voice when the text has Cyrillic letters, English otherwise. */
export function espeakVoice(text: string): 'ru' | 'en-us' {
  return /[А-Яа-яЁё]/.test(text) ? 'ru' : 'en-us';
}

async function runEspeak(text: string): Promise<Uint8Array> {
  const wasm = await compiledEspeak();
  const messages: string[] = [];
  let failInstantiate: (error: unknown) => void = () => {};
  const instantiateFailed = new Promise<never>((_, reject) => (failInstantiate = reject));
  // The program runs once per instance; reading the text from a file keeps text
  // starting with "-" from being taken for an option.
  const instance = await Promise.race([
    instantiateFailed,
    ESpeakNg({
      arguments: ['-b', '1', '-v', espeakVoice(text), '-w', '/out.wav', '-f', '/in.txt'],
      preRun: [(module) => module.FS.writeFile('/in.txt', text)],
      instantiateWasm: (imports, done) => {
        WebAssembly.instantiate(wasm, imports).then((inst) => done(inst, wasm), failInstantiate);
        return {};
      },
      print: () => {},
      printErr: (line) => messages.push(line),
    }),
  ]);
  try {
    return instance.FS.readFile('/out.wav');
  } catch {
    throw new Error(`espeak-ng wrote no audio${messages.length ? `: ${messages.join('; ')}` : ''}`);
  }
}

/** Speech samples at SAMPLE_RATE for `text`; cached by text. */
export function synthesizeSpeech(text: string): Promise<Int16Array> {
  return speechCache.get(text, async () => {
    const { pcm, sampleRate } = decodeWav(await runEspeak(text));
    if (sampleRate !== SAMPLE_RATE) throw new Error(`espeak-ng produced ${sampleRate} Hz, expected ${SAMPLE_RATE}`);
    return pcm;
  });
}

export async function renderSpeech(text: string, format: AudioFormat): Promise<RenderedAudio> {
  const pcm = await synthesizeSpeech(text).catch((error: unknown) => {
    speechCache.delete(text); // a failure is not worth remembering
    throw error;
  });
  if (format === 'pcm') {
    const bytes = encodeWav(pcm);
    return { bytes, contentType: 'audio/wav', durationMs: wavDurationMs(bytes) };
  }
  const bytes = encodeMp3(pcm, MP3_KBPS[format]);
  return { bytes, contentType: 'audio/mpeg', durationMs: mp3DurationMs(bytes) };
}

export async function renderAudio(
  source: AudioSource,
  text: string,
  format: AudioFormat,
  tone: ToneOptions,
): Promise<RenderedAudio> {
  return source === 'speech' ? renderSpeech(text, format) : renderTone(text, format, tone);
}
