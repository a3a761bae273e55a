import { describe, expect, it } from 'vitest';
import { PartBytes } from './part-bytes';
import { FRAME_MS, mp3 } from '../../tests/unit/mp3-frames';

/** `frames` frames, after `before` bytes, cut into chunks of `size`. */
function chunked(frames: number, size: number, before: Uint8Array = new Uint8Array()): Uint8Array[] {
  const all = new Uint8Array(before.length + frames * 156);
  all.set(before);
  all.set(mp3(frames), before.length);
  const out: Uint8Array[] = [];
  for (let at = 0; at < all.length; at += size) out.push(all.subarray(at, at + size));
  return out;
}

describe('PartBytes: a part\'s bytes and its whole frames, as they come', () => {
  it.each<[string, number, Uint8Array]>([
    ['chunks cut inside frames', 100, new Uint8Array()],
    ['one byte at a time', 1, new Uint8Array()],
    ['an ID3 tag in front', 64, Uint8Array.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 6, 1, 2, 3, 4, 5, 6])],
  ])('%s: every whole frame, where and when it starts', (_name, size, before) => {
    const bytes = new PartBytes();
    const chunks = chunked(10, size, before);
    const all = chunks.flatMap((c) => [...c]);
    for (const c of chunks) bytes.add(c);
    expect(bytes.frames).toBe(10);
    expect(bytes.frame(3)).toEqual({ offset: before.length + 3 * 156, ms: 3 * FRAME_MS });
    expect(bytes.wholeEnd).toBe(all.length);
    expect(bytes.wholeMs).toBeCloseTo(10 * FRAME_MS);
    expect(bytes.bytesPerS).toBeCloseTo((156 * 22_050) / 576);
    expect([...bytes.bytes(before.length + 156, before.length + 160)]).toEqual([0xff, 0xf3, 0x60, 0xc0]);
  });

  it('a frame not yet whole is not counted, and is once its last byte comes', () => {
    const bytes = new PartBytes();
    const [all] = chunked(2, 312);
    bytes.add(all!.subarray(0, 311));
    expect([bytes.frames, bytes.wholeEnd]).toEqual([1, 156]);
    bytes.add(all!.subarray(311));
    expect([bytes.frames, bytes.wholeEnd]).toEqual([2, 312]);
  });

  it.each([
    [0, 0],
    [FRAME_MS - 0.01, 0],
    [FRAME_MS, 1],
    [4.5 * FRAME_MS, 4],
    [1e6, 9],
  ])('at %f ms, frame %i is heard', (ms, frame) => {
    const bytes = new PartBytes();
    for (const c of chunked(10, 500)) bytes.add(c);
    expect(bytes.frameAt(ms)).toBe(frame);
  });

  it('bytes let go are asked for no more; those after still are', () => {
    const bytes = new PartBytes();
    for (const c of chunked(10, 100)) bytes.add(c);
    bytes.dropBefore(5 * 156);
    expect(() => bytes.bytes(0, 10)).toThrow(/let go/);
    expect([...bytes.bytes(5 * 156, 5 * 156 + 6)]).toEqual([0xff, 0xf3, 0x60, 0xc0, 0, 5]);
    expect(bytes.size).toBe(1560);
  });

  it('no MP3 at all: no frames, every byte kept', () => {
    const bytes = new PartBytes();
    bytes.add(new Uint8Array([1, 2, 3]));
    bytes.add(new Uint8Array(20));
    expect([bytes.frames, bytes.wholeEnd, bytes.size, bytes.bytesPerS]).toEqual([0, 0, 23, undefined]);
    expect([...bytes.bytes(0, 4)]).toEqual([1, 2, 3, 0]);
  });
});
