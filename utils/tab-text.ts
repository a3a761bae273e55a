import { browser } from 'wxt/browser';
import { blocksFromPlainText, type ExtractedText } from './extract-page';
import { ReadingError } from './reading-session';

const RESTRICTED = [
  /^(chrome|edge|brave|opera|vivaldi|yandex|browser|about|view-source|devtools|chrome-search|chrome-untrusted|moz-extension|chrome-extension|resource|data|javascript):/i,
  /^https:\/\/chrome\.google\.com\/webstore/i,
  /^https:\/\/chromewebstore\.google\.com/i,
  /^https:\/\/microsoftedge\.microsoft\.com\/addons/i,
  /^https:\/\/addons\.mozilla\.org/i,
  /^https:\/\/addons\.opera\.com/i,
];

/** Pages no extension may script: browser pages, extension stores, other extensions. */
export function isRestrictedUrl(url: string | undefined): boolean {
  if (!url) return true;
  return RESTRICTED.some((re) => re.test(url));
}

/** Injects the extract script on demand and returns the selection or the article. */
export async function extractFromTab(tabId: number, fallbackSelection = ''): Promise<ExtractedText> {
  const tab = await browser.tabs.get(tabId).catch(() => null);
  const fallback = (): ExtractedText => {
    if (fallbackSelection.trim()) return { title: tab?.title ?? '', source: 'selection', blocks: blocksFromPlainText(fallbackSelection) };
    throw new ReadingError('restricted-page');
  };
  if (!tab || isRestrictedUrl(tab.url ?? tab.pendingUrl)) return fallback();
  let result: unknown;
  try {
    const [frame] = await browser.scripting.executeScript({ target: { tabId }, files: ['/content-scripts/extract.js'] });
    result = frame?.result;
  } catch {
    // The PDF viewer and pages the browser protects cannot be scripted.
    return fallback();
  }
  const extracted = result as ExtractedText | undefined;
  if (!extracted || !Array.isArray(extracted.blocks)) return fallback();
  if (fallbackSelection.trim() && extracted.source !== 'selection') {
    return { title: extracted.title, source: 'selection', blocks: blocksFromPlainText(fallbackSelection) };
  }
  if (extracted.blocks.every((b) => !b.text.trim())) throw new ReadingError('no-text');
  return extracted;
}
