import { EncodedAudioPacketSource, EncodedPacket, Mp4OutputFormat, NullTarget, Output } from 'mediabunny';
import { id3Length, scanMp3Frames } from './mp3-frames';

/** MediaSource type of the wrapped stream (Firefox plays MP3 through MediaSource only inside MP4). */
export const FMP4_MP3_MIME = 'audio/mp4; codecs="mp3"';

/**
 * Turns one streamed MP3 (one part) into fragmented MP4 as it arrives: each
 * `push` returns the boxes ready so far (the init segment comes with the first
 * fragment), `end` the rest. Fragments are short, so playback can begin on the
 * first bytes as it does with plain MP3 in Chrome.
 */
export class Mp3ToFmp4 {
  private pending: Uint8Array = new Uint8Array(0);
  private atStart = true;
  private out: Uint8Array[] = [];
  private output: Output | null = null;
  private source: EncodedAudioPacketSource | null = null;
  /** The muxer being started (by `warm`, or by the first frame). */
  private opening: Promise<void> | null = null;
  /** Whether the first frame, with the decoder's configuration, has been added. */
  private configured = false;
  private seconds = 0;

  constructor(private readonly fragmentSeconds = 0.1) {}

  /**
   * Starts the muxer before the first bytes come (the player's load, while the first part is asked
   * for): in Firefox that start was part of the wait between the first bytes and their append.
   */
  warm(): Promise<void> {
    this.opening ??= this.open();
    return this.opening;
  }

  async push(bytes: Uint8Array): Promise<Uint8Array | null> {
    let data = this.pending.length ? concat(this.pending, bytes) : bytes;
    if (this.atStart) {
      if (data.length < 10 && data[0] === 0x49) {
        this.pending = data.slice(); // too short to tell whether an ID3 tag begins here
        return null;
      }
      const tag = id3Length(data);
      if (tag > data.length) {
        this.pending = data.slice();
        return null;
      }
      data = data.subarray(tag);
      this.atStart = false;
    }
    const { frames, consumed } = scanMp3Frames(data);
    this.pending = data.slice(consumed);
    for (const frame of frames) {
      const duration = frame.samples / frame.sampleRate;
      const packet = new EncodedPacket(data.slice(frame.offset, frame.offset + frame.length), 'key', this.seconds, duration);
      if (!this.configured) {
        await this.warm();
        await this.source!.add(packet, {
          decoderConfig: { codec: 'mp3', sampleRate: frame.sampleRate, numberOfChannels: frame.channels },
        });
        this.configured = true;
      } else {
        await this.source!.add(packet);
      }
      this.seconds += duration;
    }
    return this.take();
  }

  /** The next bytes begin a new stream within this part: a cut frame held back is dropped, an ID3 tag is looked for. */
  restart(): void {
    this.pending = new Uint8Array(0);
    this.atStart = true;
  }

  /** Flushes the last fragment; null when the part held no audio at all. */
  async end(): Promise<Uint8Array | null> {
    if (this.opening) await this.opening;
    const output = this.output;
    this.output = null;
    if (output && !this.configured) {
      // Started ahead but given no audio: its file header alone is not for the player.
      await output.cancel();
      this.out = [];
      return null;
    }
    if (output) await output.finalize();
    return this.take();
  }

  private async open(): Promise<void> {
    const keep = (data: Uint8Array) => void this.out.push(data.slice());
    const output = new Output({
      format: new Mp4OutputFormat({
        fastStart: 'fragmented',
        minimumFragmentDuration: this.fragmentSeconds,
        onFtyp: keep,
        // The movie's creation and modification times (the second the part's wrapper started) are
        // written as 0: every part of one format then begins with the same init segment, which the
        // player appends ahead once (`initSegmentOf`); parts wrapped in different seconds differed.
        onMoov: (data) => keep(withoutTimes(data)),
        onMoof: keep,
        onMdat: keep,
      }),
      target: new NullTarget(),
    });
    this.source = new EncodedAudioPacketSource('mp3');
    output.addAudioTrack(this.source);
    await output.start();
    this.output = output;
  }

  private take(): Uint8Array | null {
    if (this.out.length === 0) return null;
    const all = this.out.length === 1 ? this.out[0]! : concat(...this.out);
    this.out = [];
    return all;
  }
}

/** Boxes inside `moov` that hold others on the way to the ones with times. */
const TIME_PATHS = new Set(['moov', 'trak', 'mdia']);
/** Full boxes that begin with a creation and a modification time (32 bits each in version 0, 64 in 1). */
const TIMED = new Set(['mvhd', 'tkhd', 'mdhd']);

/** A copy of the `moov` box `moov` with the creation and modification times of its movie, tracks and media set to 0. */
export function withoutTimes(moov: Uint8Array): Uint8Array {
  const out = moov.slice();
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const walk = (from: number, to: number) => {
    for (let at = from; at + 8 <= to; ) {
      const size = view.getUint32(at);
      if (size < 8 || at + size > to) return;
      const type = String.fromCharCode(out[at + 4]!, out[at + 5]!, out[at + 6]!, out[at + 7]!);
      if (TIME_PATHS.has(type)) walk(at + 8, at + size);
      else if (TIMED.has(type) && size >= 28) out.fill(0, at + 12, at + 12 + (out[at + 8] === 1 ? 16 : 8));
      at += size;
    }
  };
  walk(0, out.length);
  return out;
}

/**
 * The initialization segment (the boxes before the first `moof`: ftyp and moov) that a wrapped part's
 * first bytes begin with; null when they hold no fragment yet. The same stream format gives the same
 * bytes: parts of one voice have one init segment.
 */
export function initSegmentOf(bytes: Uint8Array): Uint8Array | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 0; at + 8 <= bytes.length; ) {
    const size = view.getUint32(at);
    if (bytes[at + 4] === 0x6d && bytes[at + 5] === 0x6f && bytes[at + 6] === 0x6f && bytes[at + 7] === 0x66) return at > 0 ? bytes.subarray(0, at) : null; // 'moof'
    if (size < 8) return null;
    at += size;
  }
  return null;
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}
