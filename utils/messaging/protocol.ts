/**
 * The one protocol to the background: a section per sender, and one table of who may send what
 * (`MAY_SEND`). Runtime messages reach the background only from the extension's own contexts (it
 * declares no `externally_connectable`); among those, the sender is told apart by its page's file, and
 * the extension's content script in a tab's top frame is the page's own controls. The background's
 * requests to the page (`content.ts`) and to the offscreen parser (`offscreen.ts`) go the other way.
 */
import { defineExtensionMessaging } from '@webext-core/messaging';
import type { AccountInfo, AudioFormat, Playback, Settings, UrlReading } from '../storage/settings';
import type { PlayerEvent } from '../audio/player-protocol';
import type { PronunciationRule } from '../text/pronunciation';
import type { FloatingPlace } from '../storage/page-options';
import type { SaveEstimate, SaveOrder } from './views';

export interface SettingsView {
  settings: Settings;
  /** The saved key, masked; null when none is saved. The key itself never leaves the background. */
  keyMask: string | null;
  account: AccountInfo | null;
}

export interface SaveSettingsInput {
  /** Empty: keep the saved key. */
  key: string;
  baseUrl: string;
  voice: string;
  format: AudioFormat;
  confirmThresholdRub: string;
  readReferences?: boolean;
  /** Decimal rubles; empty: no cap. */
  dailyCapRub?: string;
  monthlyCapRub?: string;
  pronunciations?: PronunciationRule[];
  readCode?: boolean;
  previewFirst?: boolean;
  leaveOutCaptions?: boolean;
  leaveOutTables?: boolean;
  urls?: UrlReading;
  /**
   * The origin the user agreed to send the saved key to, when the address changed and no key was typed
   * (the options page's confirmation names that host). Any other origin is answered with `key-origin`.
   */
  confirmOrigin?: string;
}

export type CheckResult =
  | { ok: true; account: AccountInfo }
  | { ok: false; code: string; requestId?: string; detail?: string; /** With `key-origin`: the new origin, and the one the key belongs to. */ origin?: string; keyOrigin?: string };

/** A failure told to a page by its code (the page renders the words). */
export type Outcome = { ok: true } | { ok: false; code: string };

export type ReadingCommand = 'pause' | 'resume' | 'toggle' | 'stop' | 'next' | 'prev' | 'confirm';

// ── The options page ─────────────────────────────────────────────────────────
interface FromOptions {
  getSettings(): SettingsView;
  saveSettings(input: SaveSettingsInput): CheckResult;
  removeKey(): SettingsView;
  /** Empties the usage history through the background's one history writer. */
  clearHistory(): void;
}

// ── The welcome page (first run) ────────────────────────────────────────────
interface FromWelcome {
  /** "Try it": the bundled sample, read in a tab of its own (it asks first as any reading does). */
  trySample(): { starts: boolean };
}

// ── The popup (and the PDF page's start) ─────────────────────────────────────
interface FromPopup {
  /**
   * Starts reading tab `tabId` unless a reading is active (then it is left alone). Answers as soon as that is
   * decided, before the reading's first view is written: whether a reading starts.
   */
  startReading(data: { tabId: number; force?: boolean }): { starts: boolean };
  command(data: { command: ReadingCommand }): void;
  jumpTo(data: { part: number }): void;
  /** The book page: a paragraph clicked (its index among the reading's blocks); whether the reading moved there. */
  jumpToBlock(data: { block: number }): { jumped: boolean };
  /** "Continue from 12:40": to where the listener stopped on this page last time. */
  resumeFromOffer(): void;
  /** While the reading asks first: switches a block of its preview on or off (the estimate follows). */
  setBlockOn(data: { block: number; on: boolean }): void;
  setPlayback(data: Partial<Playback>): Playback;
  /** The sleep timer: stop listening this many minutes from now, at the end of a sentence (null: off). */
  setSleepTimer(data: { minutes: number | null; atEnd?: boolean; atChapter?: boolean }): void;
  /**
   * Saving as MP3: what is still missing and its cost; then fetching it, once the user confirmed that cost
   * for that reading (refused when the reading changed since, is still counted, or waits for its own answer).
   */
  /** `chapter`: the chapter being read (a book's), not the whole reading. */
  saveEstimate(data: { chapter?: boolean }): SaveEstimate;
  fetchForSave(order: SaveOrder): Outcome;
  /** The listening queue: play it from the top, move an entry by `delta` places, or remove one. */
  queue(data: { action: 'play' } | { action: 'move'; id: string; delta: number } | { action: 'remove'; id: string }): void;
}

// ── The offscreen player (Chrome) ────────────────────────────────────────────
interface FromPlayer {
  playerEvent(event: PlayerEvent): void;
}

// ── The page's own controls: the floating mini-player and click-to-read's ▶ (content script) ──
/** What the page's mini-player may command: play, pause, previous, next, stop (and its speed, `floatingRate`). */
export type FloatingCommand = 'toggle' | 'next' | 'prev' | 'stop';

