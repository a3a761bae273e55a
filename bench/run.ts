/**
 * `npm run bench`: the test build of the extension (`wxt build --mode test`: it has the
 * player's counters) in headless Chromium against the local service; bundle sizes are
 * of the production build. Prints a table and writes bench/results.json. Not part of npm test.
 *
 *   npm run bench                      all measures
 *   npm run bench -- --only first-audio,seams --runs 5 --minutes 10
 *   npm run bench -- --only first-audio,firefox-first-audio --rtt 60   with a 60 ms network round trip
 *   npm run bench -- --only soak,firefox-soak --soak-minutes 30        the soak (bench/soak.ts)
 *   npm run bench -- --ab 1249970 --only first-audio --pairs 5           a ref's build against the working tree's (bench/versus.ts)
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { hashOf } from '../utils/storage/bounds.ts';
import { measureCorpusRecall, measurePages2026, measurePrecision } from './precision.ts';
import { measureArticleBenchmark } from './article-benchmark.ts';
import { measureWordTiming } from './word-timing.ts';
import { measureDecode } from './decode.ts';
import { measureWordMarks, type WordMarkBrowserName } from './word-marks.ts';
import { soakChromium, soakFirefox } from './soak.ts';
import type { BrowserContext, Page, Worker } from 'playwright-core';
import { startFakeService, type FakeService, type FakeServiceOptions } from '../tests/fake-service/server.ts';
import { launchWithExtension, PRODUCTION_EXTENSION_DIR, serviceWorkerOf, type LaunchedBrowser } from '../tests/e2e/chromium.ts';
import { startPagesServer, type PagesServer } from '../tests/e2e/pages-server.ts';
import { makeArticleHtml } from '../tests/fixtures/make-article.ts';
import { selectContents } from '../tests/fixtures/select.ts';
import { BOOK_PAGES, pdfBytes } from '../tests/fixtures/pdfs.ts';
import { splitIntoParts } from '../utils/text/parts.ts';
import { planParts } from '../utils/reading/plan.ts';
import { TargetEvaluator } from './cdp.ts';
import { BIG_BOOK_TITLE, bigEpub, bigFb2 } from './big-books.ts';
import { firefoxFirstAudio, firefoxPdfFirstAudio, firefoxRealPagesFirstAudio, firefoxSeams } from './firefox.ts';
import {
  arg,
  mainThreadRows,
  type MainThreadSeen,
  WATCH_MAIN_THREAD,
  FIRST_AUDIO_SERVICE,
  FIRST_AUDIO_TARGET_MS,
  FIRST_BYTE_MS,
  POPUP_OPENED_TARGET_MS,
  clutteredPage,
  firstAudioPage,
  firstRequestAfter,
  measureRealPages,
  realPage,
  waitForRest,
  serviceFirstByteAfter,
  withServiceMarks,
  serviceIdle,
  collectSteps,
  letSettle,
  pressPlayUntilPlaying,
  KEY,
  median,
  quantile,
  r1,
  results,
  until,
  ROUND_TRIP_MS,
  RUNS,
  rows,
  SEAMS_PAGE,
  SEAMS_SERVICE,
  startExternalService,
  CLEAR_AUDIO_CACHE,
  popupReached,
  type PopupCheck,
  waitInPage,
} from './report.ts';

const ONLY = arg('only', 'first-audio,real-pages,seams,firefox-first-audio,firefox-real-pages,firefox-seams,pdf,firefox-pdf,books,extraction,precision,article-benchmark,word-timing,decode,memory,waste,bundle,soak,firefox-soak').split(',');
const MINUTES = Number(arg('minutes', '60'));
const TRIALS = Number(arg('trials', '20'));
const OFFSCREEN = '/offscreen.html';

/** One browser with the extension set up for a local service. */
class Rig {
  private constructor(
    readonly browser: LaunchedBrowser,
    public sw: Worker,
    readonly id: string,
    readonly service: FakeService,
    readonly pages: PagesServer,
    readonly cdp: TargetEvaluator,
  ) {}

  /**
   * `external`: the service runs in its own process, so its CPU work (encoding
   * long tones) never blocks this process's timers or the browser driver.
   */
  static async start(options: FakeServiceOptions, external = false): Promise<Rig> {
    const service = external ? await startExternalService(options) : await startFakeService(options);
    const pages = await startPagesServer();
    const browser = await launchWithExtension({ args: ['--enable-precise-memory-info'] });
    const sw = await serviceWorkerOf(browser.context);
    const id = new URL(sw.url()).host;
    const rig = new Rig(browser, sw, id, service, pages, await TargetEvaluator.create(browser.context));
    const options_ = await browser.context.newPage();
    await options_.goto(rig.url('options.html'));
    await options_.getByTestId('api-key').fill(KEY);
    await options_.getByTestId('base-url').fill(service.url);
    await options_.getByTestId('confirm-threshold').fill('100000');
    await options_.getByTestId('save').click();
    await options_.getByTestId('account').waitFor();
    await options_.close();
    results.chromium = browser.context.browser()?.version() ?? '';
    return rig;
  }

  get context(): BrowserContext {
    return this.browser.context;
  }

  url(path: string) {
    return `chrome-extension://${this.id}/${path}`;
  }

  async openTab(path: string): Promise<{ page: Page; tabId: number }> {
    const page = await this.context.newPage();
    await page.goto(`${this.pages.url}${path}`);
    const tabId = await this.sw.evaluate(async (u) => (await chrome.tabs.query({ url: u }))[0]?.id ?? -1, page.url());
    await letSettle(page);
    return { page, tabId };
  }

  /** The popup at `popup.html?tabId=N` in a tab of its own, as soon as its page is committed. */
  async openPopupTab(tabId: number): Promise<Page> {
    const popup = await this.context.newPage();
    await popup.goto(this.url(`popup.html?tabId=${tabId}`), { waitUntil: 'commit' });
    return popup;
  }

  /**
   * Opens the popup on a tab; resolves with ms from the popup's navigation start
   * to data-state=playing, read on the page's own clock (polled every 5 ms).
   */
  async popupUntilPlaying(tabId: number): Promise<{ popup: Page; ms: number }> {
    const popup = await this.openPopupTab(tabId);
    const handle = await popup
      .waitForFunction(
        () => document.querySelector('[data-testid="player"]')?.getAttribute('data-state') === 'playing' && performance.now(),
        undefined,
        { timeout: 60_000, polling: 5 },
      )
      .catch(async (err: unknown) => {
        const state = await popup.getByTestId('player').getAttribute('data-state');
        throw new Error(`no playback: state ${state}: ${String(err)}`);
      });
    return { popup, ms: (await handle.jsonValue()) as number };
  }

  /**
   * Opens the popup on a tab as the browser opens a toolbar button's popup (`action.openPopup()`, the tab in
   * front), at `popup.html?tabId=N`: the popup's start script starts the reading. Resolves with ms from the
   * popup's navigation start to the player's `playing` (both wall-clock), that start, and the popup's
   * address for the DevTools protocol (a real popup is not a Playwright page). Opened in a tab instead
   * (`popupUntilPlaying`), a new tab's switch from `about:blank` to the extension's process added 25–40 ms.
   */
  async toolbarPopupUntilPlaying(tabId: number): Promise<{ ms: number; origin: number; popup: string }> {
    const popup = `popup.html?tabId=${tabId}`;
    const calledAt = await this.sw.evaluate(async ({ tabId, popup }) => {
      await chrome.action.setPopup({ tabId, popup });
      const at = performance.timeOrigin + performance.now();
      await chrome.action.openPopup();
      return at;
    }, { tabId, popup });
    const playing = calledAt + (await this.playingAfter(calledAt, 'the popup opened'));
    const origin = await until(() => this.cdp.evaluate<number>(popup, 'performance.timeOrigin'), 10_000);
    if (!origin) throw new Error(`the popup ${popup} did not open`);
    return { ms: playing - origin, origin, popup };
  }

  /** Closes a popup `toolbarPopupUntilPlaying` opened, waits until it is gone, and unsets it for its tab. */
  async closeToolbarPopup(tabId: number, popup: string): Promise<void> {
    await this.cdp.evaluate(popup, 'window.close()');
    await until(async () => !(await this.cdp.has(popup)), 5_000);
    await this.sw.evaluate(async (tabId) => chrome.action.setPopup({ tabId, popup: '' }), tabId);
  }

