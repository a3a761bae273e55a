/**
 * Each part's word starts, from its own audio (issue 48): the player keeps the bytes of a part as they are
 * appended and, knowing the part's text, times its words (`word-timing.ts`):
 * - while the part still streams (the service sends audio about as fast as it is made, and playback begins on
 *   the first bytes), the audio so far is decoded now and then (every 2–8 s of audio come) and the words up
 *   to its last sure pause are timed (`moreWordTimes`, each estimate on the audio
 *   after the words already timed), so the mark follows the voice before the part is whole;
 * - once the part is whole, the rest of its words.
 * One estimate at a time, after playback's own work. Decoding happens off the page's thread (a long part's
 * takes a while, Firefox's several times Chromium's: `bench/decode.ts`); the estimate runs on it in slices
 * (`Slicer`), a step at most one alignment (still a while on a whole long part), given up at a reset. The
 * bytes are let go once the part is timed whole.
 */
import pLimit from 'p-limit';
import { type Decode, browserCodecs, frameDecoder } from './decode';
import { PartBytes } from './part-bytes';
import { endsSentence, wordsOf } from './word-measure';
import { moreWordTimes, type PartTimes, USUAL_MS_PER_WEIGHT } from './word-timing';
import type { Steps } from './steps';

/** `steps`, given up (null) once `live` says a new reading or load has come: the next one's estimate does not wait for it. */
function* untilReset<T>(steps: Steps<T>, live: () => boolean): Steps<T | null> {
  for (;;) {
    if (!live()) return null;
    const step = steps.next();
    if (step.done) return step.value;
    yield;
  }
}

/**
 * A sentence's first word is told this long before its estimated start (ms of audio), in the pause before it:
 * the band moves to the coming sentence while nothing is being said, not a few ms after its voice began (an
 * estimate of that start a little late left the band on the sentence before for a sample or two,
 * `bench/word-marks.ts`). Never earlier than halfway from the word before's start.
 */
export const SENTENCE_LEAD_MS = 80;

/** When each word is told: at its start (`starts`, ms), but a word after a sentence's end `SENTENCE_LEAD_MS` before. */
export function tellTimes(text: string, starts: readonly number[]): number[] {
  const words = wordsOf(text);
  return starts.map((ms, i) => {
    if (i === 0 || !words[i] || !endsSentence(text.slice(words[i - 1]!.end, words[i]!.start))) return ms;
    return Math.max(ms - SENTENCE_LEAD_MS, (starts[i - 1]! + ms) / 2);
  });
}

/** Runs an estimate's steps to the end; the browser's lets the page's other work in between. */
export type Slicer = <T>(steps: Steps<T>) => Promise<T>;

/** A slice's length (ms): the word clock's timers wait at most about this long. */
const SLICE_MS = 8;

