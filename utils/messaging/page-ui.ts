import { defineExtensionMessaging } from '@webext-core/messaging';
import type { FloatingPlace } from '../storage/page-options';

/**
 * The extension's own controls on web pages (the floating mini-player and click-to-read's ▶, both in
 * the content script) → the background. A third instance beside `protocol.ts` (extension pages) and
 * `content.ts` (background → page): the background takes these only from its own content script, in
 * a tab's top frame (the mini-player's: only in the tab being read).
 */
export type FloatingCommand = 'toggle' | 'next' | 'prev' | 'stop';

/**
 * What the page's mini-player may command: play, pause, previous, next, stop (and its speed, `floatingRate`).
 * Never `confirm`: a page's process may be compromised, and an answer to "read it?" is the listener's, in the popup.
 */
const FLOATING_COMMANDS: readonly FloatingCommand[] = ['toggle', 'next', 'prev', 'stop'];

/** The command, when it is one the mini-player may send; null for anything else. */
export function floatingCommandOf(command: unknown): FloatingCommand | null {
  return FLOATING_COMMANDS.find((c) => c === command) ?? null;
}

export interface FloatingProtocol {
  floatingCommand(data: { command: FloatingCommand }): void;
  floatingRate(data: { rate: number }): void;
  /** The user dragged it (or moved it with the keyboard): kept for every page. */
  floatingMoved(data: { place: FloatingPlace }): void;
  /** Click-to-read: read this page's article from the block the ▶ was clicked at (the script keeps which). */
  readFromHere(): void;
}

const messaging = defineExtensionMessaging<FloatingProtocol>();

export const sendFromPage = messaging.sendMessage;

/**
 * Background side. Runtime messages reach the background only from the extension's own contexts (it
 * declares no `externally_connectable`), so a sender with a tab and a web page's address is the
 * extension's content script: `fromTab` says whether that tab may drive the reading.
 */
export function onPageUiMessage<T extends keyof FloatingProtocol>(
  type: T,
  fromTab: (tabId: number) => boolean,
  handler: Parameters<typeof messaging.onMessage<T>>[1],
) {
  return messaging.onMessage(type, (message) => {
    const { sender } = message;
    const tabId = sender.tab?.id;
    const contentScript = sender.id === chrome.runtime.id && sender.frameId === 0 && !sender.url?.startsWith(chrome.runtime.getURL('/'));
    if (!contentScript || tabId === undefined || !fromTab(tabId)) throw new Error('refused');
    return handler(message);
  });
}