  /**
   * Starts a reading the way the toolbar button, a shortcut or the context menu does (their handlers,
   * called in the worker: a test cannot press them), and resolves with ms from that call to the player's
   * `playing`, both read as wall-clock time (the worker's and the offscreen document's clocks).
   */
  async hookUntilPlaying(tabId: number, how: 'toolbar' | 'shortcut' | 'menu', selectionText = ''): Promise<{ ms: number; startedAt: number }> {
    const startedAt = await this.sw.evaluate(
      async ({ tabId, how, selectionText }) => {
        const tab = await chrome.tabs.get(tabId);
        const hooks = globalThis as unknown as {
          toolbarClick(t: object): void;
          commandHandler(name: string, t: object): Promise<void>;
          contextMenuClick(info: object, t: object): void;
        };
        const at = performance.timeOrigin + performance.now();
        if (how === 'toolbar') hooks.toolbarClick(tab);
        else if (how === 'shortcut') void hooks.commandHandler('read', tab);
        else hooks.contextMenuClick({ menuItemId: 'read-selection', selectionText, editable: false, pageUrl: tab.url }, tab);
        return at;
      },
      { tabId, how, selectionText },
    );
    return { ms: await this.playingAfter(startedAt, `the ${how} path`), startedAt };
  }

  /**
   * Closes a page read from and the toolbar's popup (`toolbar`: one was opened, and is waited for). The
   * popup, opened over the page once the audio plays, is closed with it: a popup left open renders the
   * next run's reading on the offscreen player's main thread (the same renderer process), which put
   * ~30 ms between the first bytes and `playing` of whichever run came next. It opens a moment after
   * `playing`, so it is waited for, not only looked for.
   */
  async closeAfterStart(page: Page, toolbar: boolean): Promise<void> {
    const isPopup = (p: { url(): string }) => p.url().includes('/popup.html');
    if (toolbar && !this.context.pages().some(isPopup)) {
      await this.context.waitForEvent('page', { predicate: isPopup, timeout: 5_000 }).catch(() => undefined);
    }
    let closedPopup = false;
    for (const p of this.context.pages()) {
      if (!isPopup(p)) continue;
      await p.close();
      closedPopup = true;
    }
    await page.close();
    // Closing it goes on in the browser for a while (the next run's injection took ~15 ms longer): a
    // user does not open a page and start a reading in the very moment a popup closes.
    if (closedPopup) await new Promise((r) => setTimeout(r, 500));
  }

  /** ms from `startedAt` (epoch ms) to the player's first `playing` after it (the offscreen document's mark). */
  async playingAfter(startedAt: number, what: string): Promise<number> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const at = await this.offscreen<number>(waitInPage('player.stats.firstPlayingAt ? performance.timeOrigin + player.stats.firstPlayingAt : 0', startedAt));
      if (at && at > startedAt) return at - startedAt;
      // No offscreen document yet (it is opening): looked for again shortly.
      if (typeof at !== 'number') await new Promise((r) => setTimeout(r, 20));
      if (Date.now() > deadline) {
        const view = await this.sw.evaluate(async () => JSON.stringify((await chrome.storage.session.get('reading-view'))['reading-view'])).catch((e: unknown) => String(e));
        throw new Error(`no playback from ${what}: ${view.slice(0, 300)}`);
      }
    }
  }

  /** The worker's first-step marks (`utils/trace.ts`, test build) so far, emptied for the next start. */
  takeTrace(): Promise<[string, number][]> {
    return this.sw.evaluate(() => {
      const g = globalThis as unknown as { readingTrace?: [string, number][] };
      const trace = g.readingTrace ?? [];
      g.readingTrace = [];
      return trace;
    });
  }

  /** Stops the extension's service worker (as Chrome does after 30 s idle); the next event starts it cold. */
  async stopWorker() {
    const page = await this.context.newPage();
    await page.goto(this.url('options.html'));
    const cdp = await this.context.newCDPSession(page);
    const stopped = new Promise<void>((ok) =>
      cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
        if (versions.some((v) => v.scriptURL.includes(this.id) && v.runningStatus === 'stopped')) ok();
      }),
    );
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    await stopped;
    await cdp.detach().catch(() => undefined);
    await page.close();
  }

  /** The worker running now (after a cold start, a new one). */
  async currentWorker() {
    this.sw = this.context.serviceWorkers().find((w) => w.url().includes(this.id)) ?? (await this.context.waitForEvent('serviceworker', { predicate: (w) => w.url().includes(this.id) }));
    return this.sw;
  }

  async stopFromWorker() {
    await this.sw.evaluate(async () => {
      await (globalThis as unknown as { commandHandler(name: string): Promise<void> }).commandHandler('stop');
    });
    await serviceIdle(this.service.url);
  }

  /** Sets the confirmation threshold on the options page. */
  async setThreshold(rub: string) {
    const options = await this.context.newPage();
    await options.goto(this.url('options.html'));
    await options.getByTestId('account').waitFor();
    await options.getByTestId('confirm-threshold').fill(rub);
    await options.getByTestId('save').click();
    await options.getByTestId('account').waitFor();
    await options.close();
  }

  async stopReading(popup: Page) {
    const clicked = Date.now();
    await popup.getByTestId('stop').click();
    await waitState(popup, ['stopped'], 30_000, 'raf').catch(async (e: unknown) => {
      // Where the stop went in the worker (test builds' marks, the appends left out): asked, the player told, shown.
      const marks = await this.currentWorker()
        .then(() => this.takeTrace())
        .then((trace) => trace.filter(([label, at]) => at >= clicked && label !== 'append').map(([label, at]) => `${label} +${Math.round(at - clicked)} ms`))
        .catch((err: unknown) => [String(err)]);
      throw new Error(`${(e as Error).message}; the worker's marks since the click: ${marks.join(', ') || 'none'}`, { cause: e });
    });
    await serviceIdle(this.service.url);
  }

  offscreen<T>(expression: string) {
    return this.cdp.evaluate<T>(OFFSCREEN, expression);
  }

  async close() {
    await this.browser.close();
    await this.pages.close();
    await this.service.close();
  }
}

const popupState = (popup: Page) =>
  popup.evaluate(() => {
    const el = document.querySelector('[data-testid="player"]')!;
    return { state: el.getAttribute('data-state')!, part: Number(el.getAttribute('data-part')), position: Number(el.getAttribute('data-position')) };
  });

/** Waits for the popup's player to show one of `states`; past `timeout`, the error says what it shows instead. */
async function waitState(popup: Page, states: string[], timeout = 600_000, polling: number | 'raf' = 100) {
  await popup
    .waitForFunction((s) => s.includes(document.querySelector('[data-testid="player"]')?.getAttribute('data-state') ?? ''), states, { timeout, polling })
    .catch(async (e: unknown) => {
      const shown = await popup
        .evaluate(() => {
          const el = document.querySelector('[data-testid="player"]');
          const error = document.querySelector('[data-testid="error"]');
          return el ? [...el.attributes].map((a) => `${a.name}=${a.value}`).join(' ') + (error ? ` error ${error.getAttribute('data-code')}` : '') : 'no player';
        })
        .catch(() => 'the popup did not answer');
      throw new Error(`the popup's player did not come to ${states.join(' or ')}: ${shown}`, { cause: e });
    });
}

// --- 1. time to first audio -------------------------------------------------

