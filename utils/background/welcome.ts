/**
 * The first run: the welcome page opened once, on install (the published build's; development and test
 * builds start without it, their tests and demo open it when they want), and its "Try it", which reads the
 * bundled sample in a tab of its own as any reading is read (asking first above the threshold).
 */
import { browser } from 'wxt/browser';
import { ignore } from '../log';
import { onPageMessage } from '../messaging/protocol';
import { readingOf } from '../page-text/sources';
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
      void reader.start(readingOf({ kind: 'sample', tabId }));
      return { starts: true };
    }),
  );
}
