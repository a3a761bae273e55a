/** The context menu: read the selection, read from here, add a link or the page to the listening queue, read a linked book. */
import { browser, type Browser } from 'wxt/browser';
import { i18n } from '#i18n';
import { diagnostics } from '../diagnostics/wired';
import { readingOf } from '../page-text/sources';
import { BOOK_LINK_PATTERNS, openBookLink } from '../page-text/book-link';
import { ignore } from '../log';
import { type BackgroundContext, listen } from './context';

const MENU_READ_SELECTION = 'read-selection';
const MENU_READ_FROM_HERE = 'read-from-here';
const MENU_QUEUE_LINK = 'queue-add-link';
const MENU_QUEUE_PAGE = 'queue-add-page';
const MENU_READ_BOOK = 'read-book';

export function init(signal: AbortSignal, { reader, addToQueue }: Pick<BackgroundContext, 'reader' | 'addToQueue'>): void {
  const createMenus = () => {
    browser.contextMenus.create({
      id: MENU_READ_SELECTION,
      title: i18n.t('menuReadSelection'),
      contexts: ['selection'],
    });
    browser.contextMenus.create({
      id: MENU_READ_FROM_HERE,
      title: i18n.t('menuReadFromHere'),
      contexts: ['page'],
    });
    browser.contextMenus.create({ id: MENU_QUEUE_LINK, title: i18n.t('menuQueueLink'), contexts: ['link'] });
    browser.contextMenus.create({ id: MENU_QUEUE_PAGE, title: i18n.t('menuQueuePage'), contexts: ['page'] });
    browser.contextMenus.create({ id: MENU_READ_BOOK, title: i18n.t('menuReadBook'), contexts: ['link'], targetUrlPatterns: BOOK_LINK_PATTERNS });
  };
  // Chrome keeps menus across worker restarts (create once); Firefox forgets a persistent page's menus
  // when the page ends, so they are made at every start.
  if (import.meta.env.FIREFOX) void browser.contextMenus.removeAll().then(createMenus);
  else listen(signal, browser.runtime.onInstalled, createMenus);

  const onMenuClick = (info: Browser.contextMenus.OnClickData, tab?: Browser.tabs.Tab) => {
    if (tab?.id === undefined) return;
    const tabId = tab.id;
    if (info.menuItemId === MENU_READ_SELECTION) {
      void reader.start(readingOf({ kind: 'menu-selection', tabId, text: info.selectionText ?? '', clicked: tab }));
    } else if (info.menuItemId === MENU_READ_FROM_HERE) {
      void reader.start(readingOf({ kind: 'tab', tabId, mode: 'from-here', clicked: tab }));
    } else if (info.menuItemId === MENU_QUEUE_LINK && info.linkUrl) {
      addToQueue(info.linkUrl, (info as { linkText?: string }).linkText ?? '');
    } else if (info.menuItemId === MENU_QUEUE_PAGE && tab.url) {
      addToQueue(tab.url, tab.title ?? '');
    } else if (info.menuItemId === MENU_READ_BOOK && info.linkUrl) {
      void openBookLink(info.linkUrl, tab).catch(ignore('opening a linked book'));
    }
  };
  listen(signal, browser.contextMenus.onClicked, onMenuClick);
  // The native menu cannot be clicked by tests; they call this from the worker's own console (test builds only).
  diagnostics.expose({ contextMenuClick: onMenuClick });
}
