/**
 * Which word is being said, told as it changes (issue 48). The player knows each part's word starts (ms
 * from the part's audio start, `part-words.ts`) and where playback is; the clock tells the word at once on
 * every sync (a time update, playing, a seek, a rate change) and sets one timer for the next change — the
 * next word's start at the current rate, or the next part's start. Paused or waiting, no timer runs and the
 * last word told stays. Timers are passed in, so the clock is tested without a browser.
 */

import type { Decode } from './decode';
import { PartWords } from './part-words';
import { lastStarted } from './word-measure';

/** Where playback is, as the player sees it; null when it is not moving (paused, waiting, not started). */
export interface PlayPoint {
  part: number;
  /** ms of the part's audio played. */
  ms: number;
  /** The playback rate (1 = as recorded). */
  rate: number;
  /** ms of audio until the next part begins, when it is already buffered; null when unknown. */
  partLeftMs: number | null;
}

export interface ClockTimers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
  /** ms, monotonic. */
  now(): number;
}

/**
 * Each word is told this long before it is said: its mark takes about that long to reach the page (the
 * background passes it on) and be painted (`bench/word-marks.ts`), so it appears as the word begins, not after.
 */
export const LEAD_MS = 10;

/**
 * Words are told at most this often (ms of the listener's time): a word that comes sooner after the last told
 * waits for it, and one shorter still is passed over. An eye cannot follow faster, and each word told is two
 * messages (to the background, then to the page): a tone of a few ms a word (the tests' local service) must
 * not flood them. Counted from the last word told, not from any look at the clock: a look that tells nothing
 * (the ms before a part's first word) does not hold the next word back. A word of real speech at 2× lasts 40 ms
 * or more.
 */
export const MIN_TELL_MS = 30;

const browserTimers: ClockTimers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  now: () => performance.now(),
};

/** The index of the last start at or before `ms` (−1 before the first). */
export function wordIndexAt(starts: readonly number[], ms: number): number {
  return lastStarted(starts.length, (i) => starts[i]!, ms);
}

/**
 * When the clock tells word i of a part: at its start, but the first word as the part begins. The silence before
 * a part's first word belongs to it (nothing else is being said, and the band waits there for the voice), and an
 * estimate of that first start a few tens of ms late left the band on the last part's sentence as the voice
 * began this one's (`bench/word-marks.ts`: samples on another sentence in every run, all there).
 */
function toldFrom(starts: readonly number[], i: number): number {
  return i === 0 ? Math.min(0, starts[0]!) : starts[i]!;
}

export class WordClock {
  private readonly starts = new Map<number, readonly number[]>();
  private timer: unknown = null;
  private told: { part: number; word: number } | null = null;
  /** When the last word was told (`timers.now()`). */
  private toldAt = -Infinity;
  /** The part playing at the last look. */
  private part = -1;

  constructor(
    /** Where playback is now. */
    private readonly where: () => PlayPoint | null,
    /** Told each time the word being said changes. */
    private readonly onWord: (part: number, word: number) => void,
    private readonly timers: ClockTimers = browserTimers,
    private readonly leadMs = LEAD_MS,
    /**
     * Told when a part whose words are not known yet begins (at the part's start, to the ms: the clock's timer
     * is set for it), so the player can say where it is then and not at its next time update (Chromium's come
     * every 250 ms): the sentence band, placed by share for such a part, moves with the voice.
     */
    private readonly onUntimedPart: (part: number) => void = () => undefined,
  ) {}

  /** A part's word starts are known: the clock follows them from now on (at once if it is playing). */
  setWords(part: number, starts: readonly number[]): void {
    this.starts.set(part, starts);
    this.sync();
  }

  has(part: number): boolean {
    return this.starts.has(part);
  }

  /** A new reading: nothing known, nothing told. */
  reset(): void {
    this.stopTimer();
    this.starts.clear();
    this.told = null;
    this.part = -1;
  }

  /** A new load of the same reading (a jump) or a seek: the word is told again even if it is the same or one before. */
  retell(): void {
    this.told = null;
  }