async function firstAudio() {
  const FIRST_BYTE = FIRST_BYTE_MS;
  const rig = await Rig.start(FIRST_AUDIO_SERVICE, true);
  try {
    /** In the player: first bytes handed to it → `playing` (MediaSource open, wrapping, first append, play()). */
    const bytesToPlaying: number[] = [];
    /** In the popup: navigation start → its script has run (DOMContentLoaded). */
    const popupLoad: number[] = [];
    /** Navigation start of the popup → the first speech request reaching the service (extraction and splitting included). */
    const toRequest: number[] = [];
    const measure = async (kind: 'selection' | 'article', run: number) => {
      const { path, html } = firstAudioPage(kind, run);
      rig.pages.put(path, html);
      const { page, tabId } = await rig.openTab(path);
      if (kind === 'selection') {
        await page.evaluate(selectContents, 'article p');
      }
      await page.bringToFront();
      const { ms, origin, popup } = await rig.toolbarPopupUntilPlaying(tabId);
      const player = await rig.offscreen<{ firstBytesAt: number; firstPlayingAt: number }>('player.stats');
      if (player && player.firstPlayingAt && run >= 0) bytesToPlaying.push(player.firstPlayingAt - player.firstBytesAt);
      if (run >= 0) {
        const arrived = await firstRequestAfter(rig.service.url, origin);
        if (arrived !== null) toRequest.push(arrived - origin);
        // Where the time went: the worker's marks from its start of the reading, and that start after the popup's opening.
        const trace = await withServiceMarks(await rig.takeTrace(), rig.service.url, origin);
        collectSteps(trace, `popup ${kind}`, steps, { label: 'opened', at: origin });
        const start = trace.findLast(([label]) => label === 'start');
        const bytesAt = await rig.offscreen<number>('player.stats.firstBytesAt ? performance.timeOrigin + player.stats.firstBytesAt : 0');
        if (bytesAt && start) (steps[`popup ${kind} player:bytes`] ??= []).push(bytesAt - start[1]);
        popupLoad.push((await rig.cdp.evaluate<number>(popup, "performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd")) ?? NaN);
      }
      await rig.stopFromWorker();
      await rig.closeToolbarPopup(tabId, popup);
      await page.close();
      return ms - FIRST_BYTE;
    };
    /** The naive way on the same service: download the whole first part, then play it. */
    const naive = async (run: number) => {
      const page = await rig.context.newPage();
      await page.goto(rig.url('options.html'));
      const text = `Статья номер ${run} о скорости, прочитанная наивным способом.`;
      const ms = await page.evaluate(
        async ({ url, key, text }) => {
          const started = performance.now();
          const res = await fetch(`${url}/v1/speech`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ text, stream: true }),
          });
          if (!res.ok) throw new Error(`the naive request was answered ${res.status}`);
          const blob = await res.blob();
          const audio = new Audio(URL.createObjectURL(blob));
          await new Promise<void>((ok) => {
            audio.addEventListener('playing', () => ok(), { once: true });
            void audio.play();
          });
          const took = performance.now() - started;
          audio.pause();
          return took;
        },
        { url: rig.service.url, key: KEY, text: text.repeat(3) },
      );
      await page.close();
      return ms - FIRST_BYTE;
    };
    /** Per way of starting: click → playing, minus the service's own first byte for that request (its log). */
    const overOwn: Record<string, number[]> = {};
    /** Per way of starting: ms from the reading's start to each of its first steps (`utils/trace.ts`). */
    const steps: Record<string, number[]> = {};
    /** The other ways of starting: the toolbar button (article), a shortcut (article), the context menu (selection). */
    const viaHook = async (how: 'toolbar' | 'shortcut' | 'menu', run: number, resident = false) => {
      const kind = how === 'menu' ? 'selection' : 'article';
      const { path, html } = firstAudioPage(kind, run + (how === 'toolbar' ? (resident ? 5000 : 1000) : how === 'shortcut' ? 2000 : 3000));
      rig.pages.put(path, html);
      const { page, tabId } = await rig.openTab(path);
      await page.bringToFront();
      if (resident) {
        // A page whose extract script is already there (read before, or click-to-read on): as the reader leaves it.
        await rig.sw.evaluate(
          async ({ tabId, hash }) => {
            await chrome.scripting.executeScript({ target: { tabId }, files: ['/extract.js'] });
            await chrome.storage.session.set({ 'extract-injected': { [tabId]: hash } });
          },
          { tabId, hash: hashOf(page.url()) },
        );
      }
      // The menu item is there only for a selection: the page has one, as the listener made it.
      const selectionText = how === 'menu' ? await page.evaluate(selectContents, 'article p') : '';
      const { ms, startedAt } = await rig.hookUntilPlaying(tabId, how, selectionText);
      const serviceFirstByte = await serviceFirstByteAfter(rig.service.url, startedAt);
      const key = resident ? 'resident' : how;
      if (serviceFirstByte !== null && run >= 0) (overOwn[key] ??= []).push(ms - serviceFirstByte);
      // Where the time went: the worker's marks (test build), from the handler's call.
      const trace = await withServiceMarks(await rig.takeTrace(), rig.service.url, startedAt);
      if (run >= 0) collectSteps(trace, key, steps);
      // And, on the same clock (ms after the handler's call), the first bytes reaching the player and its `playing`.
      const bytesAt = await rig.offscreen<number>('player.stats.firstBytesAt ? performance.timeOrigin + player.stats.firstBytesAt : 0');
      if (run >= 0 && bytesAt) (steps[`${key} player:bytes`] ??= []).push(bytesAt - startedAt);
      if (run >= 0) (steps[`${key} playing`] ??= []).push(ms);
      await rig.stopFromWorker();
      await rig.closeAfterStart(page, how === 'toolbar');
      return ms - FIRST_BYTE;
    };
    // Warm-up: a fresh browser's first playback is about twice as slow, and the service caches its tones.
    await measure('selection', -1);
    await measure('article', -1);
    await naive(-1);
    for (const how of ['toolbar', 'shortcut', 'menu'] as const) await viaHook(how, -1);
    /** Closes the toolbar's popups (opened by `toolbarClick`); `opening`: one is on its way, and waited for. */
    const closeToolbarPopups = async (opening: boolean) => {
      const isPopup = (p: { url(): string }) => p.url().includes('/popup.html?from=toolbar') && !p.url().includes('tabId=');
      if (opening && !rig.context.pages().some(isPopup)) await rig.context.waitForEvent('page', { predicate: isPopup, timeout: 5_000 }).catch(() => undefined);
      for (const p of rig.context.pages()) if (isPopup(p)) await p.close();
    };
    /**
     * The popup's own button, the way a listener comes to it: a reading is under way (here from the
     * toolbar, on another page) when the toolbar is clicked over a page not read before; that click
     * starts nothing and opens the popup, where the reading under way is stopped and the play button
     * pressed. Timed from the press (the popup's clock on the wall) to the player's `playing`, minus the
     * service's own first byte for that request. The toolbar's own popups are closed: the popup is a page
     * opened as the toolbar opens it, over the page clicked.
     */
    const viaPopupButton = async (run: number) => {
      const before = firstAudioPage('article', run + 7000);
      rig.pages.put(before.path, before.html);
      const under = await rig.openTab(before.path);
      await rig.hookUntilPlaying(under.tabId, 'toolbar');
      await closeToolbarPopups(true);
      const { path, html } = firstAudioPage('article', run + 6000);
      rig.pages.put(path, html);
      const { page, tabId } = await rig.openTab(path);
      await page.bringToFront();
      await rig.sw.evaluate(async (tabId) => (globalThis as unknown as { toolbarClick(t: object): void }).toolbarClick(await chrome.tabs.get(tabId)), tabId);
      await closeToolbarPopups(true);
      const popup = await rig.context.newPage();
      await popup.goto(rig.url(`popup.html?tabId=${tabId}&from=toolbar`));
      await popup.getByTestId('play-pause').waitFor();
      await rig.stopReading(popup);
      await letSettle(popup);
      await rig.takeTrace();
      const { startedAt, ms, overFirstByte } = await pressPlayUntilPlaying(popup, rig.service.url, (at, what) => rig.playingAfter(at, what));
      if (overFirstByte !== null && run >= 0) (overOwn.button ??= []).push(overFirstByte);
      const trace = await withServiceMarks(await rig.takeTrace(), rig.service.url, startedAt);
      if (run >= 0) collectSteps(trace, 'button', steps);
      // On the same clock (ms after the handler's call): the press, the first bytes reaching the player and its `playing`.
      const handlerAt = trace.findLast(([label]) => label === 'start')?.[1] ?? NaN;
      const bytesAt = await rig.offscreen<number>('player.stats.firstBytesAt ? performance.timeOrigin + player.stats.firstBytesAt : 0');
      if (run >= 0 && Number.isFinite(handlerAt)) {
        (steps['button press'] ??= []).push(startedAt - handlerAt);
        if (bytesAt) (steps['button player:bytes'] ??= []).push(bytesAt - handlerAt);
        (steps['button playing'] ??= []).push(startedAt + ms - handlerAt);
      }
      await rig.stopReading(popup);
      await popup.close();
      await page.close();
      await under.page.close();
      await new Promise((r) => setTimeout(r, 500));
      return ms - FIRST_BYTE;
    };
    await viaPopupButton(-1);
    /** The popup path with the worker stopped first: the popup's message starts it cold. */
    const cold = async (run: number) => {
      const { path, html } = firstAudioPage('article', run + 4000);
      rig.pages.put(path, html);
      const { page, tabId } = await rig.openTab(path);
      await rig.stopWorker();
      // To the player's `playing`, as the other popup rows: the popup draws it a moment later (its bundle
      // loads once the reading plays).
      const popup = await rig.openPopupTab(tabId);
      const ms = await rig.playingAfter(await popup.evaluate(() => performance.timeOrigin), 'the popup opened on a cold worker');
      await rig.currentWorker();
      await rig.stopReading(popup);
      await popup.close();
      await page.close();
      return ms - FIRST_BYTE;
    };
    const out: Record<string, number[]> = { selection: [], article: [], naive: [], toolbar: [], shortcut: [], menu: [], resident: [], button: [], cold: [] };
    for (let i = 0; i < RUNS; i++) {
      out.selection!.push(await measure('selection', i));
      out.article!.push(await measure('article', i));
      out.naive!.push(await naive(i));
      for (const how of ['toolbar', 'shortcut', 'menu'] as const) out[how]!.push(await viaHook(how, i));
      out.resident!.push(await viaHook('toolbar', i, true));
      out.button!.push(await viaPopupButton(i));
      if (i < 5) out.cold!.push(await cold(i));
    }
    const stat = (xs: number[]) => ({ median: r1(median(xs)), p95: r1(quantile(xs, 0.95)), runs: xs.map(r1) });
    results.firstAudio = {
      firstByteMs: FIRST_BYTE,
      roundTripMs: ROUND_TRIP_MS,
      selection: stat(out.selection!),
      article: stat(out.article!),
      toolbar: stat(out.toolbar!),
      shortcut: stat(out.shortcut!),
      menu: stat(out.menu!),
      resident: stat(out.resident!),
      popupButton: stat(out.button!),
      overOwnFirstByte: Object.fromEntries(Object.entries(overOwn).map(([k, xs]) => [k, stat(xs)])),
      coldWorkerArticle: stat(out.cold!),
      naive: stat(out.naive!),
      bytesToPlaying: stat(bytesToPlaying),
      popupLoad: stat(popupLoad),
      toRequest: stat(toRequest),
    };
    results.firstAudioSteps = Object.fromEntries(Object.entries(steps).map(([k, xs]) => [k, r1(median(xs))]));
    console.log('first steps (median ms after start):', results.firstAudioSteps);
    for (const [how, what] of [
      ['toolbar', 'toolbar button, 15,000-character article'],
      ['shortcut', 'shortcut (Alt+R), 15,000-character article'],
      ['menu', 'context menu, selection'],
      ['resident', 'toolbar button, same article, its page read before (extract script resident)'],
      ['button', "the popup's play button over a page the toolbar readied (clicked while another reading was under way; that reading stopped in the popup), same article"],
    ] as const) {
      const m = median(overOwn[how] ?? []);
      rows.push({
        measure: `first audio, ${what} (click → playing, − the service's first byte)`,
        value: `median ${r1(m)} ms, p95 ${r1(quantile(overOwn[how] ?? [], 0.95))} ms (− the configured ${FIRST_BYTE} ms: ${r1(median(out[how]!))} ms)`,
        target: `≤ ${FIRST_AUDIO_TARGET_MS.Chromium} ms at the median`,
        met: m <= FIRST_AUDIO_TARGET_MS.Chromium,
      });
    }
    for (const kind of ['selection', 'article'] as const) {
      const m = median(out[kind]!);
      rows.push({
        measure: `first audio, ${kind} (popup open → playing, − first byte; the toolbar's popup at popup.html?tabId=N, from its navigation start)`,
        value: `median ${r1(m)} ms, p95 ${r1(quantile(out[kind]!, 0.95))} ms`,
        target: `≤ ${POPUP_OPENED_TARGET_MS} ms at the median`,
        met: m <= POPUP_OPENED_TARGET_MS,
      });
    }
    rows.push({ measure: "first audio, cold worker (stopped first), article (popup open → the player's playing, − first byte; the popup in a tab)", value: `median ${r1(median(out.cold!))} ms, p95 ${r1(quantile(out.cold!, 0.95))} ms`, target: 'reported apart', met: null });
    if (ROUND_TRIP_MS) rows.push({ measure: 'first audio: a network round trip before every request (--rtt), counted in the rows above', value: `${ROUND_TRIP_MS} ms`, target: '—', met: null });
    rows.push({ measure: 'first audio: in the player, first bytes → playing', value: `median ${r1(median(bytesToPlaying))} ms`, target: '—', met: null });
    rows.push({ measure: `first audio, popup page load (the toolbar's popup: navigation → DOMContentLoaded)`, value: `median ${r1(median(popupLoad))} ms`, target: '—', met: null });
    rows.push({ measure: `first audio, popup open → first request at the service`, value: `median ${r1(median(toRequest))} ms`, target: '—', met: null });
    rows.push({
      measure: 'first audio, naive (download the whole first part, then play)',
      value: `median ${r1(median(out.naive!))} ms, p95 ${r1(quantile(out.naive!, 0.95))} ms`,
      target: 'for comparison',
      met: null,
    });
  } finally {
    await rig.close();
  }
}

