import { describe, expect, it } from 'vitest';
import {
  FRAME_MS,
  SAMPLE_RATE,
  decodeWav,
  encodeMp3,
  encodeToneMp3,
  espeakVoice,
  MP3_KBPS,
  hasMp3InfoHeader,
  mp3DurationMs,
  parseMp3Frames,
  renderSpeech,
  renderTone,
  toneMp3,
  tonePcm,
} from './audio.ts';
import { costUnits, formatRub, parseRub } from './money.ts';

const TONE = { msPerChar: 2, minMs: 300 };

describe('tone', () => {
  it.each([
    [1, 300],
    [150, 300],
    [151, 302],
    [500, 1000],
    [2500, 5000],
  ])('%i chars → %i ms, rounded up to whole frames', (chars, ms) => {
    const audio = renderTone('a'.repeat(chars), 'mp3', TONE);
    expect(audio.durationMs).toBeCloseTo(Math.ceil(ms / FRAME_MS) * FRAME_MS, 6);
    expect(mp3DurationMs(audio.bytes)).toBe(audio.durationMs);
  });

  it('is plain mono 22050 Hz CBR frames from byte 0: no ID3, no Xing/Info frame', () => {
    const bytes = toneMp3(1000);
    const frames = parseMp3Frames(bytes);
    expect(frames[0]!.offset).toBe(0);
    expect(frames.reduce((n, f) => n + f.length, 0)).toBe(bytes.length);
    expect(new Set(frames.map((f) => `${f.version}/${f.layer}/${f.sampleRate}/${f.bitrateKbps}`))).toEqual(new Set(['2/3/22050/48']));
    expect(hasMp3InfoHeader(bytes)).toBe(false);
    expect(SAMPLE_RATE).toBe(22050);
  });

  it('appends back to back: durations add up', () => {
    const a = toneMp3(300);
    const b = toneMp3(1000);
    expect(mp3DurationMs(Buffer.concat([a, b]))).toBeCloseTo(mp3DurationMs(a) + mp3DurationMs(b), 6);
  });

  it.each([
    [112, 'mp3'],
    [113, 'mp3_low'],
    [161, 'mp3'],
    [162, 'mp3_high'],
    [377, 'mp3'],
    [1_000, 'mp3_low'],
  ] as const)('a long tone put together from a short one is the same bytes as its encoding (%i frames, %s)', (frames, format) => {
    const kbps = MP3_KBPS[format];
    const composed = toneMp3((frames - 0.5) * FRAME_MS, kbps);
    expect(parseMp3Frames(composed)).toHaveLength(frames);
    expect(Buffer.from(composed).equals(Buffer.from(encodeToneMp3(frames, kbps)))).toBe(true);
  });

  it('is cached by length', () => {
    expect(toneMp3(777)).toBe(toneMp3(777));
    expect(renderTone('abc', 'mp3', TONE).bytes).toBe(renderTone('xyz', 'mp3', TONE).bytes);
  });

  it('msPerChar and minMs change the length', () => {
    expect(renderTone('a'.repeat(100), 'mp3', { msPerChar: 10, minMs: 0 }).durationMs).toBeCloseTo(39 * FRAME_MS, 6);
    expect(renderTone('a', 'mp3', { msPerChar: 0, minMs: 2000 }).durationMs).toBeCloseTo(77 * FRAME_MS, 6);
  });

  it('pcm is a WAV of the tone', () => {
    const audio = renderTone('a'.repeat(500), 'pcm', TONE);
    expect(audio.contentType).toBe('audio/wav');
    const { pcm, sampleRate } = decodeWav(audio.bytes);
    expect(sampleRate).toBe(22050);
    expect(pcm.length).toBe(22050);
    expect(Math.max(...pcm)).toBeGreaterThan(9000);
  });
});

