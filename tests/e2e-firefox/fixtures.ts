import type { ControlAct, ControlHost, ControlSeen } from '../fixtures/page-control.ts';
import { test as base, expect } from '@playwright/test';
import type { Page } from 'puppeteer-core';
import { startFakeService, type FakeService, type FakeServiceOptions } from '../fake-service/server.ts';
import { pagesOnService, type PagesServer } from '../e2e/pages-server.ts';
import { click, evaluate, type LaunchedFirefox, launchFirefoxWithExtension, openExtensionPage, openPage } from './firefox.ts';

export const TEST_KEY = 'vk_live_test_key';

/**
 * The Playwright test runner drives firefox-esr through puppeteer-core (Playwright
 * cannot drive stock Firefox). Pages are observed through the same CONTRACT.md
 * attributes as in Chrome, polled with `expect.poll`.
 */
export interface FirefoxFixtures {
  serviceOptions: FakeServiceOptions;
  service: FakeService;
  pages: PagesServer;
  firefox: LaunchedFirefox;
  ext: FirefoxHelpers;
}

export interface FirefoxHelpers {
  url(path: string): string;
  openOptions(): Promise<Page>;
  /**
   * Saves key and base URL (and a threshold) as the options page's Save does, over the settings already
   * saved, and waits for the account check; through the background's test hook, not the page (which has tests of its own).
   */
  configure(opts?: { key?: string; baseUrl?: string; threshold?: string; dailyCap?: string }): Promise<void>;
  /** Opens a fixture page by path, or any URL. */
  openTab(pathOrUrl: string): Promise<{ page: Page; tabId: number }>;
  openPopup(tabId: number): Promise<Page>;
  /** Runs the background's context-menu handler, as Firefox would on a click (the native menu is out of reach). */
  menuClick(tabId: number, selectionText: string, menuItemId?: string): Promise<void>;
  /**
   * The reading as the background last saved it (`id`, `state`, `source`; {} before any). Watched
   * here, not through a popup, when a popup opened after a short reading's end would start another.
   */
  readingView(): Promise<ReadingViewSeen>;
  /**
   * An extension page kept open for evaluating in: it has the `browser` API, and
   * `browser.runtime.getBackgroundPage()` gives the background's window (MV2).
   */
  extensionPage(): Promise<Page>;
  /**
   * The background's test diagnostics (utils/diagnostics/wired-test.ts): `holdAt` a point, how many times
   * the code `reached` it while held, `release` it.
   */
  diagnostics(call: 'holdAt' | 'reached' | 'release', point: string): Promise<number>;
  /** One of the extension's controls on tab `tabId`'s page, seen from the extension's own world (`tests/fixtures/page-control.ts`). */
  control(tabId: number, host: ControlHost, testId: string, act?: ControlAct): Promise<ControlSeen | null>;
}

/** An attribute of the element with `data-testid=testId` ('' while it is missing). */
export const attr = (page: Page, testId: string, name: string): Promise<string> =>
  evaluate(page, (t: string, n: string) => document.querySelector(`[data-testid="${t}"]`)?.getAttribute(n) ?? '', testId, name);

export const state = (popup: Page) => attr(popup, 'player', 'data-state');

/** Every state the popup's player was drawn in, from its first frame on (test builds record them: entrypoints/popup/main.tsx). */
export const drawnStates = (popup: Page): Promise<string[]> => evaluate(popup, () => (globalThis as unknown as { drawnStates?: string[] }).drawnStates ?? []);

/**
 * Each test's Firefox is closed while the next test runs (a close took about a quarter of a launch here); the
 * worker waits for every close before it ends. A spare launched ahead, while a test ran, saved next to nothing on
 * two cores: the suite's time is the processors' (bench/HISTORY.md, 2026-12-02).
 */
type Closing = Set<Promise<void>>;

export const test = base.extend<FirefoxFixtures, { closing: Closing }>({
  closing: [
    async ({}, use) => {
      const closing: Closing = new Set();
      await use(closing);
      await Promise.all(closing);
    },
    { scope: 'worker' },
  ],
  serviceOptions: [{}, { option: true }],
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
  // A fresh profile for every test, as in the Chromium suite.
  firefox: async ({ closing }, use) => {
    const launched = await launchFirefoxWithExtension();
    await use(launched);
    const closed = launched.close().finally(() => closing.delete(closed));
    closing.add(closed);
  },
  ext: async ({ firefox, service, pages }, use) => {
    await use(extensionHelpers(firefox, service, pages));
  },
});

