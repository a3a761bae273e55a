/**
 * Decoding a piece of a part's audio for its word times (`part-words.ts`). Two decoders, one result: the piece's
 * samples, one channel, at the audio's own rate (both give the same samples, to the last bit, in both browsers:
 * `bench/decode-webcodecs.ts`).
 * - WebCodecs' `AudioDecoder`, frame by frame, into one array kept from one piece to the next: the decoder's
 *   output is let go a frame at a time, so timing words leaves no buffer of a piece's size behind for the
 *   collector (a fresh buffer each piece was most of the player's memory);
 * - the Web Audio decoder (`decodeAudioData` in an offline context), where WebCodecs or its MP3 is missing, or
 *   the bytes are no MP3 (a WAV); and in Firefox, whose WebCodecs decode MP3 several times slower than its Web
 *   Audio decoder (the words of a part come that much later).
 * WebCodecs take one frame a chunk: Chromium's decoder fails on a chunk of several.
 * Not reentrant: the samples given are valid until the next call (the word estimate runs one at a time).
 */
import { id3Length, type Mp3Frame, scanMp3Frames } from './mp3-frames';

/** Decoded audio: one channel. */
export interface DecodedAudio {
  samples: Float32Array;
  sampleRate: number;
}

export type Decode = (bytes: Uint8Array<ArrayBuffer>) => Promise<DecodedAudio>;

/** The Web Audio decoder's rate: the service's MP3 comes at 22,050 Hz, so nothing is resampled. */
const OFFLINE_RATE = 22_050;

/** The Web Audio decoder: an offline context at `OFFLINE_RATE`, one channel. */
export const offlineDecode: Decode = async (bytes) => {
  const context = new OfflineAudioContext(1, 1, OFFLINE_RATE);
  const decoded = await context.decodeAudioData(bytes.buffer);
  return { samples: decoded.getChannelData(0), sampleRate: decoded.sampleRate };
};

/** What of WebCodecs the frame decoder uses (the browser's, or a test's). */
export interface Codecs {
  AudioDecoder: {
    new (init: { output: (data: AudioDataLike) => void; error: (error: unknown) => void }): DecoderLike;
    isConfigSupported(config: AudioConfig): Promise<{ supported?: boolean }>;
  };
  EncodedAudioChunk: new (init: { type: 'key'; timestamp: number; data: Uint8Array }) => unknown;
}

export interface AudioConfig {
  codec: 'mp3';
  sampleRate: number;
  numberOfChannels: number;
}

export interface AudioDataLike {
  numberOfFrames: number;
  sampleRate: number;
  copyTo(destination: Float32Array, options: { planeIndex: number; format: 'f32-planar' }): void;
  close(): void;
}

export interface DecoderLike {
  configure(config: AudioConfig): void;
  decode(chunk: unknown): void;
  flush(): Promise<void>;
  close(): void;
}

/**
 * A decoder of MP3 frames by WebCodecs, falling back to `fallback` where WebCodecs cannot (no `AudioDecoder`,
 * MP3 not supported, no MP3 frame in the bytes, a decoding error). Its samples live in one array, grown when a
 * piece is longer than any before.
 */
export function frameDecoder(codecs: Codecs | undefined, fallback: Decode = offlineDecode): Decode {
  let kept = new Float32Array(0);
  /** Whether MP3 of a rate and channel count is supported, asked once each. */
  const supported = new Map<string, Promise<boolean>>();
  const supports = (config: AudioConfig) => {
    const key = `${config.sampleRate}/${config.numberOfChannels}`;
    let answer = supported.get(key);
    if (!answer) {
      answer = codecs!.AudioDecoder.isConfigSupported(config).then((s) => s.supported === true, () => false);
      supported.set(key, answer);
    }
    return answer;
  };
  const decodeFrames = (bytes: Uint8Array, frames: readonly Mp3Frame[], config: AudioConfig) =>
    new Promise<DecodedAudio>((resolve, reject) => {
      const expected = frames.reduce((n, f) => n + f.samples, 0);
      if (kept.length < expected) kept = new Float32Array(expected);
      const into = kept;
      let filled = 0;
      let failed: unknown = null;
      const decoder = new codecs!.AudioDecoder({
        output: (data) => {
          try {
            const n = Math.min(data.numberOfFrames, into.length - filled);
            // The first channel alone: speech's loudness is the same in each.
            if (n > 0) data.copyTo(into.subarray(filled, filled + n), { planeIndex: 0, format: 'f32-planar' });
            filled += n;
          } catch (err) {
            failed ??= err;
          } finally {
            data.close();
          }
        },
        error: (err) => (failed ??= err),
      });
      try {
        decoder.configure(config);
        let at = 0;
        for (const f of frames) {
          decoder.decode(new codecs!.EncodedAudioChunk({ type: 'key', timestamp: Math.round((at * 1e6) / f.sampleRate), data: bytes.subarray(f.offset, f.offset + f.length) }));
          at += f.samples;
        }
      } catch (err) {
        failed ??= err;
      }
      decoder
        .flush()
        .catch((err: unknown) => (failed ??= err))
        .finally(() => {
          try {
            decoder.close();
          } catch {
            // Closed already (after an error).
          }
          if (failed !== null) reject(failed instanceof Error ? failed : new Error(String(failed)));
          else resolve({ samples: into.subarray(0, filled), sampleRate: config.sampleRate });
        });
    });
  return async (bytes) => {
    if (!codecs) return fallback(bytes);
    const { frames } = scanMp3Frames(bytes, id3Length(bytes));
    const head = frames[0];
    if (!head) return fallback(bytes);
    const config: AudioConfig = { codec: 'mp3', sampleRate: head.sampleRate, numberOfChannels: head.channels };
    if (!(await supports(config))) return fallback(bytes);
    return decodeFrames(bytes, frames, config).catch(() => fallback(bytes));
  };
}

/** The browser's WebCodecs, where it has them. */
export function browserCodecs(): Codecs | undefined {
  const g = globalThis as unknown as Partial<Codecs>;
  return typeof g.AudioDecoder === 'function' && typeof g.EncodedAudioChunk === 'function' ? (g as Codecs) : undefined;
}