  /** Tells the word being said if it changed, and sets the timer for the next change. */
  sync(): void {
    this.stopTimer();
    const where = this.where();
    if (!where) return;
    // Audio ms at which the mark must be shown, counted ahead by its way to the page (in audio time at this rate).
    const at = { ...where, ms: where.ms + this.leadMs * where.rate, partLeftMs: where.partLeftMs === null ? null : where.partLeftMs - this.leadMs * where.rate };
    const starts = this.starts.get(at.part);
    if (at.part !== this.part) {
      this.part = at.part;
      if (!starts) this.onUntimedPart(at.part);
    }
    let nextMs = Infinity;
    if (starts) {
      const word = lastStarted(starts.length, (i) => toldFrom(starts, i), at.ms);
      if (word >= 0 && !this.behindTold(at.part, word)) {
        this.told = { part: at.part, word };
        this.toldAt = this.timers.now();
        this.onWord(at.part, word);
      }
      if (word + 1 < starts.length) nextMs = toldFrom(starts, word + 1) - at.ms;
    }
    if (at.partLeftMs !== null) nextMs = Math.min(nextMs, at.partLeftMs);
    if (!Number.isFinite(nextMs)) return;
    // A millisecond past the change: a timer that fires on the dot would find the word before it still said.
    this.timer = this.timers.set(() => {
      this.timer = null;
      this.sync();
    }, Math.max(nextMs / Math.max(0.1, at.rate) + 1, this.toldAt + MIN_TELL_MS - this.timers.now()));
  }

  stop(): void {
    this.stopTimer();
  }

  /**
   * Whether word `word` of part `part` is the word told or one before it. Between jumps and seeks the mark only
   * goes forward: a look that finds playback a little behind the last (Firefox's position carried forward, then
   * set back by up to 100 ms when the audio stalled or its clock ran slow, `fine-position.ts`) or an estimate that
   * moved a word's start later (a part's words told for now while it streams, then timed on more of its audio)
   * holds the word told until playback reaches the next — the band never steps back a sentence and forward again.
   */
  private behindTold(part: number, word: number): boolean {
    const told = this.told;
    return !!told && (part < told.part || (part === told.part && word <= told.word));
  }

  private stopTimer(): void {
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
  }
}

/**
 * The player's words: each part's words timed from its audio as it comes (`PartWords`), told as they are said
 * (`WordClock`). A new reading forgets every part's words; a jump within one keeps them and tells the word again.
 */
export class PlayerWords {
  private reading = '';
  private readonly clock: WordClock;
  private readonly parts: PartWords;
  /** Parts whose audio begins at a later sentence (their rest): the words before it, added to each word told. */
  private readonly before = new Map<number, number>();

  constructor(where: () => PlayPoint | null, onWord: (part: number, word: number) => void, decode?: Decode, onUntimedPart?: (part: number) => void) {
    this.clock = new WordClock(where, (part, word) => onWord(part, word + (this.before.get(part) ?? 0)), browserTimers, LEAD_MS, onUntimedPart);
    this.parts = new PartWords((part, starts) => this.clock.setWords(part, starts), decode);
  }

  /**
   * Bytes of a part as appended; `text`, what it says, when it comes with them (its words are timed as it streams);
   * `wordsBefore`: the audio and `text` begin that many words into the part.
   */
  add(part: number, bytes: ArrayBuffer, text?: string, wordsBefore?: number): void {
    if (wordsBefore !== undefined) this.before.set(part, wordsBefore);
    if (text) this.parts.text(part, text);
    this.parts.add(part, bytes);
  }

  /** The part is whole: its words are timed from its audio when its text came with it. */
  end(part: number, text: string | undefined): void {
    void this.parts.end(part, text);
  }

  /** A load of `reading` (a new reading, or a jump in this one). */
  load(reading: string): void {
    if (reading !== this.reading) this.clock.reset();
    else this.clock.retell();
    this.reading = reading;
  }

  /** Playback moved, started or changed speed: the word is told, the next change timed. */
  sync(): void {
    this.clock.sync();
  }

  /** Playback was moved (a seek): the word there is told, even one before the last told. */
  seeked(): void {
    this.clock.retell();
    this.clock.sync();
  }

  /** Playback stopped moving (paused, waiting): the word told stays. */
  stop(): void {
    this.clock.stop();
  }

  /** The player let go of its audio: what was kept goes, decodings under way are not told. */
  reset(): void {
    this.clock.stop();
    this.parts.reset();
    this.before.clear();
  }
}