interface FromPageControls {
  /** Never `confirm`: a page's process may be compromised, and an answer to "read it?" is the listener's, in the popup. */
  floatingCommand(data: { command: FloatingCommand }): void;
  floatingRate(data: { rate: number }): void;
  /** The user dragged it (or moved it with the keyboard): kept for every page. */
  floatingMoved(data: { place: FloatingPlace }): void;
  /** Click-to-read: read this page's article from the block the ▶ was clicked at (the script keeps which). */
  readFromHere(): void;
}

const FLOATING_COMMANDS: readonly FloatingCommand[] = ['toggle', 'next', 'prev', 'stop'];

/** The command, when it is one the mini-player may send; null for anything else. */
export function floatingCommandOf(command: unknown): FloatingCommand | null {
  return FLOATING_COMMANDS.find((c) => c === command) ?? null;
}

export type ProtocolMap = FromOptions & FromWelcome & FromPopup & FromPlayer & FromPageControls;

export const { sendMessage, onMessage } = defineExtensionMessaging<ProtocolMap>();

// ── Who may send what ────────────────────────────────────────────────────────
/** The senders the background takes messages from: the extension's pages by their file, and its content script. */
export type PageSender = 'popup' | 'options' | 'welcome' | 'pdf' | 'book' | 'offscreen' | 'page-controls';

const SENDER_PAGES: Record<string, PageSender> = {
  '/popup.html': 'popup',
  '/options.html': 'options',
  '/welcome.html': 'welcome',
  '/pdf.html': 'pdf',
  '/book.html': 'book',
  '/offscreen.html': 'offscreen',
};

/**
 * Who may send what: the one table. Money, the key and the settings only from the popup and the options
 * page; never from a content script, a web page, the PDF page (it shows a file from the web) or the player.
 * The page's own controls send only their own few (and the background takes the mini-player's only from
 * the tab being read: `onPageMessage`'s `fromTab`).
 */
export const MAY_SEND: { readonly [T in keyof ProtocolMap]: readonly PageSender[] } = {
  getSettings: ['popup', 'options', 'welcome', 'pdf', 'book'],
  saveSettings: ['options', 'welcome'],
  trySample: ['welcome'],
  removeKey: ['options'],
  clearHistory: ['options'],
  startReading: ['popup', 'pdf', 'book'],
  command: ['popup'],
  jumpTo: ['popup'],
  jumpToBlock: ['book'],
  resumeFromOffer: ['popup'],
  setBlockOn: ['popup'],
  setPlayback: ['popup'],
  setSleepTimer: ['popup'],
  saveEstimate: ['popup'],
  fetchForSave: ['popup'],
  queue: ['popup'],
  playerEvent: ['offscreen'],
  floatingCommand: ['page-controls'],
  floatingRate: ['page-controls'],
  floatingMoved: ['page-controls'],
  readFromHere: ['page-controls'],
};

/**
 * Which of the extension's senders sent a message; null for anything else (another extension, a web page,
 * a subframe's script). A sender with a tab, a web page's address and the top frame is the extension's
 * content script: the page's own controls.
 */
export function pageSender(sender: { id?: string; url?: string; tab?: unknown; frameId?: number }, ownId: string, ownOrigin: string): PageSender | null {
  if (sender.id !== ownId || !sender.url) return null;
  if (!sender.url.startsWith(ownOrigin)) return sender.tab && sender.frameId === 0 ? 'page-controls' : null;
  let path: string;
  try {
    path = new URL(sender.url).pathname;
  } catch {
    return null;
  }
  return SENDER_PAGES[path] ?? null;
}

/**
 * The tab a `startReading` from `from` may start: the popup's, the tab it names; the PDF page's, only its own
 * tab (a page showing a file from the web never starts a reading elsewhere); null for anyone else.
 */
export function tabToStart(from: PageSender | null, asked: number, senderTab: number | undefined): number | null {
  if (from === 'popup') return asked;
  // The PDF page and the book page start only their own tab's reading.
  if (from === 'pdf' || from === 'book') return senderTab !== undefined && senderTab === asked ? asked : null;
  return null;
}

/** Which of the extension's pages sent a message (null: none of them). */
export function senderOf(sender: { id?: string; url?: string; tab?: unknown; frameId?: number }): PageSender | null {
  return pageSender(sender, chrome.runtime.id, chrome.runtime.getURL('/'));
}

/**
 * `onMessage` for the background: a message is taken only from a sender the table lets send it; the page's
 * controls, only from a tab `fromTab` accepts.
 */
export function onPageMessage<T extends keyof ProtocolMap>(type: T, handler: Parameters<typeof onMessage<T>>[1], fromTab: (tabId: number) => boolean = () => true) {
  return onMessage(type, (message) => {
    const from = senderOf(message.sender);
    if (!from || !MAY_SEND[type].includes(from)) throw new Error('refused');
    if (from === 'page-controls' && (message.sender.tab?.id === undefined || !fromTab(message.sender.tab.id))) throw new Error('refused');
    return handler(message);
  });
}
