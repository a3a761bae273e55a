import { defineExtensionMessaging } from '@webext-core/messaging';
import type { AccountInfo, AudioFormat, Playback, Settings, UrlReading } from '../storage/settings';
import type { PlayerEvent } from '../audio/player-protocol';
import type { PronunciationRule } from '../text/pronunciation';
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

/** The one protocol between the extension's pages and its background. */
interface ProtocolMap {
  getSettings(): SettingsView;
  saveSettings(input: SaveSettingsInput): CheckResult;
  removeKey(): SettingsView;
  /** Empties the usage history through the background's one history writer. */
  clearHistory(): void;
  /**
   * Starts reading tab `tabId` unless a reading is active (then it is left alone). Answers as soon as that is
   * decided, before the reading's first view is written: whether a reading starts.
   */
  startReading(data: { tabId: number; force?: boolean }): { starts: boolean };
  command(data: { command: ReadingCommand }): void;
  jumpTo(data: { part: number }): void;
  /** "Continue from 12:40": to where the listener stopped on this page last time. */
  resumeFromOffer(): void;
  /** While the reading asks first: switches a block of its preview on or off (the estimate follows). */
  setBlockOn(data: { block: number; on: boolean }): void;
  setPlayback(data: Partial<Playback>): Playback;
  /** The sleep timer: stop listening this many minutes from now, at the end of a sentence (null: off). */
  setSleepTimer(data: { minutes: number | null; atEnd?: boolean }): void;
  /**
   * Saving as MP3: what is still missing and its cost; then fetching it, once the user confirmed that cost
   * for that reading (refused when the reading changed since, is still counted, or waits for its own answer).
   */
  saveEstimate(): SaveEstimate;
  fetchForSave(order: SaveOrder): Outcome;
  /** The listening queue: play it from the top, move an entry by `delta` places, or remove one. */
  queue(data: { action: 'play' } | { action: 'move'; id: string; delta: number } | { action: 'remove'; id: string }): void;
  /** From the offscreen player. */
  playerEvent(event: PlayerEvent): void;
}

export const { sendMessage, onMessage } = defineExtensionMessaging<ProtocolMap>();

/** The extension's pages that send to the background, by their file. */
export type PageSender = 'popup' | 'options' | 'pdf' | 'offscreen';

const SENDER_PAGES: Record<string, PageSender> = {
  '/popup.html': 'popup',
  '/options.html': 'options',
  '/pdf.html': 'pdf',
  '/offscreen.html': 'offscreen',
};

/**
 * Who may send what: the one table. Money, the key and the settings only from the popup and the options
 * page; never from a content script, a web page, the PDF page (it shows a file from the web) or the player.
 */
export const MAY_SEND: { readonly [T in keyof ProtocolMap]: readonly PageSender[] } = {
  getSettings: ['popup', 'options', 'pdf'],
  saveSettings: ['options'],
  removeKey: ['options'],
  clearHistory: ['options'],
  startReading: ['popup', 'pdf'],
  command: ['popup'],
  jumpTo: ['popup'],
  resumeFromOffer: ['popup'],
  setBlockOn: ['popup'],
  setPlayback: ['popup'],
  setSleepTimer: ['popup'],
  saveEstimate: ['popup'],
  fetchForSave: ['popup'],
  queue: ['popup'],
  playerEvent: ['offscreen'],
};

/** Which of the extension's pages sent a message; null for anything else (a content script, another extension, a web page). */
export function pageSender(sender: { id?: string; url?: string; tab?: unknown }, ownId: string, ownOrigin: string): PageSender | null {
  if (sender.id !== ownId || !sender.url?.startsWith(ownOrigin)) return null;
  let path: string;
  try {
    path = new URL(sender.url).pathname;
  } catch {
    return null;
  }
  return SENDER_PAGES[path] ?? null;
}

/** `onMessage` for the background: a message is taken only from a page the table lets send it. */
export function onPageMessage<T extends keyof ProtocolMap>(type: T, handler: Parameters<typeof onMessage<T>>[1]) {
  return onMessage(type, (message) => {
    const from = pageSender(message.sender, chrome.runtime.id, chrome.runtime.getURL('/'));
    if (!from || !MAY_SEND[type].includes(from)) throw new Error('refused');
    return handler(message);
  });
}
