import type { ControlAct, ControlHost, ControlSeen } from '../fixtures/page-control.ts';
import { test as base, expect, type BrowserContext, type Page, type Worker } from '@playwright/test';
import { startFakeService, type FakeService, type FakeServiceOptions } from '../fake-service/server.ts';
import { launchWithExtension, serviceWorkerOf } from './chromium.ts';
import { pagesOnService, type PagesServer } from './pages-server.ts';

export const TEST_KEY = 'vk_live_test_key';

export interface ExtensionFixtures {
  /** Options for the fake service of this test (override with test.use). */
  serviceOptions: FakeServiceOptions;
  /** The browser's language, e.g. 'ru-RU' (override with test.use). */
  browserLocale: string | undefined;
  service: FakeService;
  pages: PagesServer;
  context: BrowserContext;
  sw: Worker;
  extensionId: string;
  ext: ExtensionHelpers;
}

export interface ExtensionHelpers {
  url(path: string): string;
  openOptions(): Promise<Page>;
  /**
   * Saves key and base URL (and a voice or threshold) as the options page's Save does, over the settings
   * already saved, and waits for the account check; through the worker's test hook, not the page (options.spec.ts tests that).
   */
  configure(opts?: { key?: string; baseUrl?: string; voice?: string; threshold?: string; dailyCap?: string }): Promise<void>;
  /** Opens a page (a fixture path on the pages server, or a full URL) and returns it with its tab id. */
  openTab(pathOrUrl: string): Promise<{ page: Page; tabId: number }>;
  openPopup(tabId: number): Promise<Page>;
  /** Calls the context menu's click handler as Chrome would for a selection (the native menu cannot be clicked). */
  menuClick(tabId: number, selectionText: string, menuItemId?: string): Promise<void>;
  /** Stops the extension's service worker through the DevTools protocol, as Chrome does after 30 s idle. */
  stopServiceWorker(): Promise<void>;
  /** The live service worker (a new one after a stop, started by the next event). */
  serviceWorker(): Promise<Worker>;
  /**
   * The reading as the background last saved it (`id`, `state`, `source`; {} before any). Watched
   * here, not through a popup, when a popup opened after a short reading's end would start another.
   */
  readingView(): Promise<ReadingViewSeen>;
  /**
   * The background's test diagnostics (utils/diagnostics/wired-test.ts): `holdAt` a point, how many times
   * the code `reached` it while held, `release` it.
   */
  diagnostics(call: 'holdAt' | 'reached' | 'release', point: string): Promise<number>;
  /** One of the extension's controls on tab `tabId`'s page, seen from the extension's own world (`tests/fixtures/page-control.ts`). */
  control(tabId: number, host: ControlHost, testId: string, act?: ControlAct): Promise<ControlSeen | null>;
}

export interface ReadingViewSeen {
  id?: string;
  state?: string;
  source?: string;
  estimateChars?: number;
  parts?: number;
  /** What the reading says beside its state (`incomplete`: the article's rest could not be had). */
  notice?: { code: string };
}

export const test = base.extend<ExtensionFixtures>({
  serviceOptions: [{}, { option: true }],
  browserLocale: [undefined, { option: true }],
  service: async ({ serviceOptions }, use) => {
    const service = await startFakeService(serviceOptions);
    await use(service);
    await service.close();
  },
  // At the service's own address: a queued link on this machine is read only from there (`localReachable`).
  pages: async ({ service }, use) => {
    const pages = pagesOnService(service);
    await use(pages);
    await pages.close();
  },
  // A fresh profile for every test: nothing leaks from one test to the next.
  context: async ({ browserLocale }, use) => {
    const launched = await launchWithExtension({ locale: browserLocale });
    await use(launched.context);
    await launched.close();
  },
  sw: async ({ context }, use) => {
    await use(await serviceWorkerOf(context));
  },
  extensionId: async ({ sw }, use) => {
    await use(new URL(sw.url()).host);
  },
  ext: async ({ context, sw, extensionId, service, pages }, use) => {
    await use(extensionHelpers(context, sw, extensionId, service, pages));
  },
});


export { expect };

/** The popup's player element, whose data-* attributes are the test surface. */
export const player = (popup: Page) => popup.getByTestId('player');

/**
 * Waits for a reading other than `before` (an id from `readingView`) to reach `state`. A popup opened over a page
 * whose last reading has ended shows that reading until the new one it asked for has started.
 */
export async function newReadingReaches(ext: ExtensionHelpers, before: string | undefined, state = 'finished'): Promise<void> {
  await expect.poll(async () => { const v = await ext.readingView(); return v.id !== before && v.state; }, { timeout: 30_000 }).toBe(state);
}

/** Every state the popup's player was drawn in, from its first frame on (test builds record them: entrypoints/popup/main.tsx). */
export const drawnStates = (popup: Page): Promise<string[]> => popup.evaluate(() => (globalThis as unknown as { drawnStates?: string[] }).drawnStates ?? []);

/**
 * Whether the worker has made the context menu item `id` (an update of it succeeds). The menus are
 * made in `onInstalled`, which can run after the worker is already reachable: wait on this with
 * `expect.poll` rather than assume it.
 */
export const menuItemExists = (sw: Worker, id: string) =>
  sw.evaluate((id) => chrome.contextMenus.update(id, {}).then(() => true, () => false), id);

/**
 * The helpers of one launched browser with the extension: the fixture's own, or (a browser restarted on the
 * same profile) those of the next launch.
 */
