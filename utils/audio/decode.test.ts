import { describe, expect, it } from 'vitest';
import { type AudioConfig, type AudioDataLike, type Codecs, type Decode, frameDecoder } from './decode';
import { mp3 as mp3Frames } from '../../tests/unit/mp3-frames';

const mp3 = (n: number) => mp3Frames(n) as Uint8Array<ArrayBuffer>;

/** Samples per frame of the test frames (MPEG-2, 22,050 Hz, mono). */
const SAMPLES = 576;

interface Seen {
  chunks: Array<{ timestamp: number; bytes: number[] }>;
  configs: AudioConfig[];
  closedData: number;
  closedDecoders: number;
}

/**
 * A fake of WebCodecs: each chunk decodes to `SAMPLES` samples whose value is the chunk's number in its
 * decoder's run (so the order can be read off the output); `fail` makes a decoder report an error.
 */
function fakeCodecs({ supported = true, fail = false }: { supported?: boolean; fail?: boolean } = {}): { codecs: Codecs; seen: Seen } {
  const seen: Seen = { chunks: [], configs: [], closedData: 0, closedDecoders: 0 };
  class Chunk {
    constructor(readonly init: { timestamp: number; data: Uint8Array }) {
      seen.chunks.push({ timestamp: init.timestamp, bytes: [...init.data.subarray(0, 4)] });
    }
  }
  class Decoder {
    private count = 0;
    private pending: Array<() => void> = [];
    constructor(private readonly init: { output: (data: AudioDataLike) => void; error: (error: unknown) => void }) {}
    configure(config: AudioConfig) {
      seen.configs.push(config);
    }
    decode(_chunk: unknown) {
      const n = ++this.count;
      // Outputs come later, as a real decoder's do.
      this.pending.push(() => {
        if (fail && n === 3) return this.init.error(new Error('broken frame'));
        this.init.output({
          numberOfFrames: SAMPLES,
          sampleRate: 22_050,
          copyTo: (destination, { planeIndex }) => destination.fill(n + planeIndex * 1000),
          close: () => void seen.closedData++,
        });
      });
    }
    async flush() {
      await Promise.resolve();
      for (const out of this.pending.splice(0)) out();
    }
    close() {
      seen.closedDecoders++;
    }
    static isConfigSupported = async () => ({ supported });
  }
  return { codecs: { AudioDecoder: Decoder, EncodedAudioChunk: Chunk }, seen };
}

const fallbackSamples = new Float32Array([7, 7, 7]);
const fallback: Decode = async () => ({ samples: fallbackSamples, sampleRate: 22_050 });

describe('frameDecoder: a piece of MP3 decoded frame by frame by WebCodecs', () => {
  it('gives each frame to the decoder in order, timed by the samples before it, and its samples in order', async () => {
    const { codecs, seen } = fakeCodecs();
    const decoded = await frameDecoder(codecs, fallback)(mp3(4));
    expect(seen.configs).toEqual([{ codec: 'mp3', sampleRate: 22_050, numberOfChannels: 1 }]);
    expect(seen.chunks.map((c) => c.timestamp)).toEqual([0, 1, 2, 3].map((i) => Math.round((i * SAMPLES * 1e6) / 22_050)));
    // Each chunk is one frame, from its header on.
    expect(seen.chunks.every((c) => c.bytes[0] === 0xff && c.bytes[1] === 0xf3)).toBe(true);
    expect(decoded.sampleRate).toBe(22_050);
    expect(decoded.samples.length).toBe(4 * SAMPLES);
    expect([0, 1, 2, 3].map((i) => decoded.samples[i * SAMPLES])).toEqual([1, 2, 3, 4]);
    // The first channel only.
    expect(decoded.samples.every((x) => x < 1000)).toBe(true);
  });

  it('lets go of every output and every decoder', async () => {
    const { codecs, seen } = fakeCodecs();
    const decode = frameDecoder(codecs, fallback);
    await decode(mp3(5));
    await decode(mp3(2));
    expect(seen.closedData).toBe(7);
    expect(seen.closedDecoders).toBe(2);
  });

  it('keeps one array for its samples: a shorter piece after a longer one takes the same memory', async () => {
    const decode = frameDecoder(fakeCodecs().codecs, fallback);
    const long = await decode(mp3(6));
    const buffer = long.samples.buffer;
    const short = await decode(mp3(3));
    expect(short.samples.buffer).toBe(buffer);
    expect(short.samples.length).toBe(3 * SAMPLES);
    const longer = await decode(mp3(8));
    expect(longer.samples.length).toBe(8 * SAMPLES);
  });

  it('skips an ID3 tag in front', async () => {
    const { codecs, seen } = fakeCodecs();
    const tag = Uint8Array.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 4, 0xff, 0xf3, 0x60, 0xc0]);
    const bytes = new Uint8Array(tag.length + 2 * 156);
    bytes.set(tag);
    bytes.set(mp3(2), tag.length);
    expect((await frameDecoder(codecs, fallback)(bytes)).samples.length).toBe(2 * SAMPLES);
    expect(seen.chunks).toHaveLength(2);
  });

  it.each<[string, () => Codecs | undefined, Uint8Array<ArrayBuffer>]>([
    ['no WebCodecs in the browser', () => undefined, mp3(3)],
    ['MP3 not supported by its decoder', () => fakeCodecs({ supported: false }).codecs, mp3(3)],
    ['bytes that hold no MP3 frame (a WAV)', () => fakeCodecs().codecs, new TextEncoder().encode('RIFF....WAVEfmt ')],
    ['a decoding error', () => fakeCodecs({ fail: true }).codecs, mp3(5)],
  ])('falls back to the Web Audio decoder: %s', async (_name, codecs, bytes) => {
    expect((await frameDecoder(codecs(), fallback)(bytes)).samples).toBe(fallbackSamples);
  });
});