/** The helpers for one running Firefox (a test that restarts Firefox makes them again). */
export function extensionHelpers(firefox: LaunchedFirefox, service: FakeService, pages: PagesServer): FirefoxHelpers {
  const { browser } = firefox;
  const url = (path: string) => firefox.base + path.replace(/^\//, '');
  let helperPage: Page | null = null;
  const helpers: FirefoxHelpers = {
    url,
    openOptions: () => openExtensionPage(browser, url('options.html')),
    async configure(opts = {}) {
      const changes = {
        key: opts.key ?? TEST_KEY,
        baseUrl: opts.baseUrl ?? service.url,
        ...(opts.threshold !== undefined ? { confirmThresholdRub: opts.threshold } : {}),
        ...(opts.dailyCap !== undefined ? { dailyCapRub: opts.dailyCap } : {}),
      };
      const result = await evaluate(
        await helpers.extensionPage(),
        async (changes: object) => {
          const bg = (await (globalThis as unknown as Ext).browser.runtime.getBackgroundPage()) as unknown as Partial<Hooks>;
          if (!bg.saveSettings) throw new Error('saveSettings is missing: run the tests on the test build (npx wxt build -b firefox --mode test)');
          // A copy made in the background's own compartment, as a message would arrive.
          const { ok, code } = await bg.saveSettings!((bg as unknown as typeof globalThis).JSON.parse(JSON.stringify(changes)) as object);
          return { ok, code };
        },
        changes,
      );
      if (!result.ok) throw new Error(`The settings were refused: ${result.code}`);
    },
    async openTab(path) {
      const target = /^[a-z-]+:/.test(path) ? path : `${pages.url}/${path.replace(/^\//, '')}`;
      const page = await openPage(browser, target);
      const tabId = await evaluate(await helpers.extensionPage(), async (u: string) => {
        const tabs = await (globalThis as unknown as Ext).browser.tabs.query({});
        // Without the "tabs" permission a browser page's URL is hidden: it is then the newest tab.
        return tabs.find((t) => t.url === u)?.id ?? Math.max(...tabs.map((t) => t.id ?? -1));
      }, target);
      expect(tabId).toBeGreaterThan(0);
      return { page, tabId };
    },
    openPopup: (tabId) => openExtensionPage(browser, url(`popup.html?tabId=${tabId}`)),
    readingView: async () =>
      evaluate(await helpers.extensionPage(), async () => {
        const saved = await (globalThis as unknown as Ext).browser.storage.session.get('reading-view');
        return (saved['reading-view'] ?? {}) as ReadingViewSeen;
      }),
    async menuClick(tabId, selectionText, menuItemId = 'read-selection') {
      const page = await helpers.extensionPage();
      const readingId = async () => (await helpers.readingView()).id ?? '';
      const before = await readingId();
      await evaluate(
        page,
        async (tabId: number, selectionText: string, menuItemId: string) => {
          const { browser } = globalThis as unknown as Ext;
          const bg = (await browser.runtime.getBackgroundPage()) as unknown as Hooks;
          const tab = await browser.tabs.get(tabId);
          bg.contextMenuClick({ menuItemId, selectionText, editable: false, pageUrl: tab.url }, tab);
        },
        tabId,
        selectionText,
        menuItemId,
      );
      // The click starts a new reading; a popup opened before it shows would start one of its own.
      await expect.poll(readingId).not.toBe(before);
    },
    async diagnostics(call, point) {
      return evaluate(
        await helpers.extensionPage(),
        async (call: string, point: string) => {
          const bg = (await (globalThis as unknown as Ext).browser.runtime.getBackgroundPage()) as unknown as { diagnostics: Record<string, (p: string) => unknown> };
          return Number(bg.diagnostics[call]!(point) ?? 0);
        },
        call,
        point,
      );
    },
    async control(tabId, host, testId, act = {}) {
      return evaluate(
        await helpers.extensionPage(),
        async (tabId: number, host: string, testId: string, act: ControlAct) => {
          const [done] = await (globalThis as unknown as Ext).browser.scripting.executeScript({
            target: { tabId },
            args: [host, testId, act],
            // In the extension's content-script world, where Firefox lets it open a closed shadow root.
            func: (host: string, testId: string, act: ControlAct) => {
              const el = document.querySelector(host) as (HTMLElement & { openOrClosedShadowRoot?: ShadowRoot | null }) | null;
              const root = el?.openOrClosedShadowRoot;
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
        tabId,
        host,
        testId,
        act,
      );
    },
    async extensionPage() {
      if (!helperPage || helperPage.isClosed()) helperPage = await openExtensionPage(browser, url('options.html'));
      return helperPage;
    },
  };
  return helpers;
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

/** What evaluated functions find on an extension page's global, and on the background page's (test build only). */
export type Ext = { browser: typeof chrome };
export interface Hooks {
  contextMenuClick(info: object, tab: object): void;
  /** Saves settings as the options page's Save does, over those already saved. */
  saveSettings(changes: object): Promise<{ ok: boolean; code?: string }>;
  commandHandler(name: string, tab?: object): Promise<void>;
  player: { stats: { waiting: number; firstPlayingAt: number; endedAt: number; loads: number } };
}

/**
 * Types `value` into an empty input, as a user would (Preact sees the input events). On a loaded
 * machine a keystroke can be lost while the page re-renders: the value is checked and typed again.
 */
export async function fill(page: Page, testId: string, value: string): Promise<void> {
  const sel = `[data-testid="${testId}"]`;
  for (let attempt = 0; attempt < 3; attempt++) {
    await evaluate(page, (s: string) => void ((document.querySelector(s) as HTMLInputElement).value = ''), sel);
    await page.type(sel, value);
    if ((await evaluate(page, (s: string) => (document.querySelector(s) as HTMLInputElement).value, sel)) === value) return;
  }
  throw new Error(`"${value}" could not be typed into ${testId}`);
}

/**
 * Presses the options page's Save and waits for its "Saved": the account shown before the press says
 * nothing of this save, and a reading started before it is stored would use the settings before.
 */
export async function saveOptions(options: Page): Promise<void> {
  await click(options, '[data-testid="save"]');
  await options.waitForSelector('.ok');
}

/** Runs the background's context-menu handler (test build) on tab `tabId` as a click on `info.menuItemId` would (the queue's items). */
export async function contextMenu(ext: Pick<FirefoxHelpers, 'extensionPage'>, tabId: number, info: Record<string, unknown>): Promise<void> {
  await evaluate(
    await ext.extensionPage(),
    async (tabId: number, info: Record<string, unknown>) => {
      const { browser } = globalThis as unknown as Ext;
      const bg = (await browser.runtime.getBackgroundPage()) as unknown as Hooks;
      const tab = await browser.tabs.get(tabId);
      bg.contextMenuClick({ editable: false, pageUrl: tab.url, ...info }, tab);
    },
    tabId,
    info,
  );
}

export { expect };
