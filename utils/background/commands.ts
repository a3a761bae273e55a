/** The keyboard shortcuts (the manifest's `commands`): read the page, pause or play, stop, next, previous. */
import { browser, type Browser } from 'wxt/browser';
import { diagnostics } from '../diagnostics/wired';
import { readingOf } from '../page-text/sources';
import { type BackgroundContext, listen } from './context';

export function init(signal: AbortSignal, { reader, runCommand }: Pick<BackgroundContext, 'reader' | 'runCommand'>): void {
  const onCommand = async (command: string, tab?: Browser.tabs.Tab) => {
    switch (command) {
      case 'read': {
        const tabId = tab?.id ?? (await browser.tabs.query({ active: true, currentWindow: true }))[0]?.id;
        if (tabId === undefined) return;
        return reader.start(readingOf({ kind: 'tab', tabId, clicked: tab }));
      }
      case 'toggle-pause':
        return runCommand('toggle');
      case 'stop':
      case 'next':
        return runCommand(command);
      case 'previous':
        return runCommand('prev');
    }
  };
  listen(signal, browser.commands.onCommand, (command: string, tab?: Browser.tabs.Tab) => void onCommand(command, tab));
  // Tests cannot press browser-level shortcuts; they call the handler from the worker's console (test builds only).
  diagnostics.expose({ commandHandler: onCommand });
}
