/**
 * The Firefox side of `npm run bench`: first audio and seams with the Firefox
 * test build (`wxt build -b firefox --mode test`: the background page's `player`
 * and its counters) in headless firefox-esr (puppeteer-core over WebDriver BiDi), against
 * the same local service settings as the Chromium measures.
 */
import type { Page } from 'puppeteer-core';
import { toneMp3 } from '../tests/fake-service/audio.ts';
import { startFakeService, type FakeService, type FakeServiceOptions } from '../tests/fake-service/server.ts';
import { startPagesServer, type PagesServer } from '../tests/e2e/pages-server.ts';
import { launchFirefoxWithExtension, openExtensionPage, type LaunchedFirefox } from '../tests/e2e-firefox/firefox.ts';
import {
  mainThreadRows,
  type MainThreadSeen,
  WATCH_MAIN_THREAD_ON,
  FIRST_AUDIO_SERVICE,
  ROUND_TRIP_MS,
  FIRST_AUDIO_TARGET_MS,
  FIRST_BYTE_MS,
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
  rows,
  RUNS,
  SEAMS_PAGE,
  SEAMS_SERVICE,
  startExternalService,
  CLEAR_AUDIO_CACHE,
  popupReached,
  type PopupCheck,
  waitInPage,
} from './report.ts';
import { BOOK_PAGES, pdfBytes } from '../tests/fixtures/pdfs.ts';
import { selectContents } from '../tests/fixtures/select.ts';

type Stats = { waiting: number; firstBytesAt: number; firstPlayingAt: number; endedAt: number; stalls: Array<{ at: number; ms: number }> };
const STATE = '[data-testid="player"]';

/**
 * Opens the options page, sets the key, the service and a high confirmation threshold, and waits for the
 * account to show; the page stays open (an extension page to reach the background page from).
 */
export async function optionsPageFor(ff: LaunchedFirefox, serviceUrl: string): Promise<Page> {
  const page = await openExtensionPage(ff.browser, `${ff.base}options.html`);
  for (const [id, value] of [
    ['api-key', KEY],
    ['base-url', serviceUrl],
    ['confirm-threshold', '100000'],
  ]) {
    await page.$eval(`[data-testid="${id}"]`, (e) => ((e as HTMLInputElement).value = ''));
    await page.type(`[data-testid="${id}"]`, value!);
  }
  await page.click('[data-testid="save"]');
  await page.waitForSelector('[data-testid="account"]');
  return page;
}

export class FirefoxRig {
  private helper: Page | null = null;
  private constructor(
    readonly ff: LaunchedFirefox,
    readonly service: FakeService,
    readonly pages: PagesServer,
  ) {}

  static async start(options: FakeServiceOptions, external = false): Promise<FirefoxRig> {
    const service = external ? await startExternalService(options) : await startFakeService(options);
    const pages = await startPagesServer();
    const ff = await launchFirefoxWithExtension();
    const rig = new FirefoxRig(ff, service, pages);
    const page = await optionsPageFor(ff, service.url);
    rig.helper = page;
    if (process.env.BENCH_NO_FLOATING) {
      await page.evaluate(() => (globalThis as unknown as { browser: typeof chrome }).browser.storage.local.set({ 'page-options': { floatingPlayer: false, clickToRead: false } }));
    }
    results.firefox = await ff.browser.version();
    return rig;
  }

  async openTab(path: string): Promise<{ page: Page; tabId: number }> {
    const page = await this.ff.browser.newPage();
    await page.goto(`${this.pages.url}${path}`);
    const tabId = await this.helper!.evaluate(
      async (u) => (await (globalThis as unknown as { browser: typeof chrome }).browser.tabs.query({})).find((t) => t.url === u)?.id ?? -1,
      page.url(),
    );
    await letSettle(page);
    return { page, tabId };
  }