// --- 1b. first audio on saved real pages -------------------------------------

/**
 * The toolbar's start on pages saved from public sites (`realPage`): click → `playing`, minus the
 * service's own first byte for that request, per page; the audio cache emptied before each run (a
 * page's title is the same every run). With the worker's steps: the request, and, for a page read
 * title first, when its rest came from the page (after `playing`: the title's audio covers it).
 */
async function realPagesFirstAudio() {
  const rig = await Rig.start(FIRST_AUDIO_SERVICE, true);
  try {
    await measureRealPages('Chromium', async (name, run) => {
      const served = realPage(name, run)!;
      rig.pages.put(served.path, served.html);
      await rig.sw.evaluate(CLEAR_AUDIO_CACHE);
      const { page, tabId } = await rig.openTab(served.path);
      await page.bringToFront();
      const { ms, startedAt } = await rig.hookUntilPlaying(tabId, 'toolbar');
      const firstByte = await serviceFirstByteAfter(rig.service.url, startedAt);
      // The rest of a page read title first comes after `playing`: waited for, so that it is in the steps.
      await rig.sw.evaluate(`(${waitForRest.toString()})()`);
      const trace = await withServiceMarks(await rig.takeTrace(), rig.service.url, startedAt);
      await rig.stopFromWorker();
      await rig.closeAfterStart(page, true);
      return { ms, firstByte, trace };
    });
  } finally {
    await rig.close();
  }
}

// --- 2. seams ---------------------------------------------------------------

async function seams() {
  const rig = await Rig.start(SEAMS_SERVICE);
  try {
    rig.pages.put(SEAMS_PAGE.path, SEAMS_PAGE.html);
    const { tabId } = await rig.openTab(SEAMS_PAGE.path);
    const { popup } = await rig.popupUntilPlaying(tabId);
    await rig.offscreen(WATCH_MAIN_THREAD);
    await waitState(popup, ['finished', 'error']);
    const seen = await rig.offscreen<MainThreadSeen>('globalThis.__mainThread()');
    const stats = await rig.offscreen<{ waiting: number; firstPlayingAt: number; endedAt: number; stalls: Array<{ at: number; ms: number }> }>('player.stats');
    const parts = rig.service.speechLog().filter((e) => e.status === 200);
    const audioSeconds = Number((await popupState(popup)).position);
    const wall = (stats!.endedAt - stats!.firstPlayingAt) / 1000;
    const perSeam = ((wall - audioSeconds) * 1000) / Math.max(parts.length - 1, 1);
    results.seams = { parts: parts.length, stalls: stats!.waiting, stallDetails: stats!.stalls, wallSeconds: r1(wall), audioSeconds: r1(audioSeconds), msPerSeam: r1(perSeam) };
    rows.push({ measure: `seams: stalls in a ${parts.length}-part reading (2× real-time synthesis, 300 ms first byte)`, value: String(stats!.waiting), target: '0', met: stats!.waiting === 0 });
    rows.push({ measure: 'seams: playback wall time − audio time, per seam', value: `${r1(perSeam)} ms`, target: '≤ 30 ms', met: perSeam <= 30 });
    if (seen) mainThreadRows('Chromium', seen);
  } finally {
    await rig.close();
  }
}

// --- 3. extraction and splitting -------------------------------------------

/** Milliseconds `f` takes. */
function timed(f: () => unknown): number {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
}

