/** Seconds of audio in whole MPEG Layer III frames (an ID3v2 tag in front is skipped; a cut last frame is not counted). */
const V1_KBPS = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const V2_KBPS = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

export function mp3Duration(bytes: Uint8Array): number {
  let i = 0;
  if (bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33 && bytes.length >= 10) {
    i = 10 + (((bytes[6]! & 0x7f) << 21) | ((bytes[7]! & 0x7f) << 14) | ((bytes[8]! & 0x7f) << 7) | (bytes[9]! & 0x7f));
  }
  let seconds = 0;
  while (i + 4 <= bytes.length) {
    const b1 = bytes[i + 1]!;
    const b2 = bytes[i + 2]!;
    const version = (b1 >> 3) & 3; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
    const layer = (b1 >> 1) & 3; // 1: Layer III
    const kbps = (version === 3 ? V1_KBPS : V2_KBPS)[(b2 >> 4) & 15] ?? 0;
    const rate = RATES[version]?.[(b2 >> 2) & 3] ?? 0;
    if (bytes[i] !== 0xff || (b1 & 0xe0) !== 0xe0 || layer !== 1 || !kbps || !rate) {
      i++; // not a frame start: resynchronize
      continue;
    }
    const samples = version === 3 ? 1152 : 576;
    const length = Math.floor(((samples / 8) * kbps * 1000) / rate) + ((b2 >> 1) & 1);
    if (i + length > bytes.length) break;
    seconds += samples / rate;
    i += length;
  }
  return seconds;
}
