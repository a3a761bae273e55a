/** MP3 frames for unit tests: headers the frame scanner reads, a payload no decoder would (the tests' decoders are fakes). */

/** An MPEG-2 Layer III frame at 22,050 Hz, 48 kbps, mono: its bytes and its audio. */
export const FRAME_BYTES = 156;
export const FRAME_SECONDS = 576 / 22_050;
export const FRAME_MS = FRAME_SECONDS * 1000;

/** `frames` such frames, numbered from `from` in their payload (`firstFrameNumber` reads it back). */
export function mp3(frames: number, from = 0): Uint8Array {
  const out = new Uint8Array(frames * FRAME_BYTES);
  for (let f = 0; f < frames; f++) out.set([0xff, 0xf3, 0x60, 0xc0, (from + f) >> 8, (from + f) & 0xff], f * FRAME_BYTES);
  return out;
}

/** The number of the first frame in `bytes`, or null. */
export function firstFrameNumber(bytes: Uint8Array): number | null {
  for (let i = 0; i + 6 <= bytes.length; i++) if (bytes[i] === 0xff && bytes[i + 1] === 0xf3) return (bytes[i + 4]! << 8) | bytes[i + 5]!;
  return null;
}
