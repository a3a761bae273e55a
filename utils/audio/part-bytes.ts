/**
 * A part's MP3 bytes as they stream in, and where each whole frame of them starts and when (ms of audio):
 * the word estimate decodes a piece at a time (from a few frames before the words not yet timed), not the
 * whole part so far each time, and the bytes before the next piece are let go. `bench/decode-pieces.ts`:
 * decoded from any frame, both browsers' samples after the first tenth of a second are the whole part's,
 * at the place the frames before give.
 */
import { id3Length, scanMp3Frames } from './mp3-frames';

export class PartBytes {
  private chunks: Uint8Array[] = [];
  /** Where the first chunk kept begins, in the part's bytes. */
  private base = 0;
  /** All the part's bytes so far (those let go included). */
  size = 0;
  /** Where scanning goes on: the end of the last whole frame (or of the ID3 tag, or of what is no frame). */
  private scanned = -1;
  /** Each whole frame's first byte, and its start in ms of audio. */
  private readonly offsets: number[] = [];
  private readonly startsMs: number[] = [];
  private endMs = 0;
  /** Bytes a second of audio, from the first whole frame (undefined before it). */
  bytesPerS: number | undefined;

  add(chunk: Uint8Array): void {
    this.chunks.push(chunk);
    this.size += chunk.byteLength;
    if (this.scanned < 0) {
      // An ID3 tag in front is told by its first 10 bytes.
      if (this.size < 10) return;
      this.scanned = id3Length(this.bytes(0, 10));
    }
    if (this.scanned >= this.size) return;
    const rest = this.bytes(this.scanned, this.size);
    const { frames, consumed } = scanMp3Frames(rest);
    const head = frames[0];
    if (head && this.bytesPerS === undefined) this.bytesPerS = (head.length * head.sampleRate) / head.samples;
    for (const f of frames) {
      this.offsets.push(this.scanned + f.offset);
      this.startsMs.push(this.endMs);
      this.endMs += (f.samples * 1000) / f.sampleRate;
    }
    // Bytes skipped as no frame are not looked at again; an unfinished frame is, once more has come.
    this.scanned += consumed;
  }

  /** Whole frames found so far. */
  get frames(): number {
    return this.offsets.length;
  }

  /** Where the whole frames end, in the part's bytes (0 before the first). */
  get wholeEnd(): number {
    return this.frames === 0 ? 0 : this.scanned;
  }

  /** The audio in whole frames (ms). */
  get wholeMs(): number {
    return this.endMs;
  }

  /** The frame being heard at `ms` (the last one when past the end; 0 before the first). */
  frameAt(ms: number): number {
    let lo = 0;
    let hi = this.startsMs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.startsMs[mid]! <= ms) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Frame `i`'s first byte and its start (ms). */
  frame(i: number): { offset: number; ms: number } {
    return { offset: this.offsets[i] ?? 0, ms: this.startsMs[i] ?? 0 };
  }

  /** The part's bytes `from` to `to` (copied), all of them still kept. */
  bytes(from: number, to: number): Uint8Array<ArrayBuffer> {
    if (from < this.base) throw new Error(`bytes from ${from} were let go (kept from ${this.base})`);
    const out = new Uint8Array(Math.max(0, to - from));
    let at = this.base;
    for (const c of this.chunks) {
      const end = at + c.byteLength;
      if (end > from && at < to) out.set(c.subarray(Math.max(0, from - at), Math.min(c.byteLength, to - at)), Math.max(0, at - from));
      at = end;
      if (at >= to) break;
    }
    return out;
  }

  /** Lets go of the chunks wholly before byte `offset`. */
  dropBefore(offset: number): void {
    while (this.chunks.length > 1 && this.base + this.chunks[0]!.byteLength <= offset) this.base += this.chunks.shift()!.byteLength;
  }
}