describe('mp3DurationMs / parseMp3Frames', () => {
  // MPEG-1 Layer III, 128 kbps, 44100 Hz, no padding: 417-byte frames of 1152 samples.
  const mpeg1Frame = (): Uint8Array => {
    const frame = new Uint8Array(417);
    frame.set([0xff, 0xfb, 0x90, 0xc4]);
    return frame;
  };

  it('reads MPEG-1 headers too', () => {
    const bytes = Buffer.concat([mpeg1Frame(), mpeg1Frame()]);
    expect(parseMp3Frames(bytes).map((f) => f.length)).toEqual([417, 417]);
    expect(mp3DurationMs(bytes)).toBeCloseTo((2 * 1152 * 1000) / 44100, 6);
  });

  it('skips an ID3v2 tag and leading garbage, ignores a truncated last frame', () => {
    const frames = toneMp3(300);
    const id3 = new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 5, 1, 2, 3, 4, 5]);
    const withTag = Buffer.concat([id3, frames]);
    expect(hasMp3InfoHeader(withTag)).toBe(true);
    expect(mp3DurationMs(withTag)).toBe(mp3DurationMs(frames));
    expect(mp3DurationMs(Buffer.concat([Buffer.from('garbage'), frames]))).toBe(mp3DurationMs(frames));
    expect(mp3DurationMs(frames.subarray(0, frames.length - 1))).toBeCloseTo(mp3DurationMs(frames) - FRAME_MS, 6);
    expect(mp3DurationMs(Buffer.from('{"error":"not audio"}'))).toBe(0);
  });

  it('spots a Xing/Info header frame', () => {
    const tone = toneMp3(300);
    const frame = tone.slice(0, parseMp3Frames(tone)[0]!.length);
    Buffer.from('Info').copy(frame, 4 + 9); // after the header and 9 bytes of MPEG-2 mono side info
    expect(hasMp3InfoHeader(frame)).toBe(true);
  });

  it('encodeMp3 output of a raw tone is appendable and has no info frame', () => {
    const bytes = encodeMp3(tonePcm(SAMPLE_RATE / 2), 32);
    expect(hasMp3InfoHeader(bytes)).toBe(false);
    expect(mp3DurationMs(bytes)).toBeGreaterThan(500);
  });
});

describe('money', () => {
  it.each([
    ['100.0000', 1_000_000n, '100.0000'],
    ['100', 1_000_000n, '100.0000'],
    ['0.5', 5_000n, '0.5000'],
    ['-0.0150', -150n, '-0.0150'],
    ['1500.1234', 15_001_234n, '1500.1234'],
  ])('%s ⇄ %i', (text, units, formatted) => {
    expect(parseRub(text)).toBe(units);
    expect(formatRub(units)).toBe(formatted);
  });

  it.each(['1.23456', 'abc', '1,5', '', '1e3'])('rejects %j', (text) => {
    expect(() => parseRub(text)).toThrow();
  });

  it.each([
    [1, 15_000_000n, 15n],
    [1, 500_000n, 1n], // 0.5 unit → up
    [1, 499_999n, 0n],
    [3, 500_000n, 2n], // 1.5 → 2
    [10_000, 15_000_000n, 150_000n],
  ])('costUnits(%i chars, %i) = %i', (chars, price, cost) => {
    expect(costUnits(chars, price)).toBe(cost);
  });
});

describe('speech (espeak-ng)', () => {
  it('picks the voice from the script', () => {
    expect(espeakVoice('Привет, John')).toBe('ru');
    expect(espeakVoice('Hello 123')).toBe('en-us');
  });

  it('synthesizes an English and a Russian sentence to MP3', { timeout: 30_000 }, async () => {
    for (const text of ['Hello, this is a short test.', 'Привет, это короткая проверка.']) {
      const audio = await renderSpeech(text, 'mp3');
      expect(audio.contentType).toBe('audio/mpeg');
      expect(hasMp3InfoHeader(audio.bytes)).toBe(false);
      expect(mp3DurationMs(audio.bytes)).toBeGreaterThan(300);
    }
  });
});
