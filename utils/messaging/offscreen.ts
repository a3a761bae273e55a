import { defineExtensionMessaging } from '@webext-core/messaging';
import type { CleanupChoices, ExtractedText } from '../text/extract';

/**
 * Background → Chrome's offscreen document, for what needs a DOM the service worker has not: reading a
 * fetched page's article (the listening queue). The audio goes another way (`offscreen-sink.ts`).
 */
interface OffscreenProtocol {
  parseArticle(data: { html: string; url: string; choices: CleanupChoices }): ExtractedText;
}

const messaging = defineExtensionMessaging<OffscreenProtocol>();

export const sendToOffscreen = messaging.sendMessage;

/** Offscreen side: only the background (the service worker: no tab, the extension's own id) is answered. */
export function onOffscreenRequest<T extends keyof OffscreenProtocol>(type: T, handler: Parameters<typeof messaging.onMessage<T>>[1]) {
  return messaging.onMessage(type, (message) => {
    const { sender } = message;
    if (sender.id !== chrome.runtime.id || sender.tab) throw new Error('refused');
    return handler(message);
  });
}
