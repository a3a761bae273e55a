/**
 * The Firefox side of `npm run bench`: first audio and seams with the Firefox
 * build in headless firefox-esr (puppeteer-core over WebDriver BiDi), against
 * the same local service settings as the Chromium measures.
 */
import type { Page } from 'puppeteer-core';
import { startFakeService, type FakeService, type FakeServiceOptions } from '../tests/fake-service/server.ts';
import { startPagesServer, type PagesServer } from '../tests/e2e/pages-server.ts';
import { launchFirefoxWithExtension, openExtensionPage, type LaunchedFirefox } from '../tests/e2e-firefox/firefox.ts';
import {
  FIRST_AUDIO_SERVICE,
  FIRST_BYTE_MS,
  firstAudioPage,
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
} from './report.ts';

type Stats = { waiting: number; firstPlayingAt: number; endedAt: number };
const STATE = '[data-testid="player"]';

class FirefoxRig {
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
    const page = await openExtensionPage(ff.browser, `${ff.base}options.html`);
    for (const [id, value] of [
      ['api-key', KEY],
      ['base-url', service.url],
      ['confirm-threshold', '100000'],
    ]) {
      await page.$eval(`[data-testid="${id}"]`, (e) => ((e as HTMLInputElement).value = ''));
      await page.type(`[data-testid="${id}"]`, value!);
    }
    await page.click('[data-testid="save"]');
    await page.waitForSelector('[data-testid="account"]');
    rig.helper = page;
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
    return { page, tabId };
  }

  /** ms from the popup's navigation start to data-state=playing, on the page's own clock (polled every 5 ms). */
  async popupUntilPlaying(tabId: number): Promise<{ popup: Page; ms: number }> {
    const popup = await openExtensionPage(this.ff.browser, `${this.ff.base}popup.html?tabId=${tabId}`);
    const handle = await popup.waitForFunction(
      (sel) => document.querySelector(sel)?.getAttribute('data-state') === 'playing' && performance.now(),
      { timeout: 60_000, polling: 5 },
      STATE,
    );
    return { popup, ms: (await handle.jsonValue()) as number };
  }

  async waitState(popup: Page, states: string[]) {
    await popup.waitForFunction((sel, s) => s.includes(document.querySelector(sel)?.getAttribute('data-state') ?? ''), { timeout: 600_000, polling: 100 }, STATE, states);
  }

  async stop(popup: Page) {
    await popup.click('[data-testid="stop"]');
    await this.waitState(popup, ['stopped']);
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

  async close() {
    await this.ff.close();
    await this.pages.close();
    await this.service.close();
  }
}

export async function firefoxFirstAudio() {
  const rig = await FirefoxRig.start(FIRST_AUDIO_SERVICE, true);
  try {
    const measure = async (kind: 'selection' | 'article', run: number) => {
      const { path, html } = firstAudioPage(kind, run);
      rig.pages.put(path, html);
      const { page, tabId } = await rig.openTab(path);
      if (kind === 'selection') {
        await page.evaluate(() => {
          const range = document.createRange();
          range.selectNodeContents(document.querySelector('article p')!);
          getSelection()!.removeAllRanges();
          getSelection()!.addRange(range);
        });
      }
      const { popup, ms } = await rig.popupUntilPlaying(tabId);
      await rig.stop(popup);
      await popup.close();
      await page.close();
      return ms - FIRST_BYTE_MS;
    };
    await measure('selection', -1);
    await measure('article', -1);
    const out: Record<'selection' | 'article', number[]> = { selection: [], article: [] };
    for (let i = 0; i < RUNS; i++) {
      out.selection.push(await measure('selection', i));
      out.article.push(await measure('article', i));
    }
    const stat = (xs: number[]) => ({ median: r1(median(xs)), p95: r1(quantile(xs, 0.95)), runs: xs.map(r1) });
    results.firefoxFirstAudio = { firstByteMs: FIRST_BYTE_MS, selection: stat(out.selection), article: stat(out.article) };
    for (const kind of ['selection', 'article'] as const) {
      rows.push({
        measure: `Firefox: first audio, ${kind} (popup open → playing, − first byte)`,
        value: `median ${r1(median(out[kind]))} ms, p95 ${r1(quantile(out[kind], 0.95))} ms`,
        target: 'close to Chromium',
        met: null,
      });
    }
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
    await rig.waitState(popup, ['finished', 'error']);
    const stats = await rig.playerStats();
    const parts = rig.service.speechLog().filter((e) => e.status === 200);
    const audioSeconds = Number(await popup.$eval(STATE, (e) => e.getAttribute('data-position')));
    const wall = (stats.endedAt - stats.firstPlayingAt) / 1000;
    const perSeam = ((wall - audioSeconds) * 1000) / Math.max(parts.length - 1, 1);
    results.firefoxSeams = { parts: parts.length, stalls: stats.waiting, wallSeconds: r1(wall), audioSeconds: r1(audioSeconds), msPerSeam: r1(perSeam) };
    rows.push({ measure: `Firefox: seams, stalls in a ${parts.length}-part reading`, value: String(stats.waiting), target: '0', met: stats.waiting === 0 });
    rows.push({ measure: 'Firefox: seams, playback wall time − audio time, per seam', value: `${r1(perSeam)} ms`, target: '≤ 30 ms', met: perSeam <= 30 });
  } finally {
    await rig.close();
  }
}