async function extraction() {
  const rig = await Rig.start({});
  try {
    const fixtures: Array<[string, string]> = [
      ['/sample-article.html', readFileSync(resolve(import.meta.dirname, '../tests/fixtures/pages/sample-article.html'), 'utf8')],
      ['/medium.html', clutteredPage(60_000, 'Средняя страница')],
      ['/large.html', clutteredPage(900_000, 'Большая страница')],
    ];
    const out: Array<{ page: string; htmlKB: number; extractMs: number; extractP25Ms: number; firstExtractMs: number; splitMs: number; planMs: number; chars: number }> = [];
    for (const [path, html] of fixtures) {
      rig.pages.put(path, html);
      const { page, tabId } = await rig.openTab(path);
      const times: number[] = [];
      let blocks: Array<{ text: string; kind: 'title' | 'heading' | 'paragraph' }> = [];
      // The script is injected once and stays resident; each run asks it as a reading does (its `extract` message).
      await rig.sw.evaluate(async (tabId) => {
        await chrome.scripting.executeScript({ target: { tabId }, files: ['/extract.js'] });
      }, tabId);
      // Two not counted (the first compiles the script's code), then 15: on the shared machine one run of the same
      // build swung by ±40 % with the hour (bench/HISTORY.md, 2026-12-03), so the quartile is shown beside the median.
      let first = 0;
      for (let i = -2; i < 15; i++) {
        const result = await rig.sw.evaluate(async (tabId) => {
          const answer = (await chrome.tabs.sendMessage(tabId, { id: 1, type: 'extract', data: { mode: 'normal' }, timestamp: Date.now() }, { frameId: 0 })) as {
            res: { tookMs: number; blocks: Array<{ text: string; kind: 'title' | 'heading' | 'paragraph' }> };
          };
          return answer.res;
        }, tabId);
        if (i === -2) first = result.tookMs;
        if (i >= 0) times.push(result.tookMs);
        blocks = result.blocks;
      }
      splitIntoParts(blocks); // warm-up
      const splitMs = median(Array.from({ length: 15 }, () => timed(() => splitIntoParts(blocks))));
      // All the planning the worker does before the first request (URLs, pronunciation, letters the service reads, splitting).
      const planMs = median(Array.from({ length: 9 }, () => timed(() => planParts(blocks))));
      out.push({ page: path, htmlKB: Math.round(Buffer.byteLength(html) / 1024), extractMs: r1(median(times)), extractP25Ms: r1(quantile(times, 0.25)), firstExtractMs: r1(first), splitMs: r1(splitMs), planMs: r1(planMs), chars: blocks.reduce((n, b) => n + b.text.length, 0) });
      await page.close();
    }
    const million = makeArticleHtml(1_000_000).replace(/<[^>]+>/g, '\n');
    const mBlocks = million.split('\n').filter((l) => l.trim()).map((text) => ({ text, kind: 'paragraph' as const }));
    splitIntoParts(mBlocks.slice(0, 100)); // warm-up
    const splits = Array.from({ length: 9 }, () => timed(() => splitIntoParts(mBlocks)));
    results.extraction = { pages: out, splitMillionMs: r1(median(splits)) };
    for (const p of out) {
      const total = p.extractMs + p.splitMs;
      rows.push({ measure: `Readability + splitting, ${p.page} (${p.htmlKB} KB HTML)`, value: `${r1(total)} ms (${p.extractMs} + ${p.splitMs}; the extraction's p25 ${p.extractP25Ms}); the page's first extraction ${p.firstExtractMs} ms; whole planning ${p.planMs} ms`, target: '≤ 100 ms', met: total <= 100 });
    }
    rows.push({ measure: 'splitting 1,000,000 characters', value: `${r1(median(splits))} ms`, target: '≤ 100 ms', met: median(splits) <= 100 });
  } finally {
    await rig.close();
  }
}

// --- 3b. what is read: the hand-checked pages -------------------------------------

async function precision() {
  const { rows: pages, averages } = await measurePrecision();
  const whole = await measureCorpusRecall();
  const pages2026 = await measurePages2026();
  results.precision = { pages, averages, wholeCorpus: whole, pages2026 };
  rows.push({ measure: `whole corpus (${whole.pages} pages): recall of Readability's own output`, value: String(Math.round(whole.recall * 1000) / 1000), target: '—', met: null });
  const r3 = (n: number) => Math.round(n * 1000) / 1000;
  for (const [k, a] of Object.entries(averages)) {
    if (!a) continue;
    rows.push({
      measure: `what is read vs the hand-checked text, ${k} (${a.pages} pages, 4-word shingles)`,
      value: `P ${r3(a.precision)}, R ${r3(a.recall)}, F1 ${r3(a.f1)}`,
      target: 'F1 ≥ 0.975, P ≥ 0.96, R ≥ 0.98',
      met: a.f1 >= 0.975 && a.precision >= 0.96 && a.recall >= 0.98,
    });
  }
  for (const [shape, a] of Object.entries(pages2026.byShape)) {
    rows.push({ measure: `pages of 2024–26, ${shape} (${a.pages} pages): what is read vs the hand-checked text`, value: `P ${r3(a.precision)}, R ${r3(a.recall)}, F1 ${r3(a.f1)}`, target: 'F1 ≥ 0.97', met: a.f1 >= 0.97, num: a.f1 });
  }
  const all = pages2026.all;
  rows.push({ measure: `pages of 2024–26, all (${all.pages} pages)`, value: `P ${r3(all.precision)}, R ${r3(all.recall)}, F1 ${r3(all.f1)}`, target: 'F1 ≥ 0.975', met: all.f1 >= 0.975, num: all.f1 });
}

// --- 3c. what is read: the public article-extraction benchmark --------------------

async function articleBenchmark() {
  const result = await measureArticleBenchmark();
  if ('skipped' in result) {
    rows.push({ measure: 'article-extraction benchmark', value: `skipped: ${result.skipped}`, target: '—', met: null });
    return;
  }
  const a = result.averages;
  const r3 = (n: number) => Math.round(n * 1000) / 1000;
  results.articleBenchmark = { averages: a, rows: result.rows.map(({ page, url, precision, recall, f1, billedChars }) => ({ page, url, precision, recall, f1, billedChars })) };
  rows.push({
    measure: `article-extraction benchmark (${a.pages} pages never tuned on; its F1 of averaged P and R)`,
    value: `P ${r3(a.precision)}, R ${r3(a.recall)}, F1 ${r3((2 * a.precision * a.recall) / (a.precision + a.recall))}`,
    target: 'best extractors: F1 0.96–0.97',
    met: null,
  });
}

// --- 3d. the word highlight's timing, against a voice of known timings ---------------

async function wordTiming() {
  const result = await measureWordTiming();
  results.wordTiming = result;
  const a = result.all;
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  rows.push({
    measure: `word timing from audio alone (${a.parts} parts, ${a.words} words, timed voice): on the word / within one`,
    value: `${pct(a.onWord)} / ${pct(a.withinOne)} (ru ${pct(result.ru.onWord)}, en ${pct(result.en.onWord)})`,
    target: '≥ 90 % / ≥ 99 %',
    met: a.onWord >= 0.9 && a.withinOne >= 0.99,
  });
  rows.push({
    measure: "word timing: error of each word's start, median / p90 (1×; at 2× half in the listener's time)",
    value: `${a.medianMs} / ${a.p90Ms} ms (2×: ${Math.round(a.medianMs / 2)} / ${Math.round(a.p90Ms / 2)} ms)`,
    target: 'median ≤ 120 ms',
    met: a.medianMs <= 120,
  });
  const f = a.soFar!;
  rows.push({
    measure: `word timing while a part streams (audio cut at 4, 8, 15, 25 s, each estimate on the audio after the words before): words timed surely, on the word / within one; then the rest, on the word in all`,
    value: `${pct(f.onWord)} / ${pct(f.withinOne)} (the whole part at once there ${pct(f.wholeOnWord)}); ${pct(a.chainedOnWord)} (at once ${pct(a.onWord)}); after the last sure pause, for now, within one ${pct(f.aheadWithinOne)}`,
    target: 'as the whole part at once',
    met: f.onWord >= f.wholeOnWord - 0.01 && f.withinOne >= 0.99,
  });
}

// --- 3d'. the word and sentence marks as a listener sees them (Chromium, Firefox; timed voice, saved pages) ---

const wordMarks = () => wordMarksIn('chromium');
const firefoxWordMarks = () => wordMarksIn('firefox');

