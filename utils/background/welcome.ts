/**
 * The first run: the welcome page opened once, on install (the published build's; development and test
 * builds start without it, their tests and demo open it when they want), and its "Try it", which reads the
 * bundled sample in a tab of its own as any reading is read (asking first above the threshold).
 */
import { browser } from 'wxt/browser';
import { ignore } from '../log';
import { onPageMessage } from '../messaging/protocol';
import { extractFromTab } from '../page-text/tab-text';
import { tabUrl } from '../page-text/pdf-tab';
import { SAMPLE_PAGE } from '../text/sample';
import { type BackgroundContext, listen, onAbort } from './context';

export const WELCOME_PAGE = '/welcome.html';

export function init(signal: AbortSignal, { reader }: Pick<BackgroundContext, 'reader'>): void {
  listen(signal, browser.runtime.onInstalled, ({ reason }: { reason: string }) => {
    if (reason !== 'install' || import.meta.env.MODE !== 'production') return;
    void browser.tabs.create({ url: browser.runtime.getURL(WELCOME_PAGE) }).catch(ignore('opening the welcome page'));
  });
  onAbort(
    signal,
    onPageMessage('trySample', async () => {
      const tab = await browser.tabs.create({ url: browser.runtime.getURL(SAMPLE_PAGE), active: true });
      if (tab.id === undefined) return { starts: false };
      const tabId = tab.id;
      // Read once the tab shows the sample (Firefox's new tab is about:blank until then); the page answers for itself.
      void reader.start({ tabId, source: '', extract: async () => (await showsSample(tabId), extractFromTab(tabId)) });
      return { starts: true };
    }),
  );
}

/** Resolves once tab `tabId` is at the sample (5 s at most: then the extraction says what it finds). */
async function showsSample(tabId: number): Promise<void> {
  const sample = browser.runtime.getURL(SAMPLE_PAGE);
  for (const until = Date.now() + 5_000; Date.now() < until; ) {
    const tab = await browser.tabs.get(tabId).catch(() => null);
    if (!tab || (await tabUrl(tab))?.startsWith(sample)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}
