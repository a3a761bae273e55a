import type { PreviewBlock } from './preview';
import { storage } from 'wxt/utils/storage';
import type { RunProgress } from './run';
import type { FloatingView, ReadingStateName } from '../messaging/views';

export type { ReadingStateName };

export const ACTIVE_STATES: readonly ReadingStateName[] = ['extracting', 'confirm', 'loading', 'playing', 'paused'];
export const isActive = (s: ReadingStateName) => ACTIVE_STATES.includes(s);

/** What an active reading waits for besides its state: `network` while the service cannot be reached. */
export type Wait = FloatingView['wait'];

/** `incomplete`: the rest of a document read in batches (a PDF) could not be read; what was read plays. */
export type NoticeCode = '' | 'skipped-words' | 'content-rejected' | 'incomplete';

/**
 * What the popup shows: small, written on every change that matters, kept in
 * storage.session so a restarted service worker and a reopened popup see the same.
 * Money is kept as plain 4-digit decimal strings (never floats).
 */
export interface ReadingView {
  id: string;
  state: ReadingStateName;
  tabId: number | null;
  title: string;
  source: 'selection' | 'article' | 'menu' | '';
  part: number;
  parts: number;
  /** Seconds of audio played in this reading. */
  position: number;
  /** Seconds into the current part: where a reloaded player resumes. */
  partTime: number;
  /** The playback rate the player reports (speed is applied there, never refetched). */
  rate: number;
  costRub: string;
  chars: number;
  balanceRub: string;
  estimateChars: number;
  estimateRub: string;
  estimateAboveBalance: boolean;
  /** Code points left out before billing (hidden text, reference sections, leaders, sentences with nothing to say) and what they would have cost. */
  savedChars: number;
  savedRub: string;
  /** Where the listener stopped on this page last time, offered until the reading moves on (null: none). */
  resumeOffer: { part: number; partTime: number; position: number } | null;
  /** The sleep timer: when the listening stops (epoch ms; 0: no timer). It stops at the end of the sentence then being read. */
  sleepAt: number;
  /** The sleep timer "to the end of the article": this reading ends, the listening queue does not go on. */
  sleepAtEnd: boolean;
  /** The sleep timer "to the end of this chapter" (a book): the reading pauses where the next chapter begins, nothing of it bought. */
  sleepAtChapter: boolean;
  /** A book's reading, read chapter by chapter (the sleep timer offers the chapter's end). */
  chapters: boolean;
  /** The estimate is still growing: a document read in batches (a PDF) is still being counted. */
  counting: boolean;
  /** The service could not be asked for its price: the estimate uses the last known one. */
  stalePrice: boolean;
  /** Why the reading asks first: its estimate is above the confirmation threshold, or it would pass a spending cap. */
  confirmReason: 'threshold' | 'budget' | 'preview' | '';
  /** While asking first: the reading's blocks, each with its characters and cost; off ones are not sent. */
  preview: PreviewBlock[];
  notice: { code: NoticeCode; count: number };
  /** The service cannot be reached: what was received plays on, and the reading carries on by itself when it answers. */
  wait: Wait;
  /** When the wait began (epoch ms; 0: none): the pages show how long it has waited. */
  waitSince: number;
  /**
   * A code, never words: the pages render it in the browser's language. `detail` is the service's own
   * message, shown only for a code this extension has no words of its own for.
   */
  error: { code: string; requestId: string; detail: string } | null;
  updatedAt: number;
}

export const IDLE_VIEW: ReadingView = {
  id: '',
  state: 'idle',
  tabId: null,
  title: '',
  source: '',
  part: 0,
  parts: 0,
  position: 0,
  partTime: 0,
  rate: 1,
  costRub: '',
  chars: 0,
  balanceRub: '',
  estimateChars: 0,
  estimateRub: '',
  estimateAboveBalance: false,
  savedChars: 0,
  savedRub: '',
  resumeOffer: null,
  sleepAt: 0,
  sleepAtEnd: false,
  sleepAtChapter: false,
  chapters: false,
  counting: false,
  stalePrice: false,
  confirmReason: '',
  preview: [],
  notice: { code: '', count: 0 },
  wait: '',
  waitSince: 0,
  error: null,
  updatedAt: 0,
};

export const readingViewStorage = storage.defineItem<ReadingView>('session:reading-view', { fallback: IDLE_VIEW });

/** What a restarted background needs besides the view and the plan (the plan itself is in IndexedDB: `plan-store.ts`). */
export const runProgressStorage = storage.defineItem<RunProgress | null>('session:reading-progress', { fallback: null });