export function extensionHelpers(context: BrowserContext, sw: Worker, extensionId: string, service: FakeService, pages: PagesServer): ExtensionHelpers {
  const url = (path: string) => `chrome-extension://${extensionId}/${path.replace(/^\//, '')}`;
  const helpers: ExtensionHelpers = {
    url,
    async openOptions() {
      const page = await context.newPage();
      await page.goto(url('options.html'));
      return page;
    },
    async configure(opts = {}) {
      const worker = await helpers.serviceWorker();
      const changes = {
        key: opts.key ?? TEST_KEY,
        baseUrl: opts.baseUrl ?? service.url,
        ...(opts.voice !== undefined ? { voice: opts.voice } : {}),
        ...(opts.threshold !== undefined ? { confirmThresholdRub: opts.threshold } : {}),
        ...(opts.dailyCap !== undefined ? { dailyCapRub: opts.dailyCap } : {}),
      };
      const result = await worker.evaluate((changes) => {
        const save = (globalThis as { saveSettings?: (c: object) => Promise<{ ok: boolean; code?: string }> }).saveSettings;
        if (!save) throw new Error('saveSettings is missing: run the tests on the test build (npx wxt build --mode test)');
        return save(changes);
      }, changes);
      if (!result.ok) throw new Error(`The settings were refused: ${result.code}`);
    },
    async openTab(pathOrUrl) {
      const target = /^[a-z-]+:/.test(pathOrUrl) ? pathOrUrl : `${pages.url}/${pathOrUrl.replace(/^\//, '')}`;
      const page = await context.newPage();
      await page.goto(target);
      const tabId = await sw.evaluate(async (u) => {
        const tabs = await chrome.tabs.query({});
        // Without the "tabs" permission a browser page's URL is hidden: it is then the newest tab.
        return tabs.find((t) => t.url === u)?.id ?? Math.max(...tabs.map((t) => t.id ?? -1));
      }, page.url());
      expect(tabId).toBeGreaterThan(0);
      return { page, tabId };
    },
    async openPopup(tabId) {
      const page = await context.newPage();
      await page.goto(url(`popup.html?tabId=${tabId}`));
      return page;
    },
    async stopServiceWorker() {
      // From an extension page's DevTools session, the way chrome://serviceworker-internals stops a worker.
      const page = await context.newPage();
      await page.goto(url('options.html'));
      const cdp = await context.newCDPSession(page);
      const stopped = new Promise<void>((ok) =>
        cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
          if (versions.some((v) => v.scriptURL.includes(extensionId) && v.runningStatus === 'stopped')) ok();
        }),
      );
      await cdp.send('ServiceWorker.enable');
      await cdp.send('ServiceWorker.stopAllWorkers');
      await stopped;
      await cdp.detach().catch(() => undefined);
      await page.close();
    },
    async serviceWorker() {
      return (
        context.serviceWorkers().find((w) => w.url().includes(extensionId)) ??
        (await context.waitForEvent('serviceworker', { predicate: (w) => w.url().includes(extensionId) }))
      );
    },
    async readingView() {
      const sw = await helpers.serviceWorker();
      return sw.evaluate(async () => ((await chrome.storage.session.get('reading-view'))['reading-view'] ?? {}) as ReadingViewSeen);
    },
    async diagnostics(call, point) {
      const sw = await helpers.serviceWorker();
      return sw.evaluate(
        ([call, point]) => Number((globalThis as unknown as { diagnostics: Record<string, (p: string) => unknown> }).diagnostics[call]!(point) ?? 0),
        [call, point] as const,
      );
    },
    async control(tabId, host, testId, act = {}) {
      const sw = await helpers.serviceWorker();
      return sw.evaluate(
        async ({ tabId, host, testId, act }) => {
          const [done] = await chrome.scripting.executeScript({
            target: { tabId },
            world: 'ISOLATED',
            args: [host, testId, act],
            func: (host: string, testId: string, act: { focus?: boolean; value?: string }) => {
              const el = document.querySelector(host);
              const root = el && chrome.dom.openOrClosedShadowRoot(el as HTMLElement);
              const found = root?.querySelector<HTMLElement>(`[data-testid="${testId}"]`);
              if (!el || !root || !found) return null;
              if (act.focus) found.focus();
              if (act.value !== undefined && found instanceof HTMLSelectElement) {
                found.value = act.value;
                found.dispatchEvent(new Event('change', { bubbles: true }));
              }
              const r = found.getBoundingClientRect();
              return {
                box: { x: r.x, y: r.y, width: r.width, height: r.height },
                attrs: Object.fromEntries([...found.attributes].map((a) => [a.name, a.value])),
                hidden: found.hidden || !found.checkVisibility(),
                focused: root.activeElement === found,
                openToPage: el.shadowRoot !== null,
              };
            },
          });
          return (done?.result ?? null) as ControlSeen | null;
        },
        { tabId, host, testId, act },
      );
    },
    async menuClick(tabId, selectionText, menuItemId = 'read-selection') {
      const sw = await helpers.serviceWorker();
      const readingId = async () => (await helpers.readingView()).id ?? '';
      const before = await readingId();
      await sw.evaluate(
        async ({ tabId, selectionText, menuItemId }) => {
          const tab = await chrome.tabs.get(tabId);
          const hook = (globalThis as { contextMenuClick?: (i: object, t: object) => void }).contextMenuClick;
          // Only the test build (`wxt build --mode test`) has the hook.
          if (!hook) throw new Error('contextMenuClick is missing: run the tests on the test build (npx wxt build --mode test)');
          hook({ menuItemId, selectionText, editable: false, pageUrl: tab.url }, tab);
        },
        { tabId, selectionText, menuItemId },
      );
      // The click starts a new reading; a popup opened before it shows would start one of its own.
      await expect.poll(readingId).not.toBe(before);
    },
  };
  return helpers;
}