  /**
   * ms from the popup's navigation start to the player's `playing` (the background page's mark, as Chromium's
   * row reads the offscreen player's), and to the popup showing it (data-state=playing, polled every 5 ms): the
   * popup's bundle loads once the reading plays (utils/background/popup.ts), so it shows it a moment after.
   */
  async popupUntilPlaying(tabId: number): Promise<{ popup: Page; ms: number; shownMs: number }> {
    const popup = await openExtensionPage(this.ff.browser, `${this.ff.base}popup.html?tabId=${tabId}`);
    const origin = (await popup.evaluate(() => performance.timeOrigin)) as number;
    // Both waited for at once: the popup's, looked for after the player's, is found at once.
    const [ms, shown] = await Promise.all([
      this.playingAfter(origin, 'the popup opened'),
      popup.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('data-state') === 'playing' && performance.now(), { timeout: 60_000, polling: 5 }, STATE),
    ]);
    return { popup, ms, shownMs: (await shown.jsonValue()) as number };
  }

  async waitState(popup: Page, states: string[]) {
    await popup.waitForFunction((sel, s) => s.includes(document.querySelector(sel)?.getAttribute('data-state') ?? ''), { timeout: 600_000, polling: 100 }, STATE, states);
  }

  helperPage(): Page {
    return this.helper!;
  }

  /**
   * Sets the confirmation threshold, through the test build's settings hook in the background page (as the Firefox
   * tests do): the settings live in the extension's protected store since 2026-12-02, where the bench's old check of
   * `storage.local` never saw them, and the options page's Save asks for the service's permission again.
   */
  async setThreshold(rub: string) {
    const result = await this.helper!.evaluate(async (want: string) => {
      const bg = (await (globalThis as unknown as { browser: typeof chrome }).browser.runtime.getBackgroundPage()) as unknown as { saveSettings?: (c: object) => Promise<{ ok: boolean; code?: string }> };
      if (!bg?.saveSettings) return { ok: false, code: 'saveSettings is missing: the bench needs the test build' };
      const { ok, code } = await bg.saveSettings((bg as unknown as typeof globalThis).JSON.parse(JSON.stringify({ confirmThresholdRub: want })) as object);
      return { ok, code };
    }, rub);
    if (!result.ok) throw new Error(`the threshold was refused: ${result.code}`);
  }

  async stop(popup: Page) {
    await popup.click('[data-testid="stop"]');
    await this.waitState(popup, ['stopped']);
    await serviceIdle(this.service.url);
  }

  /**
   * Starts a reading through the toolbar's, a shortcut's or the menu's handler in the background page
   * (test build), and resolves with ms from that call to the player's `playing` (the same page's clock).
   */
  async hookUntilPlaying(tabId: number, how: 'toolbar' | 'shortcut' | 'menu', selectionText = ''): Promise<{ ms: number; startedAt: number }> {
    const startedAt = await this.helper!.evaluate(
      async (tabId, how, selectionText) => {
        const { browser } = globalThis as unknown as { browser: typeof chrome };
        const bg = (await browser.runtime.getBackgroundPage()) as unknown as {
          toolbarClick(t: object): void;
          commandHandler(name: string, t: object): Promise<void>;
          contextMenuClick(info: object, t: object): void;
          performance: Performance;
          player: { stats: Stats };
        };
        const tab = await browser.tabs.get(tabId);
        // This start's marks only: the trace keeps the last 2,000, and a reading's appends fill it. Emptied in
        // place: an array made here would belong to this page, and the background would then mark into it.
        (bg as unknown as { readingTrace?: unknown[] }).readingTrace?.splice(0);
        const at = bg.performance.timeOrigin + bg.performance.now();
        if (how === 'toolbar') bg.toolbarClick(tab);
        else if (how === 'shortcut') void bg.commandHandler('read', tab);
        else bg.contextMenuClick({ menuItemId: 'read-selection', selectionText, editable: false, pageUrl: tab.url }, tab);
        return at;
      },
      tabId,
      how,
      selectionText,
    );
    return { ms: await this.playingAfter(startedAt, `the ${how} path`), startedAt };
  }

  /** ms from `startedAt` (epoch ms) to the player's first `playing` after it (the background page's mark). */
  async playingAfter(startedAt: number, what: string): Promise<number> {
    const deadline = Date.now() + 60_000;
    const bgMark = 'bg.player.stats.firstPlayingAt ? bg.performance.timeOrigin + bg.player.stats.firstPlayingAt : 0';
    for (;;) {
      const at = (await this.helper!.evaluate(
        `(async () => { const bg = await browser.runtime.getBackgroundPage(); return ${waitInPage(bgMark, startedAt)}; })()`,
      )) as number;
      if (at && at > startedAt) return at - startedAt;
      if (Date.now() > deadline) throw new Error(`no playback from ${what}`);
    }
  }

  async stopFromBackground() {
    await this.helper!.evaluate(async () => {
      const { browser } = globalThis as unknown as { browser: typeof chrome };
      const bg = (await browser.runtime.getBackgroundPage()) as unknown as { commandHandler(name: string): Promise<void> };
      await bg.commandHandler('stop');
    });
    await serviceIdle(this.service.url);
  }

  /** The player in the background page (MV2: reached through getBackgroundPage). */
  playerStats(): Promise<Stats> {
    return this.helper!.evaluate(async () => {
      const bg = (await (globalThis as unknown as { browser: typeof chrome }).browser.runtime.getBackgroundPage()) as unknown as {
        player: { stats: Stats };
      };
      return { ...bg.player.stats };
    });
  }

  /**
   * The clock check for seams: plays `seconds` of tone as one part whose bytes are
   * all there at once (no seams, no waiting on the network) and returns wall time
   * over audio time. Firefox's mock audio output (no sound card here) runs ~1.4 %
   * slower than real time; this separates that from the seams.
   */
  async clockRatio(seconds: number): Promise<number> {
    const tone = Buffer.from(toneMp3(seconds * 1000)).toString('base64');
    return this.helper!.evaluate(async (b64: string) => {
      const bg = (await (globalThis as unknown as { browser: typeof chrome }).browser.runtime.getBackgroundPage()) as unknown as {
        player: { handle(cmd: object): void; stats: Stats; audio: HTMLAudioElement };
      };
      const { player } = bg;
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)).buffer;
      const readingId = 'bench-clock';
      const ended = new Promise<void>((ok) => player.audio.addEventListener('ended', () => ok(), { once: true }));
      player.handle({ type: 'load', readingId, load: 1, startPart: 0, seekInPart: 0, positionBase: 0, rate: 1, volume: 1 });
      player.handle({ type: 'append', readingId, part: 0, bytes });
      player.handle({ type: 'part-end', readingId, part: 0 });
      player.handle({ type: 'end-of-stream', readingId });
      await ended;
      const wall = (player.stats.endedAt - player.stats.firstPlayingAt) / 1000;
      const audio = player.audio.duration;
      player.handle({ type: 'stop', readingId });
      return wall / audio;
    }, tone);
  }

  async close() {
    await this.ff.close();
    await this.pages.close();
    await this.service.close();
  }
}

