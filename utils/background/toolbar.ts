/**
 * The toolbar button: the reading starts here, at the click, and the popup opens for this click only
 * (its page loading is then no longer on the way to the first audio). The popup's own start finds
 * this one and leaves it alone.
 */
import { browser, type Browser } from 'wxt/browser';
import { diagnostics } from '../diagnostics/wired';
import { ignore } from '../log';
import { readyTab } from '../page-text/tab-text';
import { readingOf } from '../page-text/sources';
import { type BackgroundContext, listen, onAbort, viewListeners } from './context';
import { underWay } from './under-way';

/** The popup the toolbar button opens for its click: it shows the reading the click started, and starts none. */
const POPUP = 'popup.html?from=toolbar';
/** Chrome: the toolbar's popup opens at the latest this long after the click, playing or not. */
const POPUP_WAIT_MS = 1_000;

export function init(signal: AbortSignal, { reader, onView }: Pick<BackgroundContext, 'reader' | 'onView'>): void {
  // MV2 (Firefox) names it browserAction.
  const action = browser.action ?? browser.browserAction;
  // Followed from the start (the views reach the toolbar first: entrypoints/background.ts), handed on to the clicks waiting.
  const views = viewListeners();
  onAbort(signal, onView(views.emit));
  const onToolbarClick = (tab: Browser.tabs.Tab, popupWaitMs = POPUP_WAIT_MS) => {
    if (tab.id === undefined) return;
    const tabId = tab.id;
    // The popup is set for this tab and opened, then unset again, so the next click comes here too.
    // Firefox opens a popup only in the click itself. Chrome opens it later: once the audio plays (or the
    // reading asks first, or fails), or at once when the click starts nothing (a reading is under way).
    // Its page's load competed with the extraction when opened at the click, and with the start of
    // playback when opened at the first request (bench/HISTORY.md).
    void action.setPopup({ tabId, popup: POPUP }).catch(ignore('setting the popup'));
    const open = () =>
      void action
        .openPopup()
        .catch(ignore('opening the popup'))
        .finally(() => void action.setPopup({ tabId, popup: '' }).catch(ignore('setting the popup')));
    const openWhenUnderWay = (starts: boolean) => {
      // Another reading is under way: the popup offers to stop it, and its play button then reads this page.
      if (!starts) void readyTab(tabId, tab);
      if (import.meta.env.FIREFOX) return;
      if (!starts) return open();
      // Read before the reading's first view: the views after it are this reading's. Opened once its view
      // is written: the popup reads the stored view when it opens, and must find the one waited for.
      void underWay(views.add, reader.view.id, ['extracting', 'loading'], popupWaitMs).then(open);
    };
    void reader.startUnlessActive(readingOf({ kind: 'tab', tabId, clicked: tab }), openWhenUnderWay);
    if (import.meta.env.FIREFOX) open();
  };
  listen(signal, action.onClicked, (tab: Browser.tabs.Tab) => onToolbarClick(tab));
  // Tests cannot click the toolbar; they call this from the worker's console, with the popup's latest
  // opening as a second argument where a busy machine could reach it before the audio (test builds only).
  diagnostics.expose({ toolbarClick: onToolbarClick });
}
