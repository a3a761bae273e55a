import { defineBackground } from 'wxt/utils/define-background';
import { browser, type Browser } from 'wxt/browser';
import { i18n } from '#i18n';
import { ignore } from '@/utils/log';
import { saveAndCheck, settingsView } from '@/utils/speech/account';
import { backgroundPlayerSink } from '@/utils/audio/page-sink';
import { PlayerStats } from '@/utils/audio/mse-player';
import { diagnostics } from '@/utils/diagnostics/wired';
import { onPageMessage, type ReadingCommand, type SaveSettingsInput } from '@/utils/messaging/protocol';
import { offscreenPlayerSink } from '@/utils/audio/offscreen-sink';
import { audioCache, checkAccount, createReader, forgetAuth, hasOriginPermission, usageHistory, warmAuth } from '@/utils/reading/wiring';
import { clearApiKey } from '@/utils/storage/key-store';
import { extractFromTab, loadTabTextState, readyTab } from '@/utils/reading/tab-text';
import type { ReadingView } from '@/utils/reading/state';
import { accountStorage } from '@/utils/storage/settings';
import { isNoReceiver, sendToPage } from '@/utils/messaging/content';
import { floatingCommandOf, onPageUiMessage } from '@/utils/messaging/page-ui';
import { FloatingLink } from '@/utils/reading/floating';
import { type ScriptRegistry, syncClickToRead } from '@/utils/reading/page-scripts';
import { listeningQueue } from '@/utils/reading/queue-wiring';
import { DEFAULT_PAGE_OPTIONS, floatingPlaceStorage, type PageOptions, pageOptionsStorage, placeOf } from '@/utils/storage/page-options';

const MENU_READ_SELECTION = 'read-selection';
const MENU_READ_FROM_HERE = 'read-from-here';
const MENU_QUEUE_LINK = 'queue-add-link';
const MENU_QUEUE_PAGE = 'queue-add-page';
/** The popup the toolbar button opens for its click: it shows the reading the click started, and starts none. */
const POPUP = 'popup.html?from=toolbar';
/** Chrome: the toolbar's popup opens at the latest this long after the click, playing or not. */
const POPUP_WAIT_MS = 1_000;

export default defineBackground({
  // Firefox (MV2): a persistent page, so the audio playing in it is never cut by an idle timeout.
  persistent: true,
  main,
});