/** Steps for `SLICE_MS`, then a timer's turn (a timer already due runs first), and on. */
export const browserSlicer: Slicer = async (steps) => {
  for (;;) {
    const until = performance.now() + SLICE_MS;
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
      if (performance.now() >= until) break;
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
};

/** The first estimate of a streaming part once this much of its audio has come (s)… */
const FIRST_SO_FAR_S = 2;
/**
 * …and the next when a quarter more has, at least 2 s and at most 8 s more: a 130-s part is decoded about 20
 * times while it streams, 8 whole parts' worth (of the decoder's own thread, not the page's).
 */
const SO_FAR_GROWTH = 1.25;
const SO_FAR_MIN_STEP_S = 2;
const SO_FAR_MAX_STEP_S = 8;
/** How long an estimate so far waits for more of its part's bytes, or its end (ms). */
const SO_FAR_SETTLE_MS = 250;
/** Frames decoded before the words not yet timed, and left out: the decoder's state (its bit reservoir, its filters) built up again. */
const LEAD_FRAMES = 8;
/** The most audio decoded at once (ms). */
const PIECE_MS = 20_000;
/** What a decoder may leave out in front (an encoder's header frame and delay), at most (ms). */
const MAX_TRIM_MS = 100;
/** Bytes a second of MP3 when its first frame does not tell (48 kbps). */
const DEFAULT_BYTES_PER_S = 6_000;

interface Part {
  bytes: PartBytes;
  /**
   * Where the decoder's samples begin in the part's frames (ms): the frames before the first it gives (an
   * encoder's header and delay, where the decoder leaves them out), measured on the first piece.
   */
  trimMs: number;
  text?: string;
  /** Its bytes a second of audio, from its first frame. */
  bytesPerS?: number;
  /** The next estimate so far once this many bytes have come. */
  nextAt: number;
  ended: boolean;
  /** An estimate so far is waiting its turn. */
  queued: boolean;
  known: PartTimes | null;
  /** The starts last told. */
  told: number[];
}

export class PartWords {
  private parts = new Map<number, Part>();
  private generation = 0;
  /** The pace last measured (a part's first estimate so far starts from it). */
  private pace = USUAL_MS_PER_WEIGHT;
  private readonly oneAtATime = pLimit(1);

  constructor(
    /** Told when to tell a part's words (ms; `tellTimes`), in the order of its words (`wordsOf`): the first few (the last of them for now), then more, then all. */
    private readonly onWords: (part: number, starts: number[]) => void,
    private readonly decode: Decode = frameDecoder(import.meta.env.FIREFOX ? undefined : browserCodecs()),
    private readonly slice: Slicer = browserSlicer,
    /** Waits before an estimate so far: the part may end meanwhile. */
    private readonly settle: () => Promise<void> = () => new Promise((resolve) => setTimeout(resolve, SO_FAR_SETTLE_MS)),
  ) {}

  private partOf(part: number): Part {
    let p = this.parts.get(part);
    if (!p) this.parts.set(part, (p = { bytes: new PartBytes(), trimMs: 0, nextAt: Infinity, ended: false, queued: false, known: null, told: [] }));
    return p;
  }

  /** What the part says, known before its audio is whole: its words are timed as it streams. */
  text(part: number, text: string): void {
    this.partOf(part).text = text;
  }

  /** Bytes of `part` as appended (kept by reference: nothing else writes them). A cut stream's rest is added as it comes: the decoder finds its frames again. */
  add(part: number, bytes: ArrayBuffer): void {
    const p = this.partOf(part);
    p.bytes.add(new Uint8Array(bytes));
    if (p.bytesPerS === undefined) {
      p.bytesPerS = p.bytes.bytesPerS ?? DEFAULT_BYTES_PER_S;
      p.nextAt = FIRST_SO_FAR_S * p.bytesPerS;
    }
    if (p.bytes.size >= p.nextAt && p.text && !p.ended && !p.queued && this.nearest() === part) this.soFar(part, p);
  }

  /** The part is whole: its words are timed (the rest of them) when its text is known, and its bytes let go either way. */
  end(part: number, text: string | undefined): Promise<void> {
    const p = this.partOf(part);
    p.ended = true;
    p.text = text ?? p.text;
    if (!p.bytes.size || !p.text) {
      this.parts.delete(part);
      return Promise.resolve();
    }
    const generation = this.generation;
    return this.oneAtATime(async () => {
      if (generation !== this.generation) return;
      this.parts.delete(part);
      await this.estimate(part, p, true, generation);
    });
  }

  /** A new reading or load: what was kept goes, and estimates under way are not told. */
  reset(): void {
    this.parts.clear();
    this.generation++;
  }

  /** The first part still streaming: the one playback reaches first (the only one timed so far). */
  private nearest(): number {
    let nearest = Infinity;
    for (const [k, p] of this.parts) if (!p.ended && k < nearest) nearest = k;
    return nearest;
  }

  private soFar(part: number, p: Part): void {
    p.queued = true;
    const generation = this.generation;
    // Bytes from the cache, or a service faster than playback, come all at once: such a part ends before an
    // estimate so far is worth making (on a whole 130-s part it tries 21 paces, a long estimate).
    void this.settle().then(() =>
      this.oneAtATime(async () => {
        p.queued = false;
        if (generation !== this.generation || p.ended) return;
        const seconds = p.bytes.size / p.bytesPerS!;
        p.nextAt = Math.min(Math.max(seconds * SO_FAR_GROWTH, seconds + SO_FAR_MIN_STEP_S), seconds + SO_FAR_MAX_STEP_S) * p.bytesPerS!;
        await this.estimate(part, p, false, generation);
      }),
    );
  }

  /**
   * Times more of the part's words, a piece of its audio at a time (`piece`): so far, one piece of its
   * whole frames; whole, pieces until its end — where no pause was sure in a whole piece, the rest at once.
   */
  private async estimate(part: number, p: Part, whole: boolean, generation: number): Promise<void> {
    for (let capped = true; ; ) {
      const step = await this.piece(part, p, whole, capped, generation);
      if (!step || step.last || !whole) return;
      if (!step.moved) capped = false;
    }
  }

  /**
   * Decodes a piece of the part, from a few frames before the words not yet timed (all of it when no MP3
   * frame is found), at most `PIECE_MS` of audio when `capped` (a long part's whole samples at once were
   * most of the player's memory), and times more of its words; tells them if there are more. The bytes
   * before the next piece are let go. Null: given up (a reset, audio the browser cannot decode).
   */
  private async piece(part: number, p: Part, whole: boolean, capped: boolean, generation: number): Promise<{ last: boolean; moved: boolean } | null> {
    const { bytes } = p;
    const fromMs = p.known?.resumeMs ?? 0;
    const first = bytes.frames === 0 ? 0 : Math.max(0, bytes.frameAt(fromMs + p.trimMs) - LEAD_FRAMES);
    const start = first === 0 ? { offset: 0, ms: 0 } : bytes.frame(first);
    const cut = capped && bytes.frames > 0 ? bytes.frameAt(start.ms + PIECE_MS) : null;
    // A piece that ends before the audio does: its last frame is where the next piece's words are.
    const short = cut !== null && cut > first && cut < bytes.frames - 1;
    const last = whole && !short;
    // Not MP3 (a WAV): all of it, as it is.
    const end = short ? bytes.frame(cut).offset : last || bytes.frames === 0 ? bytes.size : bytes.wholeEnd;
    const endMs = short ? bytes.frame(cut).ms : bytes.wholeMs;
    let known: PartTimes | null;
    try {
      const { samples, sampleRate } = await this.decode(bytes.bytes(start.offset, end));
      if (generation !== this.generation) return null;
      // A piece from the part's start, whole frames only, tells what the decoder leaves out in front (its frames' time against its samples').
      if (first === 0 && !last && bytes.frames > 0) p.trimMs = Math.min(MAX_TRIM_MS, Math.max(0, endMs - (samples.length * 1000) / sampleRate));
      const offsetMs = first === 0 ? 0 : start.ms - p.trimMs;
      known = await this.slice(untilReset(moreWordTimes(p.text!, samples, sampleRate, p.known, last, this.pace, offsetMs), () => generation === this.generation));
    } catch {
      // Audio the browser cannot decode alone (a part cut short): its sentences are placed by their share of it.
      return null;
    }
    if (generation !== this.generation || !known) return null;
    const moved = known.resumeMs > fromMs;
    p.known = known;
    if (known.weight > 0) this.pace = known.soundMs / known.weight;
    // The words timed surely, and those after for now (so far).
    const told = [...known.starts, ...known.ahead];
    if (told.length > 0 && told.join() !== p.told.join()) this.onWords(part, tellTimes(p.text!, (p.told = told)));
    if (last || bytes.frames === 0) return { last: true, moved };
    const next = Math.max(0, bytes.frameAt(known.resumeMs + p.trimMs) - LEAD_FRAMES);
    if (next > 0) bytes.dropBefore(bytes.frame(next).offset);
    return { last: false, moved };
  }
}