/** First audio on saved real pages, as Chromium's `real-pages` measures it (bench/run.ts). */
export async function firefoxRealPagesFirstAudio() {
  const rig = await FirefoxRig.start(FIRST_AUDIO_SERVICE, true);
  try {
    await measureRealPages('Firefox', async (name, run) => {
      const served = realPage(name, run)!;
      rig.pages.put(served.path, served.html);
      await rig.helperPage().evaluate(CLEAR_AUDIO_CACHE);
      const { page, tabId } = await rig.openTab(served.path);
      await page.bringToFront();
      const { ms, startedAt } = await rig.hookUntilPlaying(tabId, 'toolbar');
      const firstByte = await serviceFirstByteAfter(rig.service.url, startedAt);
      // The rest of a page read title first comes after `playing`: waited for, so that it is in the steps.
      const trace = (await rig.helperPage().evaluate(`(async () => {
        const bg = await browser.runtime.getBackgroundPage();
        await (${waitForRest.toString()})(bg);
        return (bg.readingTrace ?? []).splice(0);
      })()`)) as [string, number][];
      await rig.stopFromBackground();
      await page.close();
      return { ms, firstByte, trace: await withServiceMarks(trace, rig.service.url, startedAt) };
    });
  } finally {
    await rig.close();
  }
}