async function wordMarksIn(browser: WordMarkBrowserName) {
  const results_ = await measureWordMarks(8, [1, 2], undefined, browser);
  // Chromium also as a synthesizer streams (each part's audio over half its length): parts play while they come.
  const streamed = browser === 'chromium' ? (await measureWordMarks(8, [1], undefined, browser, 2)).map((r) => ({ ...r, streamed: true })) : [];
  const ff = browser === 'firefox' ? 'Firefox: ' : '';
  if (browser === 'firefox') results.firefoxWordMarks = results_;
  else results.wordMarks = [...results_, ...streamed];
  const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(1)} %`;
  const q = (xs: number[], at: number) => [...xs].sort((a, b) => a - b)[Math.floor(at * (xs.length - 1))] ?? NaN;
  for (const r of [...results_, ...streamed]) {
    const how = 'streamed' in r ? ', audio streamed at 2× real time' : '';
    rows.push({
      measure: `${ff}word mark at ${r.rate}× (${r.pages} saved pages, timed voice${how}): on the word / within one; start error median / p90 (listener ms)`,
      value: `${pct(r.onWord, r.wordSamples)} / ${pct(r.withinOne, r.wordSamples)}; ${q(r.startErrorsMs, 0.5).toFixed(0)} / ${q(r.startErrorsMs, 0.9).toFixed(0)} ms`,
      target: '≥ 90 % / ≥ 99 %; median ≤ 120 ms',
      met: r.onWord >= 0.9 * r.wordSamples && r.withinOne >= 0.99 * r.wordSamples && q(r.startErrorsMs, 0.5) <= 120,
    });
    rows.push({
      measure: `${ff}sentence mark at ${r.rate}×${how}: on the sentence being said; on another (longest)`,
      value: `${pct(r.onSentence, r.sentenceSamples)}; ${r.wrongSentence} samples (${r.longestWrongMs} ms)`,
      target: '≥ 99 %; never',
      met: r.onSentence >= 0.99 * r.sentenceSamples && r.wrongSentence === 0,
    });
  }
}

// --- 3e. decoding a part for its word timings, in each browser's extension page ---------

async function decode() {
  const result = await measureDecode();
  results.decode = result;
  for (const r of result) {
    const sorted = [...r.decodeMs].sort((a, b) => a - b);
    rows.push({
      measure: `${r.browser}: decoding a 2,000-character part (${r.audioSeconds.toFixed(0)} s of MP3), median of ${sorted.length}; a timer's worst lateness meanwhile`,
      value: `${sorted[sorted.length >> 1]} ms; ${r.worstTimerLateMs} ms`,
      target: 'never delays playback',
      met: r.worstTimerLateMs < 50,
    });
  }
}

// --- 4. memory ---------------------------------------------------------------

