/**
 * The extension's controls on web pages: the floating mini-player on the page being read (its options,
 * its place, its buttons) and click-to-read's ▶ (registered while the options page has it on).
 */
import { browser } from 'wxt/browser';
import { ignore } from '../log';
import { diagnostics } from '../diagnostics/wired';
import { isNoReceiver, sendToPage } from '../messaging/content';
import { floatingCommandOf, onPageMessage } from '../messaging/protocol';
import { FloatingLink } from '../reading/floating';
import { type ScriptRegistry, syncClickToRead } from '../page-text/page-scripts';
import { readingOf } from '../page-text/sources';
import { showsPage } from '../page-text/tab-channel';
import { DEFAULT_PAGE_OPTIONS, floatingPlaceStorage, type PageOptions, pageOptionsStorage, placeOf } from '../storage/page-options';
import { type BackgroundContext, onAbort } from './context';
import { StartRate } from './start-rate';

export function init(signal: AbortSignal, { reader, runCommand, onView }: Pick<BackgroundContext, 'reader' | 'runCommand' | 'onView'>): void {
  // The floating mini-player on the page being read: its options and place, kept at hand for every view.
  let pageOptions: PageOptions = DEFAULT_PAGE_OPTIONS;
  let place = null as ReturnType<typeof placeOf>;
  const floating = new FloatingLink({
    // Its script is injected on first use, once the reading is under way (never while the text is found).
    send: async (tabId, view, at) => {
      // The tab went on to another page: the player is not brought there (it went with the page it was on).
      if (view && !(await showsPage(tabId, reader.pageUrl))) view = null;
      try {
        return await sendToPage('floating', { view, place: at }, tabId);
      } catch (err) {
        if (!view || !isNoReceiver(err)) throw err;
      }
      await browser.scripting.executeScript({ target: { tabId }, files: ['/content-scripts/player.js'] });
      return sendToPage('floating', { view, place: at }, tabId);
    },
    enabled: () => pageOptions.floatingPlayer,
    place: () => place,
  });
  onAbort(
    signal,
    onView((view) => floating.onView(view)),
  );

  // One registration change at a time: a quick off-and-on must not register twice.
  let scriptsSynced = Promise.resolve();
  const followPageOptions = (options: PageOptions | null) => {
    pageOptions = { ...DEFAULT_PAGE_OPTIONS, ...options };
    floating.refresh(reader.view);
    const on = pageOptions.clickToRead;
    scriptsSynced = scriptsSynced.then(() => syncClickToRead(browser.scripting as unknown as ScriptRegistry, on)).catch(ignore('registering click-to-read'));
  };
  void pageOptionsStorage.getValue().then(followPageOptions, ignore('reading the page options'));
  onAbort(signal, pageOptionsStorage.watch(followPageOptions));
  void floatingPlaceStorage.getValue().then((p) => (place = placeOf(p)), ignore('reading the mini-player place'));

  const pageStarts = new StartRate();

  // The mini-player's controls: taken only from the extension's content script in the tab being read.
  const readingTab = (tabId: number) => tabId === reader.view.tabId;
  onAbort(
    signal,
    onPageMessage(
      'floatingCommand',
      ({ data }) => {
        const command = floatingCommandOf(data.command);
        if (!command) throw new Error('refused');
        return runCommand(command);
      },
      readingTab,
    ),
    onPageMessage(
      'floatingRate',
      async ({ data }) => {
        if (typeof data.rate === 'number') await reader.setPlayback({ rate: data.rate });
      },
      readingTab,
    ),
    // Click-to-read's ▶ (its script checked the click was the user's own, on the ▶ as drawn): from a
    // tab's top frame only, one start at a time, and never in place of a reading asking first or saving.
    // Only while click-to-read is on: its script may linger in a page after it was turned off.
    onPageMessage('readFromHere', async ({ sender }) => {
      const tabId = sender.tab?.id;
      const on = (await pageOptionsStorage.getValue().catch(() => null))?.clickToRead === true;
      if (!on || tabId === undefined || sender.frameId !== 0 || !pageStarts.take(Date.now())) {
        diagnostics.mark('page-start:refused');
        throw new Error('refused');
      }
      if (!(await reader.startFromPage(readingOf({ kind: 'tab', tabId, mode: 'from-here' })))) throw new Error('refused');
    }),
    onPageMessage(
      'floatingMoved',
      async ({ data }) => {
        const at = placeOf(data.place);
        if (!at) return;
        place = at;
        await floatingPlaceStorage.setValue(at);
      },
      readingTab,
    ),
  );
}