export async function firefoxFirstAudio() {
  const rig = await FirefoxRig.start(FIRST_AUDIO_SERVICE, true);
  try {
    /** In the player: first bytes handed to it → `playing` (MediaSource open, wrapping, first append, play()). */
    const bytesToPlaying: number[] = [];
    /** In the popup: navigation start → its script has run (DOMContentLoaded). */
    const popupLoad: number[] = [];
    /** Navigation start of the popup → the first speech request reaching the service (extraction and splitting included). */
    const toRequest: number[] = [];
    /** The popup opened → it shows `playing` (its bundle drawn), − first byte. */
    const shown: Record<'selection' | 'article', number[]> = { selection: [], article: [] };
    const measure = async (kind: 'selection' | 'article', run: number) => {
      const { path, html } = firstAudioPage(kind, run);
      rig.pages.put(path, html);
      const { page, tabId } = await rig.openTab(path);
      if (kind === 'selection') {
        await page.evaluate(selectContents, 'article p');
      }
      const { popup, ms, shownMs } = await rig.popupUntilPlaying(tabId);
      if (run >= 0) shown[kind].push(shownMs - FIRST_BYTE_MS);
      const player = await rig.playerStats();
      if (player && player.firstPlayingAt && run >= 0) bytesToPlaying.push(player.firstPlayingAt - player.firstBytesAt);
      if (run >= 0) {
        const origin = await popup.evaluate(() => performance.timeOrigin);
        const arrived = await firstRequestAfter(rig.service.url, origin);
        if (arrived !== null) toRequest.push(arrived - origin);
      }
      if (run >= 0) popupLoad.push(await popup.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).domContentLoadedEventEnd));
      await rig.stop(popup);
      await popup.close();
      await page.close();
      return ms - FIRST_BYTE_MS;
    };
    /** The toolbar button (article), a shortcut (article), the context menu (selection): click → playing, − the service's own first byte. */
    const overOwn: Record<string, number[]> = {};
    const steps: Record<string, number[]> = {};
    const viaHook = async (how: 'toolbar' | 'shortcut' | 'menu', run: number) => {
      const kind = how === 'menu' ? 'selection' : 'article';
      const { path, html } = firstAudioPage(kind, run + (how === 'toolbar' ? 1000 : how === 'shortcut' ? 2000 : 3000));
      rig.pages.put(path, html);
      const { page, tabId } = await rig.openTab(path);
      await page.bringToFront();
      // The menu item is there only for a selection: the page has one, as the listener made it.
      const selectionText = how === 'menu' ? await page.evaluate(selectContents, 'article p') : '';
      const { ms, startedAt } = await rig.hookUntilPlaying(tabId, how, selectionText);
      const serviceFirstByte = await serviceFirstByteAfter(rig.service.url, startedAt);
      if (serviceFirstByte !== null && run >= 0) (overOwn[how] ??= []).push(ms - serviceFirstByte);
      const trace = await rig.helperPage().evaluate(async () => {
        const bg = (await (globalThis as unknown as { browser: typeof chrome }).browser.runtime.getBackgroundPage()) as unknown as { readingTrace?: [string, number][] };
        return (bg.readingTrace ?? []).splice(0);
      });
      if (run >= 0) {
        if (!trace.some(([label]) => label === 'start')) console.error(`bench: the ${how} path's run ${run} left no trace (${trace.length} marks)`);
        collectSteps(await withServiceMarks(trace, rig.service.url, startedAt), how, steps);
      }
      await rig.stopFromBackground();
      await page.close();
    };
    /**
     * The popup's own button, the way a listener comes to it (as in Chromium's bench): the toolbar clicked
     * over a page not read before while another reading is under way (it starts nothing), that reading
     * stopped in the popup, then the play button pressed.
     */
    const viaPopupButton = async (run: number) => {
      const before = firstAudioPage('article', run + 7000);
      rig.pages.put(before.path, before.html);
      const under = await rig.openTab(before.path);
      await rig.hookUntilPlaying(under.tabId, 'toolbar');
      const { path, html } = firstAudioPage('article', run + 6000);
      rig.pages.put(path, html);
      const { page, tabId } = await rig.openTab(path);
      await page.bringToFront();
      await rig.helperPage().evaluate(async (tabId) => {
        const { browser } = globalThis as unknown as { browser: typeof chrome };
        const bg = (await browser.runtime.getBackgroundPage()) as unknown as { toolbarClick(t: object): void };
        bg.toolbarClick(await browser.tabs.get(tabId));
      }, tabId);
      const popup = await openExtensionPage(rig.ff.browser, `${rig.ff.base}popup.html?tabId=${tabId}&from=toolbar`);
      await popup.waitForSelector('[data-testid="play-pause"]');
      await rig.stop(popup);
      await letSettle(popup);
      const { overFirstByte } = await pressPlayUntilPlaying(popup, rig.service.url, (at, what) => rig.playingAfter(at, what));
      if (overFirstByte !== null && run >= 0) (overOwn.button ??= []).push(overFirstByte);
      await rig.stop(popup);
      await popup.close();
      await page.close();
      await under.page.close();
    };
    await measure('selection', -1);
    await measure('article', -1);
    for (const how of ['toolbar', 'shortcut', 'menu'] as const) await viaHook(how, -1);
    await viaPopupButton(-1);
    const out: Record<'selection' | 'article', number[]> = { selection: [], article: [] };
    for (let i = 0; i < RUNS; i++) {
      out.selection.push(await measure('selection', i));
      out.article.push(await measure('article', i));
      for (const how of ['toolbar', 'shortcut', 'menu'] as const) await viaHook(how, i);
      await viaPopupButton(i);
    }
    results.firefoxFirstAudioSteps = Object.fromEntries(Object.entries(steps).map(([k, xs]) => [k, r1(median(xs))]));
    // Each step of each run in order (the warm-up first): a step that grows over a run shows here.
    results.firefoxFirstAudioStepRuns = Object.fromEntries(Object.entries(steps).map(([k, xs]) => [k, xs.map(r1)]));
    console.log('Firefox, first steps (median ms after start):', results.firefoxFirstAudioSteps);
    for (const [how, what] of [
      ['toolbar', 'toolbar button, 15,000-character article'],
      ['shortcut', 'shortcut (Alt+R), 15,000-character article'],
      ['menu', 'context menu, selection'],
      ['button', "the popup's play button over a page the toolbar readied (clicked while another reading was under way; that reading stopped in the popup), same article"],
    ] as const) {
      const xs = overOwn[how] ?? [];
      rows.push({ measure: `Firefox: first audio, ${what} (click → playing, − the service's first byte)`, value: `median ${r1(median(xs))} ms, p95 ${r1(quantile(xs, 0.95))} ms`, target: `≤ ${FIRST_AUDIO_TARGET_MS.Firefox} ms at the median`, met: median(xs) <= FIRST_AUDIO_TARGET_MS.Firefox });
    }
    const stat = (xs: number[]) => ({ median: r1(median(xs)), p95: r1(quantile(xs, 0.95)), runs: xs.map(r1) });
    results.firefoxFirstAudio = {
      firstByteMs: FIRST_BYTE_MS,
      roundTripMs: ROUND_TRIP_MS,
      selection: stat(out.selection),
      article: stat(out.article),
      overOwnFirstByte: Object.fromEntries(Object.entries(overOwn).map(([k, xs]) => [k, stat(xs)])),
      bytesToPlaying: stat(bytesToPlaying),
      popupLoad: stat(popupLoad),
      toRequest: stat(toRequest),
      shown: { selection: stat(shown.selection), article: stat(shown.article) },
    };
    for (const kind of ['selection', 'article'] as const) {
      rows.push({
        measure: `Firefox: first audio, ${kind} (popup open → playing, − first byte)`,
        value: `median ${r1(median(out[kind]))} ms, p95 ${r1(quantile(out[kind], 0.95))} ms`,
        target: 'close to Chromium',
        met: null,
      });
    }
    for (const kind of ['selection', 'article'] as const) {
      rows.push({ measure: `Firefox: the popup opened shows playing, ${kind} (popup open → its data-state playing, − first byte)`, value: `median ${r1(median(shown[kind]))} ms`, target: '—', met: null });
    }
    rows.push({ measure: 'Firefox: first audio, in the player: first bytes → playing', value: `median ${r1(median(bytesToPlaying))} ms`, target: '—', met: null });
    rows.push({ measure: `Firefox: first audio, popup page load (navigation → DOMContentLoaded)`, value: `median ${r1(median(popupLoad))} ms`, target: '—', met: null });
    rows.push({ measure: `Firefox: first audio, popup open → first request at the service`, value: `median ${r1(median(toRequest))} ms`, target: '—', met: null });
  } finally {
    await rig.close();
  }
}

