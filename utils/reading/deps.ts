/** What the reader needs from the world: passed in, so every piece of it can be faked in unit tests. */
import type { AudioCache } from '../audio/cache';
import type { SpendingBook } from '../money/spending-book';
import type { PlayerSink } from '../audio/player-protocol';
import type { SpeechBody, SpeechStream } from '../speech/client';
import type { RequestSlots } from '../speech/slots';
import type { AccountInfo, Playback, Settings } from '../storage/settings';
import type { UsageEntry } from '../storage/usage-history';
import type { ExtractedText, TextBatch } from '../text/extract';
import type { ReadingPlan } from './plan';
import type { RunProgress } from './run';
import type { ReadingView } from './state';
import type { ResumePoint } from '../storage/resume';
import type { PageMark } from '../messaging/content';

/** Where a reading is kept between lives of the background. */
export interface ReaderStore {
  saveView(view: ReadingView): Promise<void>;
  savePlan(plan: ReadingPlan | null): Promise<void>;
  saveProgress(progress: RunProgress | null): Promise<void>;
  load(): Promise<{ view: ReadingView | null; plan: ReadingPlan | null; progress: RunProgress | null }>;
}

export interface ReaderDeps {
  /** Why the key may not be sent now (`no-key`, `key-origin`, `bad-url`, `permission-denied`), or null. */
  keyProblem(): Promise<string | null>;
  getSettings(): Promise<Settings>;
  getPlayback(): Promise<Playback>;
  savePlayback(playback: Playback): Promise<void>;
  /** The last known account; `refreshAccount` asks the service again. */
  getAccount(): Promise<AccountInfo | null>;
  refreshAccount(): Promise<AccountInfo>;
  /** What was spent today and this month, kept apart from the usage history: the spending caps count it. */
  wallet: SpendingBook;
  slots: RequestSlots;
  /** Sends a speech request with the key as it is at that moment. */
  open(body: SpeechBody, signal: AbortSignal): Promise<SpeechStream>;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** Calls `wake` each time the browser says it is online again (a wait for the service then tries at once). */
  onOnline?(wake: () => void): void;
  /** Something the browser counts as the extension at work (Chrome ends a worker idle for 30 s). */
  keepAwake?(): void;
  /** After how long without the service a reading pauses (`NETWORK_PAUSE_AFTER_MS` when not given). */
  networkPauseAfterMs?(): number;
  player: PlayerSink;
  cache: AudioCache;
  store: ReaderStore;
  /** Shows on the toolbar icon that the last reading ended in an error (null: clear). */
  badge(code: string | null): void;
  recordUsage(entry: UsageEntry): void;
  /** Marks the sentence being read on the page, and the word being said when `word` is given (null: clear). Best effort. */
  highlight(tabId: number, mark: PageMark | null): void;
  /** Whether the word being said is marked too (the options page's switch; on when not given). */
  wordMark?(): boolean;
  /** The next batch of a document read in batches (a PDF) in tab `tabId`, after the first `after` blocks. */
  moreText(tabId: number, after: number): Promise<TextBatch>;
  /** Where the listener stopped on the page at `url` (null: nowhere kept); `save` keeps it (null: forgets it). */
  getResume(url: string): Promise<ResumePoint | null>;
  saveResume(url: string, point: ResumePoint | null): Promise<void>;
  newId(): string;
  now(): number;
  /**
   * When a start's first writes (the last plan cleared, the first view) are made, given the start's
   * extraction: at once when not given. The background waits for the page's answer (Firefox: each write is
   * a message to the browser's own process, and made at the click they slowed the script's injection;
   * Chrome: an open popup draws each view while the page extracts).
   */
  startWritesAfter?(extraction: Promise<unknown>): Promise<void>;
}

export interface ReadingRequest {
  /** The reading's id, when the caller needs to know it beforehand (the listening queue); else a new one. */
  id?: string;
  tabId: number | null;
  source: ReadingView['source'];
  extract(): Promise<ExtractedText>;
}
