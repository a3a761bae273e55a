import { describe, expect, it } from 'vitest';
import { toneMp3 } from '../../tests/fake-service/audio';
import { mp3Duration, scanMp3Frames, seamlessStreams } from './mp3-frames';

describe('mp3Duration', () => {
  it.each([300, 1000, 2500, 10_000])('a %i ms tone measures within one frame', (ms) => {
    const bytes = toneMp3(ms);
    expect(Math.abs(mp3Duration(bytes) * 1000 - ms)).toBeLessThan(27);
  });

  it('counts only whole frames when a stream is cut, and skips an ID3 tag and junk', () => {
    const bytes = toneMp3(1000);
    expect(mp3Duration(bytes.subarray(0, Math.floor(bytes.length / 2)))).toBeLessThan(0.55);
    const id3 = new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 3, 1, 2, 3]);
    const withTag = new Uint8Array([...id3, ...bytes]);
    expect(mp3Duration(withTag)).toBeCloseTo(mp3Duration(bytes), 5);
    expect(mp3Duration(new TextEncoder().encode('{"error":{"code":"x"}}'))).toBe(0);
  });
});

describe('seamlessStreams: a part from a cut stream and the rest asked for again', () => {
  const id3 = new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 3, 1, 2, 3]);
  const tone = toneMp3(1000);
  const frames = scanMp3Frames(tone).frames;
  /** The tone's first `n` frames and `extra` bytes of the next. */
  const cutAt = (n: number, extra = 0) => tone.subarray(0, frames[n]!.offset + extra);
  const join = (streams: Uint8Array[]) => {
    const parts = seamlessStreams(streams);
    const out = new Uint8Array(parts.reduce((n, b) => n + b.length, 0));
    let at = 0;
    for (const b of parts) {
      out.set(b, at);
      at += b.length;
    }
    return out;
  };
  /** Every byte of the joined audio is in a whole frame: nothing broken at a seam. */
  const unbroken = (bytes: Uint8Array) => {
    const { frames, consumed } = scanMp3Frames(bytes, 0);
    return consumed === bytes.length && frames.reduce((n, f) => n + f.length, 0) === bytes.length;
  };
  it.each([
    ['cut mid-frame, rest whole', [cutAt(10, 17), tone], 10 + frames.length],
    ['cut at a frame boundary', [cutAt(10), tone], 10 + frames.length],
    ['cut twice, the second rest with an ID3 tag', [cutAt(3, 5), new Uint8Array([...id3, ...cutAt(4, 1)]), tone], 3 + 4 + frames.length],
  ] as const)('%s: whole frames only, every one kept', (_name, streams, count) => {
    const joined = join([...streams]);
    expect(unbroken(joined)).toBe(true);
    expect(scanMp3Frames(joined).frames).toHaveLength(count);
  });

  it('one stream is kept as it came, its ID3 tag too', () => {
    const tagged = new Uint8Array([...id3, ...tone]);
    expect(seamlessStreams([tagged])[0]).toEqual(tagged);
  });
});
