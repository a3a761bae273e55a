/**
 * What the background shows the extension's pages and the mini-player (types only): the reading's state
 * by name, the mini-player's view, and Save as MP3's estimate and order. The background makes them
 * (`utils/reading/floating.ts`, `utils/reading/save.ts`); the pages and the content scripts only read them.
 */

export type ReadingStateName =
  | 'idle'
  | 'extracting'
  | 'confirm'
  | 'loading'
  | 'playing'
  | 'paused'
  | 'finished'
  | 'stopped'
  | 'error';

/** What the mini-player shows: this reading's state, part, cost and speed. */
export interface FloatingView {
  readingId: string;
  state: ReadingStateName;
  title: string;
  part: number;
  parts: number;
  costRub: string;
  rate: number;
  /** An error code (the page renders its words); '' when none. */
  error: string;
  /** `network` while the service cannot be reached (the reading carries on by itself); '' otherwise. */
  wait: '' | 'network';
  /** When that wait began (epoch ms; 0: none). */
  waitSince: number;
}

/** What saving the reading as MP3 would still cost: the parts not received yet. */
export interface SaveEstimate {
  /** The reading it was counted for, and its parts before `upTo`: what a confirmation of it may buy. */
  readingId: string;
  upTo: number;
  /** The first part of the file: 0 for the whole reading, a chapter's first part for a book's chapter. */
  from: number;
  /** Why it cannot be saved now: still being counted (a PDF), or waiting for its own confirmation. */
  refusal: '' | 'still-counting' | 'save-changed';
  parts: number;
  missing: number;
  /** Parts paid for and still arriving: waited for (`fetchMissing`, at no cost) before the file is made. */
  arriving: number;
  missingChars: number;
  missingRub: string;
  /** Parts the service refused (passed over in the reading): left out of the file; any other part missing is an error. */
  skipped: number[];
}

/** A Save as MP3 confirmation, as the popup sends it: the reading and the parts it was shown for, and the cost shown. */
export interface SaveOrder {
  readingId: string;
  upTo: number;
  /** A book's chapter: its first part (the order buys parts `from` to `upTo`); absent: the whole reading. */
  from?: number;
  maxRub: string;
}