async function memory() {
  // 60 ms of audio a character: 60 minutes ≈ 60,000 characters (30 parts); played at 16×.
  const chars = Math.round((MINUTES * 60 * 1000) / 60);
  const rig = await Rig.start({ msPerChar: 60, minMs: 50 });
  try {
    rig.pages.put('/hour.html', makeArticleHtml(chars, 'Час чтения'));
    const { tabId } = await rig.openTab('/hour.html');
    const { popup } = await rig.popupUntilPlaying(tabId);
    // `--decode-probe off|offline|<Hz>`: the player's decoding for word times left out, or done by the Web Audio
    // decoder (not WebCodecs'), or by it at another rate (what the heap owes each).
    const probe = arg('decode-probe', '');
    if (probe === 'off') await rig.offscreen(`globalThis.AudioDecoder = undefined; OfflineAudioContext.prototype.decodeAudioData = () => Promise.reject(new Error('probe'))`);
    else if (probe) await rig.offscreen(`globalThis.AudioDecoder = { isConfigSupported: async () => ({ supported: false }) }`);
    if (probe && probe !== 'off' && probe !== 'offline') await rig.offscreen(`{ const O = OfflineAudioContext; globalThis.OfflineAudioContext = function (c, l) { return new O(c, l, ${Number(probe)}); }; }`);
    await rig.offscreen('player.audio.playbackRate = 16');
    // `--allocations`: where the player's allocations come from, garbage included (V8's sampling heap profiler).
    const allocations = process.argv.includes('--allocations');
    if (allocations) {
      await rig.cdp.send(OFFSCREEN, 'HeapProfiler.enable');
      await rig.cdp.send(OFFSCREEN, 'HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    }
    const samples: Array<{ t: number; heapMB: number; bufferedSeconds: number; position: number }> = [];
    const reportAllocations = async () => {
      type Node = { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: Node[] };
      const { profile } = (await rig.cdp.send(OFFSCREEN, 'HeapProfiler.stopSampling')) as { profile: { head: Node } };
      const bySite = new Map<string, number>();
      const walk = (n: Node, stack: string[]) => {
        const here = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}:${(n.callFrame as { columnNumber?: number }).columnNumber ?? 0}`;
        const path = [...stack, here].slice(-3).join(' < ');
        if (n.selfSize > 0) bySite.set(path, (bySite.get(path) ?? 0) + n.selfSize);
        for (const c of n.children) walk(c, [...stack, here]);
      };
      walk(profile.head, []);
      const top = [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 15);
      for (const [site, bytes] of top) process.stderr.write(`allocated ${r1(bytes / 2 ** 20)} MB: ${site}\n`);
    };
    let reported = !allocations;
    const started = Date.now();
    for (;;) {
      const s = await rig.offscreen<{ heap: number; buffered: number }>(
        '({ heap: performance.memory.usedJSHeapSize, buffered: player.bufferedSeconds() })',
      );
      const view = await popupState(popup);
      if (s) samples.push({ t: Math.round((Date.now() - started) / 1000), heapMB: r1(s.heap / 2 ** 20), bufferedSeconds: r1(s.buffered), position: r1(view.position) });
      if (view.state !== 'playing' && view.state !== 'loading') break;
      // Read while the player is still there (its document closes once the reading is over).
      if (!reported && Date.now() - started > 45_000) {
        reported = true;
        await reportAllocations();
      }
      // Later parts are loaded at the player's normal rate: keep it fast.
      await rig.offscreen('player.audio.playbackRate = 16');
      await new Promise((r) => setTimeout(r, 3000));
    }
    const peakHeap = Math.max(...samples.map((s) => s.heapMB));
    const peakBuffered = Math.max(...samples.map((s) => s.bufferedSeconds));
    // At 48 kbps a second of MP3 is 6 KB; the SourceBuffer also holds decoded frames, so this is a floor.
    const peakBufferMB = r1((peakBuffered * 6000) / 2 ** 20);
    const audioMinutes = r1((samples.at(-1)?.position ?? 0) / 60);
    results.memory = { audioMinutes, peakHeapMB: peakHeap, peakBufferedSeconds: peakBuffered, peakBufferMB, samples };
    rows.push({
      measure: `memory over ${audioMinutes} min of audio: offscreen JS heap peak (first → last)`,
      value: `${peakHeap} MB (${samples[0]?.heapMB} → ${samples.at(-1)?.heapMB})`,
      target: 'flat, ≤ 50 MB',
      met: peakHeap <= 50,
    });
    rows.push({ measure: 'memory: SourceBuffer peak', value: `${peakBuffered} s of audio (≈ ${peakBufferMB} MB of MP3)`, target: 'flat', met: null });
  } finally {
    await rig.close();
  }
}

// --- 5c. books (issue 62) ----------------------------------------------------

/** The book page's reading, as the page shows it (`data-title`), and its JS heap (MB). */
const bookHeapMB = (page: Page) => page.evaluate(() => (performance as unknown as { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize / 2 ** 20);

async function books() {
  const rig = await Rig.start(FIRST_AUDIO_SERVICE, true);
  try {
    const made: Array<[string, Uint8Array]> = [['FB2', bigFb2()], ['EPUB', await bigEpub()]];
    const out: Record<string, unknown> = {};
    results.books = out;
    /** Per book: ms from the worker's `start` to each of its first steps (test builds' marks, `utils/diagnostics/wired-test.ts`). */
    const steps: Record<string, number[]> = {};
    for (const [kind, bytes] of made) {
      rig.pages.putFile(`/big.${kind}`, bytes, 'application/octet-stream');
      const page = await rig.context.newPage();
      const t0 = Date.now();
      await page.goto(rig.url(`book.html?file=${encodeURIComponent(`${rig.pages.url}/big.${kind}`)}`));
      await page.waitForFunction((t) => document.querySelector('[data-testid="book-title"]')?.getAttribute('data-title') === t, BIG_BOOK_TITLE, { timeout: 120_000, polling: 20 });
      const openedMs = Date.now() - t0;
      const firstAudio: number[] = [];
      // A warm-up, then RUNS chapters spread over the book, none read before (nothing from the cache).
      const chosen = Array.from({ length: RUNS + 1 }, (_, i) => 3 + Math.floor((i * 55) / RUNS));
      for (const [i, chapter] of chosen.entries()) {
        const startedAt = await page.evaluate((n) => {
          const at = performance.timeOrigin + performance.now();
          (document.querySelectorAll('[data-testid="toc-item"]')[n] as HTMLButtonElement).click();
          return at;
        }, chapter);
        const ms = await rig.playingAfter(startedAt, `chapter ${chapter + 1} of the ${kind}`);
        if (i > 0) firstAudio.push(ms - FIRST_BYTE_MS);
        // Where the time went: the worker's marks from its `start`, and the click → `start` before them.
        const trace = await withServiceMarks(await rig.takeTrace(), rig.service.url, startedAt);
        if (i > 0) collectSteps(trace, kind, steps, { label: 'click', at: startedAt });
        await rig.stopFromWorker();
      }
      // Both what the page holds and what it has not collected yet: the second follows the allocations' timing.
      const heapAsFound = r1(await bookHeapMB(page));
      const cdp = await rig.context.newCDPSession(page);
      await cdp.send('HeapProfiler.collectGarbage');
      await cdp.detach();
      const heap = r1(await bookHeapMB(page));
      out[kind] = { megabytes: r1(bytes.length / 1e6), openedMs, firstAudio: firstAudio.map(r1), bookPageHeapMB: heap, bookPageHeapAsFoundMB: heapAsFound };
      rows.push({ measure: `book, ${kind} of ${r1(bytes.length / 1e6)} MB: opened (address → contents shown)`, value: `${openedMs} ms`, target: '—', met: null });
      rows.push({
        measure: `book, ${kind}: a chapter chosen → playing, minus the first byte (median / p95 of ${firstAudio.length})`,
        value: `${r1(median(firstAudio))} / ${r1(quantile(firstAudio, 0.95))} ms`,
        target: '≤ 1,000 ms',
        met: median(firstAudio) <= 1000,
      });
      rows.push({ measure: `book, ${kind}: the book page's JS heap after ${firstAudio.length + 1} chapters begun, as found`, value: `${heapAsFound} MB`, target: '—', met: null });
      rows.push({ measure: `book, ${kind}: the same after a garbage collection`, value: `${heap} MB`, target: '—', met: null });
      await page.close();
    }
    out.steps = Object.fromEntries(Object.entries(steps).map(([k, xs]) => [k, r1(median(xs))]));
    console.log('books, first steps (median ms after start):', out.steps);
  } finally {
    await rig.close();
  }
  await bookMemory();
}

/** Memory while a book is read for MINUTES of audio at 16×: the book page's heap and the player's, sampled every 3 s. */
async function bookMemory() {
  // 60 ms of audio a character, as in the memory step: 60 minutes ≈ 60,000 characters, 30 chapters.
  const chars = Math.round((MINUTES * 60 * 1000) / 60);
  const rig = await Rig.start({ msPerChar: 60, minMs: 50 });
  try {
    rig.pages.putFile('/hour.fb2', bigFb2(30, Math.round(chars / 30), 'Час книги'), 'application/x-fictionbook+xml');
    const page = await rig.context.newPage();
    await page.goto(rig.url(`book.html?file=${encodeURIComponent(`${rig.pages.url}/hour.fb2`)}`));
    await page.waitForFunction(() => document.querySelector('[data-testid="book-title"]')?.getAttribute('data-title') === 'Час книги', undefined, { timeout: 60_000, polling: 20 });
    const startedAt = await page.evaluate(() => {
      const at = performance.timeOrigin + performance.now();
      (document.querySelector('[data-testid="toc-item"]') as HTMLButtonElement).click();
      return at;
    });
    await rig.playingAfter(startedAt, 'the hour-long book');
    const view = () => rig.sw.evaluate(async () => ((await chrome.storage.session.get('reading-view'))['reading-view'] ?? {}) as { state?: string; position?: number });
    const samples: Array<{ t: number; bookMB: number; playerMB: number; position: number }> = [];
    const started = Date.now();
    for (;;) {
      await rig.offscreen('player.audio.playbackRate = 16');
      const player = await rig.offscreen<number>('performance.memory.usedJSHeapSize');
      const v = await view();
      if (player) samples.push({ t: Math.round((Date.now() - started) / 1000), bookMB: r1(await bookHeapMB(page)), playerMB: r1(player / 2 ** 20), position: r1(v.position ?? 0) });
      if (v.state !== 'playing' && v.state !== 'loading') break;
      await new Promise((r) => setTimeout(r, 3000));
    }
    const peak = (f: (s: (typeof samples)[number]) => number) => Math.max(...samples.map(f));
    // The book page and the offscreen player are extension pages in one renderer process here: `performance.memory`
    // gives that one heap in both (their figures came out the same), so the two are not added.
    const shared = samples.every((s) => s.bookMB === s.playerMB);
    const peakAll = shared ? peak((s) => s.bookMB) : peak((s) => s.bookMB + s.playerMB);
    const audioMinutes = r1((samples.at(-1)?.position ?? 0) / 60);
    results.bookMemory = { audioMinutes, peakBookMB: peak((s) => s.bookMB), peakPlayerMB: peak((s) => s.playerMB), shared, samples };
    rows.push({
      measure: `book, memory over ${audioMinutes} min of audio: the book page's and the player's JS heap, peak (first → last)${shared ? ' (one process: one heap)' : ''}`,
      value: `${r1(peakAll)} MB (${samples[0]?.bookMB} → ${samples.at(-1)?.bookMB})`,
      target: 'flat, ≤ 100 MB together',
      met: peakAll <= 100,
    });
  } finally {
    await rig.close();
  }
}

// --- 5. waste ----------------------------------------------------------------

async function waste() {
  const rig = await Rig.start({ msPerChar: 3, minMs: 50, firstByteMs: 50 });
  try {
    const trials: Array<{ stopAfterMs: number; partAtStop: number; billedParts: number; unplayedParts: number; unplayedChars: number }> = [];
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < TRIALS; i++) {
      rig.service.resetLog();
      const path = `/waste-${i}.html`;
      rig.pages.put(path, makeArticleHtml(12_000, `Проба ${i}`));
      const { page, tabId } = await rig.openTab(path);
      const { popup } = await rig.popupUntilPlaying(tabId);
      const stopAfterMs = Math.round(200 + random() * 12_000);
      await new Promise((r) => setTimeout(r, stopAfterMs));
      const at = await popupState(popup);
      await rig.stopReading(popup);
      await new Promise((r) => setTimeout(r, 300)); // let an aborted request settle in the log
      const billed = rig.service.speechLog().filter((e) => e.billedChars > 0);
      // The plan as the popup reads it, through the test build's diagnostics (utils/reading/wiring.ts).
      const plan = await rig.sw.evaluate(() => (globalThis as unknown as { readingPlan(): Promise<{ parts: Array<{ text: string }> }> }).readingPlan());
      const index = (text: string) => plan.parts.findIndex((p) => p.text === text);
      const unplayed = billed.filter((e) => index(e.text) > at.part);
      trials.push({ stopAfterMs, partAtStop: at.part, billedParts: billed.length, unplayedParts: unplayed.length, unplayedChars: unplayed.reduce((n, e) => n + e.billedChars, 0) });
      await popup.close();
      await page.close();
    }
    const worst = Math.max(...trials.map((t) => t.unplayedParts));
    results.waste = { trials, worstUnplayedParts: worst, meanUnplayedChars: r1(trials.reduce((n, t) => n + t.unplayedChars, 0) / trials.length) };
    rows.push({ measure: `waste: parts billed but never reached, over ${trials.length} random stops`, value: `worst ${worst}, mean ${r1(trials.reduce((n, t) => n + t.unplayedParts, 0) / trials.length)} parts (${(results.waste as { meanUnplayedChars: number }).meanUnplayedChars} chars)`, target: '≤ 1 part', met: worst <= 1 });
  } finally {
    await rig.close();
  }
}

// --- 7. PDF: first audio on a 300-page book -------------------------------------

async function pdfFirstAudio() {
  const rig = await Rig.start(FIRST_AUDIO_SERVICE, true);
  try {
    rig.pages.putFile('/book.pdf', await pdfBytes('book'), 'application/pdf');
    /** The toolbar on Chromium's own viewer showing the book: popup open → the given states, on the popup's clock. */
    const open = async () => {
      await rig.sw.evaluate(CLEAR_AUDIO_CACHE);
      const { page, tabId } = await rig.openTab('/book.pdf');
      const popup = await rig.context.newPage();
      await popup.goto(rig.url(`popup.html?tabId=${tabId}`), { waitUntil: 'commit' });
      const at = async (check: PopupCheck) => (await (await popup.waitForFunction(popupReached, check, { timeout: 120_000, polling: 5 })).jsonValue()) as number;
      return { page, popup, at };
    };
    const STATE = (state: string) => ({ state });
    const COUNTED = { counted: true } as const;
    const whole: number[] = [];
    const counted: number[] = [];
    const confirmShown: number[] = [];
    const confirmToPlaying: number[] = [];
    // Under the threshold: the whole book is counted before the first request (the estimate decides).
    for (let i = -1; i < RUNS; i++) {
      const { page, popup, at } = await open();
      // Counted first: the reading starts only once the whole book is counted.
      const countedAt = await at(COUNTED);
      const playing = await at(STATE('playing'));
      if (i >= 0) {
        whole.push(playing - FIRST_BYTE_MS);
        counted.push(countedAt);
      }
      await rig.stopReading(popup);
      await popup.close();
      await page.close();
    }
    // Over the threshold (the default 10 ₽ is passed by the first pages): asks at once, speaks at once when agreed.
    await rig.setThreshold('10');
    for (let i = -1; i < RUNS; i++) {
      const { page, popup, at } = await open();
      const shown = await at(STATE('confirm'));
      const clicked = await popup.evaluate(() => {
        (document.querySelector('[data-testid="confirm-read"]') as HTMLButtonElement).click();
        return performance.now();
      });
      const playing = await at(STATE('playing'));
      if (i >= 0) {
        confirmShown.push(shown);
        confirmToPlaying.push(playing - clicked - FIRST_BYTE_MS);
      }
      await rig.stopReading(popup);
      await popup.close();
      await page.close();
    }
    const stat = (xs: number[]) => ({ median: r1(median(xs)), p95: r1(quantile(xs, 0.95)), runs: xs.map(r1) });
    results.pdf = { pages: BOOK_PAGES, firstByteMs: FIRST_BYTE_MS, underThreshold: stat(whole), counted: stat(counted), confirmShown: stat(confirmShown), confirmToPlaying: stat(confirmToPlaying) };
    rows.push({ measure: `PDF ${BOOK_PAGES} pages: popup open → confirmation shown (first pages counted)`, value: `median ${r1(median(confirmShown))} ms`, target: 'before the whole book is counted', met: median(confirmShown) < median(counted) });
    rows.push({ measure: `PDF ${BOOK_PAGES} pages: confirmed → playing (− first byte)`, value: `median ${r1(median(confirmToPlaying))} ms`, target: '—', met: null });
    rows.push({ measure: `PDF ${BOOK_PAGES} pages: popup open → whole book counted`, value: `median ${r1(median(counted))} ms`, target: '—', met: null });
    rows.push({ measure: `PDF ${BOOK_PAGES} pages, under the threshold: popup open → playing (− first byte)`, value: `median ${r1(median(whole))} ms`, target: '—', met: null });
  } finally {
    await rig.close();
  }
}

// --- 6. bundle size ----------------------------------------------------------

function bundle() {
  // What ships: the production build (the test build adds the hooks and the player's counters).
  const dir = PRODUCTION_EXTENSION_DIR;
  const gz = (file: string) => gzipSync(readFileSync(join(dir, file))).length;
  /** A page and everything it loads: its HTML, scripts and styles, and the chunks they import. */
  const closure = (entry: string): string[] => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(join(dir, file), 'utf8');
      const refs = [...text.matchAll(/(?:src|href)="\/?([^"]+\.(?:js|css))"|from\s*"\.\.?\/([^"]+\.js)"|import\s*"\.\.?\/([^"]+\.js)"/g)];
      for (const m of refs) {
        const ref = m[1] ?? m[2] ?? m[3];
        if (!ref) continue;
        const path = file.includes('/') && (m[2] || m[3]) ? join(file.split('/').slice(0, -1).join('/'), ref) : ref;
        if (statSync(join(dir, path), { throwIfNoEntry: false })) visit(path);
      }
    };
    visit(entry);
    return [...seen];
  };
  const sizes: Record<string, number> = {};
  for (const [name, entry] of [
    ['content script', 'extract.js'],
    ['popup', 'popup.html'],
    ['options', 'options.html'],
    ['offscreen', 'offscreen.html'],
    ['background', 'background.js'],
    ['PDF page', 'pdf.html'],
  ] as const) {
    sizes[name] = closure(entry).reduce((n, f) => n + gz(f), 0);
  }
  const kb = (n: number) => r1(n / 1024);
  results.bundle = Object.fromEntries(Object.entries(sizes).map(([k, v]) => [k, `${kb(v)} KB`]));
  rows.push({ measure: 'bundle, content script (gzip)', value: `${kb(sizes['content script']!)} KB`, target: '≤ 40 KB', met: sizes['content script']! <= 40 * 1024 });
  rows.push({ measure: 'bundle, popup with its chunks and CSS (gzip)', value: `${kb(sizes.popup!)} KB`, target: '≤ 25 KB', met: sizes.popup! <= 25 * 1024 });
  // The PDF page also loads pdf.js's worker (a file of its own, fetched when a PDF is opened).
  const worker = readdirSync(join(dir, 'assets')).find((f) => /^pdf\.worker/.test(f));
  if (worker) sizes['PDF worker'] = gz(join('assets', worker));
  for (const name of ['options', 'offscreen', 'background', 'PDF page', 'PDF worker']) if (sizes[name] !== undefined) rows.push({ measure: `bundle, ${name} (gzip)`, value: `${kb(sizes[name]!)} KB`, target: '—', met: null });
}

