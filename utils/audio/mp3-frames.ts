/** MPEG audio Layer III frame headers: enough to cut a stream into frames and time it. */
const V1_KBPS = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const V2_KBPS = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

export interface Mp3Frame {
  offset: number;
  length: number;
  sampleRate: number;
  /** Samples per channel: 1152 (MPEG-1) or 576 (MPEG-2 and 2.5). */
  samples: number;
  channels: 1 | 2;
}

/** The frame whose header starts at `i`, or null when no valid header is there. */
function headerAt(bytes: Uint8Array, i: number): Omit<Mp3Frame, 'offset'> | null {
  const b1 = bytes[i + 1]!;
  const b2 = bytes[i + 2]!;
  const version = (b1 >> 3) & 3; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
  const layer = (b1 >> 1) & 3; // 1: Layer III
  const kbps = (version === 3 ? V1_KBPS : V2_KBPS)[(b2 >> 4) & 15] ?? 0;
  const sampleRate = RATES[version]?.[(b2 >> 2) & 3] ?? 0;
  if (bytes[i] !== 0xff || (b1 & 0xe0) !== 0xe0 || layer !== 1 || !kbps || !sampleRate) return null;
  const samples = version === 3 ? 1152 : 576;
  const length = Math.floor(((samples / 8) * kbps * 1000) / sampleRate) + ((b2 >> 1) & 1);
  const channels = (bytes[i + 3]! >> 6) === 3 ? 1 : 2;
  return { length, sampleRate, samples, channels };
}

/** Bytes an ID3v2 tag takes at the start of `bytes` (0 when there is none; the whole 10-byte header must be there). */
export function id3Length(bytes: Uint8Array): number {
  if (bytes.length < 10 || bytes[0] !== 0x49 || bytes[1] !== 0x44 || bytes[2] !== 0x33) return 0;
  return 10 + (((bytes[6]! & 0x7f) << 21) | ((bytes[7]! & 0x7f) << 14) | ((bytes[8]! & 0x7f) << 7) | (bytes[9]! & 0x7f));
}

/**
 * The whole frames in `bytes` from `from`, skipping what is not a frame; `consumed`
 * is where an unfinished frame (or too few bytes to tell) begins.
 */
export function scanMp3Frames(bytes: Uint8Array, from = 0): { frames: Mp3Frame[]; consumed: number } {
  const frames: Mp3Frame[] = [];
  let i = from;
  while (i + 4 <= bytes.length) {
    const header = headerAt(bytes, i);
    if (!header) {
      i++; // not a frame start: resynchronize
      continue;
    }
    if (i + header.length > bytes.length) break;
    frames.push({ offset: i, ...header });
    i += header.length;
  }
  return { frames, consumed: Math.min(i, bytes.length) };
}

/** Seconds of audio in whole frames (an ID3v2 tag in front is skipped; a cut last frame is not counted). */
export function mp3Duration(bytes: Uint8Array): number {
  let seconds = 0;
  for (const f of scanMp3Frames(bytes, id3Length(bytes)).frames) seconds += f.samples / f.sampleRate;
  return seconds;
}

/**
 * One part's audio from the streams that brought it (a stream cut mid-frame, then the rest asked for
 * from the cut sentence), ready to be joined: each stream keeps its whole frames only (a cut frame at
 * its end is dropped, and a later stream's ID3 tag), so the joined audio has no broken frame at a seam.
 * The start of the cut sentence is heard twice, as it was when the part streamed.
 */
export function seamlessStreams(streams: readonly Uint8Array[]): Uint8Array[] {
  return streams.map((bytes, i) => {
    const tag = id3Length(bytes);
    const end = i === streams.length - 1 ? bytes.length : scanMp3Frames(bytes, tag).consumed;
    return bytes.subarray(i === 0 ? 0 : tag, end);
  });
}
