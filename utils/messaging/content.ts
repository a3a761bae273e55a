import { defineExtensionMessaging } from '@webext-core/messaging';
import type { CleanupChoices, ExtractedText, TextBatch } from '../text/extract';
import type { FloatingView } from './views';
import type { FloatingPlace } from '../storage/page-options';

/**
 * Background → the extract content script of the page being read (never anything secret).
 * A separate instance from `protocol.ts`: that one is the pages' protocol to the background.
 * The script is injected on demand and stays resident in the page after its first injection.
 */
export type ExtractMode = 'normal' | 'from-here';

/** What the background asks the page for: its selection or article, and how it is cleaned up. */
export type ExtractRequest = {
  mode: ExtractMode;
  /** Answered only by the page at this address, or whose address has this hash (`storage/bounds.ts` hashOf): a start that asks before it has looked the tab up; others refuse. */
  at?: string;
  /**
   * An article of at most this many code units of page text (its title included) is answered title first:
   * the title alone, `more` and its `bound`; the rest is extracted meanwhile (`restOfPage`). 0 or absent: whole.
   */
  titleFirstMax?: number;
  /** Only a selection is answered (the script put in after its selection was read); none: an error, nothing kept. */
  selectionOnly?: true;
} & CleanupChoices;

/** What a page not at the request's `at` answers with (the background then goes the usual way). */
export const NOT_AT = 'not-at-that-address';

/** An `extract` request handed to the page with the script's injection, and its id. */
export interface PendingExtract {
  id: string;
  request: ExtractRequest;
}

declare global {
  // Set in the extract script's world as it is injected; answered as the injection's result.
  var __trysashaPendingExtract: PendingExtract | undefined;
}

/**
 * The extract script as a function, injected with its request as the argument (`func`, `args`): the
 * script answers the request as the injection's result (utils/content/page-reader.ts,
 * `answerPendingExtract`), with no message after it. The build puts the script's own code (the
 * unlisted script `extract.js`, the same bytes) in place of the string this returns (wxt.config.ts,
 * `build:done`). Injected as a function, not as its file: Firefox compiles the file afresh in each new
 * page's process, and a function's source in far less time (`npm run bench`, the first injection into a
 * page); Chrome's answer came sooner too. Where the build has not put the code in (`wxt dev`'s
 * rebuilds), the string comes back instead of an answer, and the file is injected after it.
 */
export function extractScript(pending: PendingExtract | null): unknown {
  globalThis.__trysashaPendingExtract = pending ?? undefined;
  return '@@trysasha-extract-script@@';
}

/**
 * Injected as a function (self-contained) to take the rest of an article the page's reader answered
 * title first (utils/content/page-reader.ts): its blocks after the first `after` (the title), once extracted.
 * Null when the page has none (read again since, or reloaded).
 */
export function restOfPage(after: number): Promise<TextBatch> | null {
  const rest = globalThis.__trysashaPageReader?.rest;
  return after === 1 && rest ? rest() : null;
}

/**
 * What is marked on the page: the sentence being read (its text as sent, in block `block` of the last
 * extraction) and, when the word mark is on, the word being said (code-unit offsets in that text).
 */
export interface PageMark {
  block: number;
  text: string;
  word?: { start: number; end: number };
}

export interface ContentProtocol {
  /** The selection or the main article; `from-here` starts at the block last right-clicked (or in view). */
  extract(data: ExtractRequest): ExtractedText;
  /**
   * A document read in batches (the PDF page): the blocks after the first `after` of this reading.
   * A request that does not follow on (a replaced reading's, late) gets nothing and takes nothing.
   */
  extractMore(data: { after: number }): TextBatch;
  /** Marks the sentence being read in block `block` of the last extraction, and the word being said in it; false when that block has no place on the page. */
  highlight(data: PageMark): boolean;
  clearHighlight(): void;
  /** The floating mini-player: shown with this view (where the user last put it), or taken away (null). */
  floating(data: { view: FloatingView | null; place: FloatingPlace | null }): void;
}

const messaging = defineExtensionMessaging<ContentProtocol>();

/**
 * Background side: `sendToPage('extract', { mode }, tabId)`. Always to the top frame, the only one the
 * script is injected into. Rejects (with "No response") when the page has no receiver yet.
 */
export function sendToPage<T extends keyof ContentProtocol>(
  type: T,
  data: Parameters<typeof messaging.sendMessage<T>>[1],
  tabId: number,
): ReturnType<typeof messaging.sendMessage<T>> {
  return messaging.sendMessage(type, data, { tabId, frameId: 0 });
}

/** What @webext-core's sendMessage rejects with when no listener answered (no script in the page yet). */
export function isNoReceiver(err: unknown): boolean {
  return err instanceof Error && /No response|Receiving end does not exist|Could not establish connection/i.test(err.message);
}

/** Only the extension itself may drive the page: the background (no tab), never a web page or another extension. */
function fromExtension(sender: chrome.runtime.MessageSender): boolean {
  return sender.id === chrome.runtime.id && !sender.tab;
}

/** Content side: a handler for `type`; anything not sent by the extension's background is refused. */
export function onPageRequest<T extends keyof ContentProtocol>(type: T, handler: Parameters<typeof messaging.onMessage<T>>[1]) {
  return messaging.onMessage(type, (message) => {
    if (!fromExtension(message.sender)) throw new Error('refused');
    return handler(message);
  });
}