async function main() {
  const steps: Array<[string, () => Promise<void> | void]> = [
    ['bundle', bundle],
    ['extraction', extraction],
    ['precision', precision],
    ['article-benchmark', articleBenchmark],
    ['word-timing', wordTiming],
    ['word-marks', wordMarks],
    ['firefox-word-marks', firefoxWordMarks],
    ['decode', decode],
    ['first-audio', firstAudio],
    ['real-pages', realPagesFirstAudio],
    ['seams', seams],
    ['firefox-first-audio', firefoxFirstAudio],
    ['firefox-real-pages', firefoxRealPagesFirstAudio],
    ['firefox-seams', firefoxSeams],
    ['pdf', pdfFirstAudio],
    ['firefox-pdf', firefoxPdfFirstAudio],
    ['books', books],
    ['waste', waste],
    ['memory', memory],
    ['soak', soakChromium],
    ['firefox-soak', soakFirefox],
  ];
  for (const [name, step] of steps) {
    if (!ONLY.includes(name)) continue;
    const t0 = Date.now();
    process.stderr.write(`bench: ${name}…\n`);
    // A step that fails is a row of its own: the steps after it still run, and the table is still printed.
    try {
      await step();
    } catch (err) {
      process.stderr.write(`bench: ${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      rows.push({ measure: `${name}: the step failed`, value: String(err instanceof Error ? err.message : err).split('\n')[0]!.slice(0, 120), target: 'runs', met: false });
    }
    process.stderr.write(`bench: ${name} took ${Math.round((Date.now() - t0) / 1000)} s\n`);
  }
  const width = Math.max(...rows.map((r) => r.measure.length));
  const line = (a: string, b: string, c: string, d: string) => `${a.padEnd(width)} | ${b.padEnd(44)} | ${c.padEnd(26)} | ${d}`;
  console.log(line('measure', 'value', 'target', 'met'));
  console.log('-'.repeat(width + 84));
  for (const r of rows) console.log(line(r.measure, r.value, r.target, r.met === null ? '' : r.met ? 'yes' : 'NO'));
  results.table = rows;
  writeFileSync(arg('out', '') ? resolve(arg('out', '')) : resolve(import.meta.dirname, 'results.json'), JSON.stringify(results, null, 2) + '\n');
}

/** The arguments a run of `--ab` passes on to each of its bench runs (all but its own). */
function passedOn(): string[] {
  const own = new Set(['--ab', '--pairs', '--only', '--out']);
  const argv = process.argv.slice(2);
  return argv.filter((a, i) => !own.has(a) && !own.has(argv[i - 1] ?? ''));
}

if (arg('ab', '') && !process.argv.includes('--only')) throw new Error('--ab compares the rows named with --only (a whole bench twice over, five times, is hours)');
(arg('ab', '') ? import('./versus.ts').then(({ versus }) => versus(arg('ab', ''), ONLY.join(','), Number(arg('pairs', '5')), passedOn())) : main()).catch((err) => {
  console.error(err);
  process.exit(1);
});
