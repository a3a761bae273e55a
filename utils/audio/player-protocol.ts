/** Background → player (posted to the offscreen document, so audio bytes move without a copy). */
export type PlayerCommand =
  | {
      type: 'load';
      readingId: string;
      /** Numbers the loads of one reading: events of an earlier load (before a jump) are told apart. */
      load: number;
      startPart: number;
      seekInPart: number;
      positionBase: number;
      /** The audio appended for `startPart` begins this many seconds into the part (its rest, from a sentence). */
      partOffset?: number;
      rate: number;
      volume: number;
      /** For the system's media controls. */
      title?: string;
      site?: string;
    }
  | { type: 'playback'; readingId: string; rate: number; volume: number }
  | {
      type: 'append';
      readingId: string;
      part: number;
      bytes: ArrayBuffer;
      /** These bytes begin another request for the rest of this part (after a cut): what is left of a cut frame before them is dropped. */
      resumed?: true;
      /** What the part says, with its first bytes: its words are timed while it streams. */
      text?: string;
      /** The audio and `text` begin this many words into the part (its rest, from a sentence). */
      wordsBefore?: number;
    }
  /** All of this part's audio has been appended; `text`: what it says, for its word timings. */
  | { type: 'part-end'; readingId: string; part: number; text?: string }
  | { type: 'end-of-stream'; readingId: string }
  | { type: 'pause'; readingId: string }
  | { type: 'resume'; readingId: string }
  /**
   * "To the end of this chapter": playback stops where part `part` begins (null: it need not), even when the
   * player already holds that part's audio (given before the timer was set); it then says `stopped-before`.
   */
  | { type: 'stop-before'; readingId: string; part: number | null }
  | { type: 'stop'; readingId: string };

/**
 * `stop-before` asked when playback is already this far (s) into that part: the player does not go back, the
 * chapter playing is that part's (the background, seeing the same, takes that chapter as the one to finish).
 */
export const STOP_PAST_S = 0.5;

/** Player → background. */
export type PlayerEvent =
  | { type: 'playing'; readingId: string; load: number }
  | {
      type: 'progress';
      readingId: string;
      load: number;
      part: number;
      partTime: number;
      position: number;
      /** Parts up to this one are in the player whole (-1: none yet). */
      complete: number;
      /** Bytes, and seconds of audio, already held of the part after `complete`. */
      partialBytes: number;
      partialSeconds: number;
      /** The player's playback rate as applied. */
      rate: number;
    }
  /** A command named a reading this player does not hold (a new offscreen document after Chrome closed the old one). */
  | { type: 'lost'; readingId: string }
  | { type: 'paused'; readingId: string }
  /** The word being said changed: word `word` of part `part` (its index among `wordsOf(text)`). */
  | { type: 'word'; readingId: string; load: number; part: number; word: number }
  | { type: 'waiting'; readingId: string }
  /** Playback stopped where part `part` begins, as `stop-before` asked: paused there, the part's audio kept. */
  | { type: 'stopped-before'; readingId: string; load: number; part: number }
  | { type: 'ended'; readingId: string; load: number; position: number }
  | { type: 'error'; readingId: string; message: string }
  /** A media key, or the browser's or system's media controls. */
  | { type: 'media-action'; readingId: string; action: 'play' | 'pause' | 'stop' | 'nexttrack' | 'previoustrack' };

/** Where the background sends player commands: Chrome's offscreen document, or Firefox's player in the background page. */
export interface PlayerSink {
  post(cmd: PlayerCommand): Promise<void>;
  /** Gets the player ready ahead of its first command (Chrome: opens the offscreen document); best effort. */
  warm?(): void;
}
