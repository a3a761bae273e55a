/** MPEG audio frame-header parsing: enough to count frames and measure duration. */

export interface Mp3Frame {
  offset: number;
  length: number;
  /** 1 = MPEG-1, 2 = MPEG-2, 2.5 = MPEG-2.5 */
  version: 1 | 2 | 2.5;
  layer: 1 | 2 | 3;
  bitrateKbps: number;
  sampleRate: number;
  samples: number;
}

const BITRATES_KBPS = {
  v1l1: [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  v1l2: [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  v1l3: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  v2l1: [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  v2l23: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
} as const;

const SAMPLE_RATES: Record<1 | 2 | 2.5, readonly number[]> = {
  1: [44100, 48000, 32000],
  2: [22050, 24000, 16000],
  2.5: [11025, 12000, 8000],
};

function bitrateTable(version: 1 | 2 | 2.5, layer: 1 | 2 | 3): readonly number[] {
  if (version === 1) return layer === 1 ? BITRATES_KBPS.v1l1 : layer === 2 ? BITRATES_KBPS.v1l2 : BITRATES_KBPS.v1l3;
  return layer === 1 ? BITRATES_KBPS.v2l1 : BITRATES_KBPS.v2l23;
}

function samplesPerFrame(version: 1 | 2 | 2.5, layer: 1 | 2 | 3): number {
  if (layer === 1) return 384;
  if (layer === 2 || version === 1) return 1152;
  return 576;
}

/** Parses the 4-byte header at `offset`; null when it is not a usable frame header. */
export function parseFrameHeader(bytes: Uint8Array, offset: number): Mp3Frame | null {
  if (offset + 4 > bytes.length) return null;
  const b1 = bytes[offset + 1] ?? 0;
  const b2 = bytes[offset + 2] ?? 0;
  if (bytes[offset] !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const versionBits = (b1 >> 3) & 3;
  const layerBits = (b1 >> 1) & 3;
  if (versionBits === 1 || layerBits === 0) return null;
  const version = versionBits === 3 ? 1 : versionBits === 2 ? 2 : 2.5;
  const layer = (4 - layerBits) as 1 | 2 | 3;
  const bitrateKbps = bitrateTable(version, layer)[b2 >> 4] ?? 0;
  const sampleRate = SAMPLE_RATES[version][(b2 >> 2) & 3];
  // Free-format (0) and "bad" (15) bitrates, and the reserved rate index, are not supported.
  if (!bitrateKbps || !sampleRate) return null;
  const padding = (b2 >> 1) & 1;
  const samples = samplesPerFrame(version, layer);
  const length =
    layer === 1
      ? (Math.floor((12 * bitrateKbps * 1000) / sampleRate) + padding) * 4
      : Math.floor(((samples / 8) * bitrateKbps * 1000) / sampleRate) + padding;
  return { offset, length, version, layer, bitrateKbps, sampleRate, samples };
}

function id3v2Size(bytes: Uint8Array): number {
  if (bytes.length < 10 || bytes[0] !== 0x49 || bytes[1] !== 0x44 || bytes[2] !== 0x33) return 0;
  const size = ((bytes[6] ?? 0) << 21) | ((bytes[7] ?? 0) << 14) | ((bytes[8] ?? 0) << 7) | (bytes[9] ?? 0);
  return 10 + size;
}

/**
 * All complete frames, in order. Skips a leading ID3v2 tag and resynchronises over
 * garbage byte by byte; a truncated last frame is not counted.
 */
export function parseMp3Frames(bytes: Uint8Array): Mp3Frame[] {
  const frames: Mp3Frame[] = [];
  let offset = id3v2Size(bytes);
  while (offset + 4 <= bytes.length) {
    const frame = parseFrameHeader(bytes, offset);
    if (!frame || frame.length < 4) {
      offset += 1;
      continue;
    }
    if (offset + frame.length > bytes.length) break;
    frames.push(frame);
    offset += frame.length;
  }
  return frames;
}

/** Duration in milliseconds of the complete MPEG audio frames in `bytes`. */
export function mp3DurationMs(bytes: Uint8Array): number {
  return parseMp3Frames(bytes).reduce((ms, f) => ms + (f.samples * 1000) / f.sampleRate, 0);
}

function isMono(bytes: Uint8Array, frame: Mp3Frame): boolean {
  return ((bytes[frame.offset + 3] ?? 0) >> 6) === 3;
}

function asciiAt(bytes: Uint8Array, offset: number, length: number): string {
  return Buffer.from(bytes.subarray(offset, offset + length)).toString('latin1');
}

/**
 * True when the data starts with an ID3v2 tag or its first frame is a Xing/Info/VBRI
 * header frame (which carries no audio and must not sit between appended segments).
 */
export function hasMp3InfoHeader(bytes: Uint8Array): boolean {
  if (id3v2Size(bytes) > 0) return true;
  const first = parseMp3Frames(bytes)[0];
  if (!first) return false;
  const sideInfo = first.version === 1 ? (isMono(bytes, first) ? 17 : 32) : isMono(bytes, first) ? 9 : 17;
  const crc = ((bytes[first.offset + 1] ?? 0) & 1) === 0 ? 2 : 0;
  const xing = asciiAt(bytes, first.offset + 4 + crc + sideInfo, 4);
  return xing === 'Xing' || xing === 'Info' || asciiAt(bytes, first.offset + 36, 4) === 'VBRI';
}
