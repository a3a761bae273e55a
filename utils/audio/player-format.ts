/**
 * What the player's SourceBuffer is fed with: its MIME type, and the wrapper a stream goes through first
 * where the browser does not take MP3 as it comes. Apart from the player (mse-player.ts) because the
 * sink that picks a format for the browser (page-sink.ts) needs these, not the player's workings.
 */
/** Turns one part's streamed bytes into what the SourceBuffer takes (Firefox: MP3 inside fragmented MP4). */
export interface StreamWrapper {
  push(bytes: Uint8Array): Promise<Uint8Array | null>;
  /** The bytes pushed next begin a new stream (the rest of a cut part): drop any cut frame held back. */
  restart(): void;
  end(): Promise<Uint8Array | null>;
  /** Gets ready for its first bytes before they come. */
  warm?(): Promise<void>;
}

/** The SourceBuffer's type, and the wrapper the stream needs first, if any. */
export interface PlayerFormat {
  mime: string;
  wrap?: () => StreamWrapper;
  /**
   * Seconds buffered before playback starts, unless the part or the stream ends first. Firefox's decoder
   * behind a wrapped stream ran dry just after it started on the first small piece (a stall at the start of
   * the bench's seams reading); Chromium's plain MP3 starts on any audio.
   */
  startSeconds?: number;
}

/** Chrome's MediaSource takes the MP3 stream as it comes. */
export const PLAIN_MP3: PlayerFormat = { mime: 'audio/mpeg' };
