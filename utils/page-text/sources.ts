/**
 * Where a reading's text comes from (background), in one place: the page a tab shows (its selection or
 * its article; a PDF there read on the extension's PDF page), the selection a context menu was opened on,
 * the welcome page's sample, and a queued page downloaded with no tab. Every start names its source here
 * and gets the text through `textOf`; each source asks its page through the tab's channel
 * (`tab-channel.ts`) and waits for it the one way (`until-ready.ts`).
 */
import { browser, type Browser } from 'wxt/browser';
import { ensureOffscreenDocument } from '../audio/offscreen-sink';
import type { ExtractMode } from '../messaging/content';
import { sendToOffscreen } from '../messaging/offscreen';
import { localReachable } from '../net/bounded-fetch';
import { originPattern } from '../speech/base-url';
import { cleanupOf, readSettings } from '../storage/settings';
import type { ExtractedText } from '../text/extract';
import { parseArticle } from '../text/parse-article';
import { SAMPLE_PAGE } from '../text/sample';
import { type ArticleDeps, fetchArticle } from './article-fetch';
import { tabUrl } from './pdf-tab';
import { extractFromTab } from './tab-text';
import { untilReady } from './until-ready';

export type TextSource =
  /** The page a tab shows: its selection, else its article (`from-here`: the article from the selected point). */
  | { kind: 'tab'; tabId: number; mode?: ExtractMode; clicked?: Browser.tabs.Tab }
  /** The selection a context menu was opened on: the page's own, else the menu's text (a frame, the PDF viewer). */
  | { kind: 'menu-selection'; tabId: number; text: string; clicked?: Browser.tabs.Tab }
  /** The welcome page's sample, in a tab just opened for it. */
  | { kind: 'sample'; tabId: number }
  /** A queued page: downloaded, its article read in a document parser (no tab). */
  | { kind: 'queued'; url: string };

/** The text of `source`; fails with a `ReadingError` that says why (a restricted page, nothing to read …). */
export function textOf(source: TextSource): Promise<ExtractedText> {
  switch (source.kind) {
    case 'tab':
      return extractFromTab(source.tabId, { mode: source.mode, clicked: source.clicked });
    case 'menu-selection':
      return extractFromTab(source.tabId, { menuSelection: source.text, clicked: source.clicked });
    case 'sample':
      // Read once the tab shows the sample (Firefox's new tab is about:blank until then); the page answers for itself.
      return showsSample(source.tabId).then(() => extractFromTab(source.tabId));
    case 'queued':
      return fetchArticle(source.url, articleDeps);
  }
}

/** What a reading started from `source` is told: its tab, what the popup calls it, and how its text is got. */
export function readingOf(source: TextSource): { tabId: number | null; source: '' | 'selection' | 'article'; extract: () => Promise<ExtractedText> } {
  const label = source.kind === 'menu-selection' ? 'selection' : source.kind === 'queued' || (source.kind === 'tab' && source.mode === 'from-here') ? 'article' : '';
  return { tabId: source.kind === 'queued' ? null : source.tabId, source: label, extract: () => textOf(source) };
}

/** Resolves once tab `tabId` is at the sample (5 s at most: then the extraction says what it finds). */
async function showsSample(tabId: number): Promise<void> {
  const sample = browser.runtime.getURL(SAMPLE_PAGE);
  // A tab that is gone answers too: the extraction says so.
  const there = async () => {
    const tab = await browser.tabs.get(tabId).catch(() => null);
    return !tab || (await tabUrl(tab))?.startsWith(sample) === true;
  };
  await untilReady(there, { awaited: (yes) => yes, withinMs: 5_000, every: 50 });
}

/** A queued page's download and parsing (`article-fetch.ts`). */
const articleDeps: ArticleDeps = {
  fetch: (url, init) => fetch(url, init),
  // Without the site's access the browser would refuse the download (CORS) with no reason given.
  // Loopback is granted by the manifest: a queued link there is read only when the service is there too.
  mayReach: async (url) => localReachable(url, (await readSettings()).baseUrl) && browser.permissions.contains({ origins: [originPattern(url.href)] }),
  async parse(html, url, choices) {
    if (import.meta.env.FIREFOX) return parseArticle(html, url, choices);
    // A document created a moment ago may not listen yet: asked again, a few times, shortly after.
    const parse = async () => (await ensureOffscreenDocument(), sendToOffscreen('parseArticle', { html, url, choices }));
    return untilReady(parse, { tries: 5, every: (asked) => 100 * asked });
  },
  async choices() {
    const settings = await readSettings();
    const { readCode, leaveOutCaptions, leaveOutTables } = cleanupOf(settings);
    return { keepReferences: settings.readReferences === true, readCode, leaveOutCaptions, leaveOutTables };
  },
};