/** First audio on the 300-page book in Firefox's own PDF viewer (the toolbar's popup), over the threshold: ask, agree, speak. */
export async function firefoxPdfFirstAudio() {
  const rig = await FirefoxRig.start(FIRST_AUDIO_SERVICE, true);
  try {
    rig.pages.putFile('/book.pdf', await pdfBytes('book'), 'application/pdf');
    await rig.setThreshold('10');
    const confirmShown: number[] = [];
    const confirmToPlaying: number[] = [];
    const counted: number[] = [];
    for (let i = -1; i < RUNS; i++) {
      await rig.helperPage().evaluate(CLEAR_AUDIO_CACHE);
      const { page, tabId } = await rig.openTab('/book.pdf');
      const popup = await openExtensionPage(rig.ff.browser, `${rig.ff.base}popup.html?tabId=${tabId}`);
      const at = async (check: PopupCheck) => (await (await popup.waitForFunction(popupReached, { timeout: 120_000, polling: 5 }, check)).jsonValue()) as number;
      const shown = await at({ state: 'confirm' });
      const clicked = await popup.evaluate(() => {
        (document.querySelector('[data-testid="confirm-read"]') as HTMLButtonElement).click();
        return performance.now();
      });
      const playing = await at({ state: 'playing' });
      const countedAt = await at({ counted: true });
      if (i >= 0) {
        confirmShown.push(shown);
        confirmToPlaying.push(playing - clicked - FIRST_BYTE_MS);
        counted.push(countedAt);
      }
      await rig.stop(popup);
      await popup.close();
      await page.close();
    }
    const stat = (xs: number[]) => ({ median: r1(median(xs)), p95: r1(quantile(xs, 0.95)), runs: xs.map(r1) });
    results.firefoxPdf = { pages: BOOK_PAGES, confirmShown: stat(confirmShown), confirmToPlaying: stat(confirmToPlaying), counted: stat(counted) };
    rows.push({ measure: `Firefox: PDF ${BOOK_PAGES} pages: popup open → confirmation shown`, value: `median ${r1(median(confirmShown))} ms`, target: 'before the whole book is counted', met: median(confirmShown) < median(counted) });
    rows.push({ measure: `Firefox: PDF ${BOOK_PAGES} pages: confirmed → playing (− first byte)`, value: `median ${r1(median(confirmToPlaying))} ms`, target: '—', met: null });
    rows.push({ measure: `Firefox: PDF ${BOOK_PAGES} pages: popup open → whole book counted`, value: `median ${r1(median(counted))} ms`, target: '—', met: null });
  } finally {
    await rig.close();
  }
}