function main() {
  // Content scripts get no access to storage.local, where the service address lives (Chromium; Firefox
  // has no such switch for storage.local, and the key's origin binding, checked before every request, is
  // what protects it there).
  if (!import.meta.env.FIREFOX) {
    void browser.storage.local.setAccessLevel({ accessLevel: 'TRUSTED_CONTEXTS' }).catch(ignore('closing storage.local to content scripts'));
  }
  // The key and the address are checked now, not at the first click.
  warmAuth();
  // The floating mini-player on the page being read: its options and place, kept at hand for every view.
  let pageOptions: PageOptions = DEFAULT_PAGE_OPTIONS;
  let place = null as ReturnType<typeof placeOf>;
  const floating = new FloatingLink({
    // Its script is injected on first use, once the reading is under way (never while the text is found).
    send: async (tabId, view, at) => {
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
  /** Called with each new view of the reading and its write (the toolbar's popup waits for its reading to be under way). */
  const viewWaiters = new Set<(view: ReadingView, written: Promise<void>) => void>();
  // Chrome plays in an offscreen document; Firefox has none and plays in this page.
  const reader = createReader(
    import.meta.env.FIREFOX ? inPagePlayer((event) => void reader.onPlayerEvent(event)) : offscreenPlayerSink(),
    (view, written) => {
      for (const waiter of viewWaiters) waiter(view, written);
      floating.onView(view);
      void queue.onView(view).catch(ignore('the listening queue'));
    },
  );
  const { queue, addToQueue } = listeningQueue(reader);
  // Which pages have the extract script, read now rather than on the way to a first request.
  void loadTabTextState().catch(ignore('reading which pages have the extract script'));
  // One registration change at a time: a quick off-and-on must not register twice.
  let scriptsSynced = Promise.resolve();
  const followPageOptions = (options: PageOptions | null) => {
    pageOptions = { ...DEFAULT_PAGE_OPTIONS, ...options };
    floating.refresh(reader.view);
    const on = pageOptions.clickToRead;
    scriptsSynced = scriptsSynced.then(() => syncClickToRead(browser.scripting as unknown as ScriptRegistry, on)).catch(ignore('registering click-to-read'));
  };
  void pageOptionsStorage.getValue().then(followPageOptions, ignore('reading the page options'));
  pageOptionsStorage.watch(followPageOptions);
  void floatingPlaceStorage.getValue().then((p) => (place = placeOf(p)), ignore('reading the mini-player place'));

  // The mini-player's controls: taken only from the extension's content script in the tab being read.
  const readingTab = (tabId: number) => tabId === reader.view.tabId;
  // The popup's commands (`command` below) and the mini-player's are the same few.
  const runCommand = (command: ReadingCommand) => {
    switch (command) {
      case 'pause':
        return reader.pause();
      case 'resume':
        return reader.resume();
      case 'toggle':
        return reader.toggle();
      case 'stop':
        return reader.stop();
      case 'next':
        return reader.jump(1);
      case 'prev':
        return reader.jump(-1);
      case 'confirm':
        return reader.confirm();
    }
  };
  onPageUiMessage('floatingCommand', readingTab, ({ data }) => {
    const command = floatingCommandOf(data.command);
    if (!command) throw new Error('refused');
    return runCommand(command);
  });
  onPageUiMessage('floatingRate', readingTab, async ({ data }) => {
    if (typeof data.rate === 'number') await reader.setPlayback({ rate: data.rate });
  });
  // Click-to-read's ▶, in any tab: the page reader there already knows the block it was clicked at.
  onPageUiMessage('readFromHere', () => true, ({ sender }) => {
    const tabId = sender.tab!.id!;
    void reader.start({ tabId, source: 'article', extract: () => extractFromTab(tabId, { mode: 'from-here' }) });
  });
  onPageUiMessage('floatingMoved', readingTab, async ({ data }) => {
    const at = placeOf(data.place);
    if (!at) return;
    place = at;
    await floatingPlaceStorage.setValue(at);
  });

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
  };
  // Chrome keeps menus across worker restarts (create once); Firefox forgets a persistent page's menus
  // when the page ends, so they are made at every start.
  if (import.meta.env.FIREFOX) void browser.contextMenus.removeAll().then(createMenus);
  else browser.runtime.onInstalled.addListener(createMenus);

  const onMenuClick = (info: Browser.contextMenus.OnClickData, tab?: Browser.tabs.Tab) => {
    if (tab?.id === undefined) return;
    const tabId = tab.id;
    if (info.menuItemId === MENU_READ_SELECTION) {
      void reader.start({ tabId, source: 'selection', extract: () => extractFromTab(tabId, { menuSelection: info.selectionText ?? '', clicked: tab }) });
    } else if (info.menuItemId === MENU_READ_FROM_HERE) {
      void reader.start({ tabId, source: 'article', extract: () => extractFromTab(tabId, { mode: 'from-here', clicked: tab }) });
    } else if (info.menuItemId === MENU_QUEUE_LINK && info.linkUrl) {
      addToQueue(info.linkUrl, (info as { linkText?: string }).linkText ?? '');
    } else if (info.menuItemId === MENU_QUEUE_PAGE && tab.url) {
      addToQueue(tab.url, tab.title ?? '');
    }
  };
  browser.contextMenus.onClicked.addListener(onMenuClick);
  // The native menu cannot be clicked by tests; they call this from the worker's own console (test builds only).
  diagnostics.expose({ contextMenuClick: onMenuClick });

  const onCommand = async (command: string, tab?: Browser.tabs.Tab) => {
    switch (command) {
      case 'read': {
        const tabId = tab?.id ?? (await browser.tabs.query({ active: true, currentWindow: true }))[0]?.id;
        if (tabId === undefined) return;
        return reader.start({ tabId, source: '', extract: () => extractFromTab(tabId, { clicked: tab }) });
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
  browser.commands.onCommand.addListener((command, tab) => void onCommand(command, tab));

  // The toolbar button: the reading starts here, at the click, and the popup opens for this click only
  // (its page loading is then no longer on the way to the first audio). The popup's own start finds
  // this one and leaves it alone. MV2 (Firefox) names it browserAction.
  const action = browser.action ?? browser.browserAction;
  const onToolbarClick = (tab: Browser.tabs.Tab, popupWaitMs = POPUP_WAIT_MS) => {
    if (tab.id === undefined) return;
    const tabId = tab.id;
    // The popup is set for this tab and opened, then unset again, so the next click comes here too.
    // Firefox opens a popup only in the click itself. Chrome opens it later: once the audio plays (or the
    // reading asks first, or fails), or at once when the click starts nothing (a reading is under way).
    // Its page's load (60–100 ms of work) competed with the extraction when opened at the click, and
    // with the start of playback when opened at the first request (+65 ms).
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
      // Called before the reading's first view: the views after it are this reading's.
      const before = reader.view.id;
      // Opened once, after `written`: the popup reads the stored view when it opens, and must find the one waited for.
      const openAfter = (written: Promise<void>) => {
        viewWaiters.delete(waiter);
        clearTimeout(timer);
        void written.catch(() => undefined).then(open);
      };
      const waiter = (view: ReadingView, written: Promise<void>) => {
        if (view.id !== before && view.state !== 'extracting' && view.state !== 'loading') openAfter(written);
      };
      const timer = setTimeout(() => openAfter(Promise.resolve()), popupWaitMs);
      viewWaiters.add(waiter);
    };
    void reader.startUnlessActive({ tabId, source: '', extract: () => extractFromTab(tabId, { clicked: tab }) }, openWhenUnderWay);
    if (import.meta.env.FIREFOX) open();
  };
  action.onClicked.addListener((tab) => onToolbarClick(tab));
  // Tests cannot click the toolbar; they call this from the worker's console, with the popup's latest
  // opening as a second argument where a busy machine could reach it before the audio (test builds only).
  diagnostics.expose({ toolbarClick: onToolbarClick });
  // Tests cannot press browser-level shortcuts; they call the handler from the worker's console (test builds only).
  diagnostics.expose({ commandHandler: onCommand });

  onPageMessage('getSettings', () => {
    return settingsView();
  });
  const saveSettings = async (data: SaveSettingsInput) => {
    forgetAuth();
    const result = await saveAndCheck(data, { check: checkAccount, hasPermission: hasOriginPermission });
    forgetAuth();
    return result;
  };
  onPageMessage('saveSettings', ({ data }) => saveSettings(data));
  // Tests save the key and the address as the options page's Save does, over the settings shown, without
  // loading that page (about 1 s a test); the page has tests of its own (test builds only).
  diagnostics.expose({ saveSettings: async (changes: Partial<SaveSettingsInput>) => saveSettings({ ...(await settingsView()).settings, key: '', ...changes }) });
  onPageMessage('clearHistory', () => {
    return usageHistory.clear();
  });
  onPageMessage('removeKey', async () => {
    await reader.stop({ drop: true });
    await clearApiKey();
    forgetAuth();
    await audioCache.clear();
    await accountStorage.setValue(null);
    return settingsView();
  });
  onPageMessage('startReading', ({ data }) => {
    const req = { tabId: data.tabId, source: '' as const, extract: () => extractFromTab(data.tabId) };
    if (data.force) {
      void reader.start(req);
      return { starts: true };
    }
    // Answered once decided: the popup shows the new reading at once, not the last one's end until its first view.
    return new Promise<{ starts: boolean }>((answer) => {
      const decided = (starts: boolean) => {
        answer({ starts });
        if (!starts) void readyTab(data.tabId);
      };
      reader.startUnlessActive(req, decided).catch((err: unknown) => {
        // Failed before deciding, nothing started (after it, the answer was given: only logged).
        answer({ starts: false });
        ignore('starting a reading')(err);
      });
    });
  });
  onPageMessage('command', ({ data }) => runCommand(data.command));
  onPageMessage('jumpTo', ({ data }) => {
    return reader.jumpTo(data.part);
  });
  onPageMessage('resumeFromOffer', () => {
    return reader.resumeFromOffer();
  });
  onPageMessage('setBlockOn', ({ data }) => {
    return reader.setBlockOn(data.block, data.on);
  });
  onPageMessage('setPlayback', ({ data }) => {
    return reader.setPlayback(data);
  });
  onPageMessage('setSleepTimer', ({ data }) => {
    return reader.setSleepTimer(data.minutes, data.atEnd === true);
  });
  onPageMessage('saveEstimate', () => {
    return reader.saveEstimate();
  });
  onPageMessage('fetchForSave', ({ data }) => {
    return reader.fetchMissing(data);
  });
  onPageMessage('queue', ({ data }) => {
    if (data.action === 'play') return queue.play();
    if (data.action === 'move') return queue.move(data.id, data.delta);
    return queue.remove(data.id);
  });
  onPageMessage('playerEvent', ({ data }) => {
    void reader.onPlayerEvent(data);
  });
}

function inPagePlayer(onEvent: Parameters<typeof backgroundPlayerSink>[0]) {
  const sink = backgroundPlayerSink(onEvent, diagnostics.counters(() => new PlayerStats()));
  // Test builds only: reachable from the background page (tests, benchmarks) as `player`, as in Chrome's offscreen document.
  diagnostics.expose({ player: sink.player });
  return sink;
}
