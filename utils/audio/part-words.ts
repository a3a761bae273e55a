/**
 * Each part's word starts, from its own audio (issue 48): the player keeps the bytes of a part as they are
 * appended, and once the part is whole (and its text is known) decodes it and estimates when each word is
 * said (`word-timing.ts`). One part at a time, after playback's own work: decoding a 111-s part takes
 * Chromium 70–90 ms and Firefox 380–460 ms, off the page's thread (`bench/decode.ts`), and the estimate
 * 60–140 ms (Node). The bytes are let go once decoded.
 */
import pLimit from 'p-limit';
import { wordTimesOfAudio } from './word-timing';

/** Decoded audio: one channel. */
export interface DecodedAudio {
  samples: Float32Array;
  sampleRate: number;
}

export type Decode = (bytes: Uint8Array<ArrayBuffer>) => Promise<DecodedAudio>;

/** The browser's decoder: an offline context at 22,050 Hz (enough for loudness; less to resample). */
export const browserDecode: Decode = async (bytes) => {
  const context = new OfflineAudioContext(1, 1, 22_050);
  const decoded = await context.decodeAudioData(bytes.buffer);
  return { samples: decoded.getChannelData(0), sampleRate: decoded.sampleRate };
};

export class PartWords {
  private bytes = new Map<number, Uint8Array[]>();
  private generation = 0;
  private readonly oneAtATime = pLimit(1);

  constructor(
    /** Told each part's word starts (ms), in the order of the part's words (`wordsOf`). */
    private readonly onWords: (part: number, starts: number[]) => void,
    private readonly decode: Decode = browserDecode,
  ) {}

  /** Bytes of `part` as appended (kept by reference: nothing else writes them). A cut stream's rest is added as it comes: the decoder finds its frames again. */
  add(part: number, bytes: ArrayBuffer): void {
    const list = this.bytes.get(part) ?? [];
    list.push(new Uint8Array(bytes));
    this.bytes.set(part, list);
  }

  /** The part is whole: its words are timed when `text` is given, and its bytes let go either way. */
  end(part: number, text: string | undefined): Promise<void> {
    const list = this.bytes.get(part);
    this.bytes.delete(part);
    if (!list?.length || !text) return Promise.resolve();
    const generation = this.generation;
    return this.oneAtATime(async () => {
      if (generation !== this.generation) return;
      const whole = new Uint8Array(list.reduce((n, b) => n + b.byteLength, 0));
      let at = 0;
      for (const b of list) {
        whole.set(b, at);
        at += b.byteLength;
      }
      try {
        const { samples, sampleRate } = await this.decode(whole);
        if (generation !== this.generation) return;
        const timed = wordTimesOfAudio(text, samples, sampleRate);
        this.onWords(part, timed.map((w) => Math.round(w.startMs)));
      } catch {
        // Audio the browser cannot decode alone (a part cut short): its sentences are placed by their share of it.
      }
    });
  }

  /** A new reading or load: what was kept goes, and decodings under way are not told. */
  reset(): void {
    this.bytes.clear();
    this.generation++;
  }
}