export async function firefoxSeams() {
  const rig = await FirefoxRig.start(SEAMS_SERVICE);
  try {
    rig.pages.put(SEAMS_PAGE.path, SEAMS_PAGE.html);
    const { tabId } = await rig.openTab(SEAMS_PAGE.path);
    const { popup } = await rig.popupUntilPlaying(tabId);
    // The watch's timers are the background page's (the player's): the helper page is a tab Firefox throttles.
    await rig.helperPage().evaluate(`(async () => (${WATCH_MAIN_THREAD_ON})(await browser.runtime.getBackgroundPage()))()`);
    await rig.waitState(popup, ['finished', 'error']);
    const seen = (await rig.helperPage().evaluate('(async () => (await browser.runtime.getBackgroundPage()).__mainThread())()')) as MainThreadSeen;
    const stats = await rig.playerStats();
    const parts = rig.service.speechLog().filter((e) => e.status === 200);
    const audioSeconds = Number(await popup.$eval(STATE, (e) => e.getAttribute('data-position')));
    const wall = (stats.endedAt - stats.firstPlayingAt) / 1000;
    const rawPerSeam = ((wall - audioSeconds) * 1000) / Math.max(parts.length - 1, 1);
    const clock = await rig.clockRatio(Math.round(audioSeconds));
    const perSeam = ((wall - audioSeconds * clock) * 1000) / Math.max(parts.length - 1, 1);
    results.firefoxSeams = {
      parts: parts.length,
      stalls: stats.waiting,
      stallDetails: stats.stalls,
      wallSeconds: r1(wall),
      audioSeconds: r1(audioSeconds),
      clockRatio: Math.round(clock * 10000) / 10000,
      rawMsPerSeam: r1(rawPerSeam),
      msPerSeam: r1(perSeam),
    };
    rows.push({ measure: `Firefox: seams, stalls in a ${parts.length}-part reading`, value: String(stats.waiting), target: '0', met: stats.waiting === 0 });
    rows.push({
      measure: 'Firefox: seams, wall − audio × clock ratio, per seam',
      value: `${r1(perSeam)} ms (raw ${r1(rawPerSeam)} ms; clock ratio ${clock.toFixed(4)})`,
      target: '≤ 30 ms',
      met: perSeam <= 30,
    });
    mainThreadRows('Firefox', seen);
  } finally {
    await rig.close();
  }
}
