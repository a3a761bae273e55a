import { describe, expect, it } from 'vitest';
import { toneMp3 } from '../../tests/fake-service/audio';
import { mp3Duration } from './mp3-frames';

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
