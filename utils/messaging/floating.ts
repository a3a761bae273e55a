import { defineExtensionMessaging } from '@webext-core/messaging';
import type { FloatingPlace } from '../storage/page-options';

/**
 * The floating mini-player (in the extract content script of the tab being read) → the background.
 * A third instance beside `protocol.ts` (extension pages) and `content.ts` (background → page): the
 * background takes these only from its own content script, in the top frame of the tab being read.
 */
export type FloatingCommand = 'toggle' | 'next' | 'prev' | 'stop';

export interface FloatingProtocol {
  floatingCommand(data: { command: FloatingCommand }): void;
  floatingRate(data: { rate: number }): void;
  /** The user dragged it (or moved it with the keyboard): kept for every page. */
  floatingMoved(data: { place: FloatingPlace }): void;
}

const messaging = defineExtensionMessaging<FloatingProtocol>();

export const sendFromPlayer = messaging.sendMessage;

/**
 * Background side. Runtime messages reach the background only from the extension's own contexts (it
 * declares no `externally_connectable`), so a sender with a tab and a web page's address is the
 * extension's content script: `fromTab` says whether that tab may drive the reading.
 */
export function onPlayerMessage<T extends keyof FloatingProtocol>(
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
