/**
 * The soak row (issue 58): a long reading, synthesized faster than real time and played at 3×, with a
 * fault every ~20 s drawn from outages of 5–60 s, a 429, a burst of 5xx, a body cut mid-stream, a stopped
 * background (Chromium's worker, Firefox's page) and a closed offscreen document (Chromium). What it
 * checks: the reading finishes by itself, every sentence was sent, nothing was received twice, what was
 * paid twice (the rests of cut parts), the longest silence not caused by an outage, memory.
 *
 *   npm run bench -- --only soak,firefox-soak --soak-minutes 30
 *
 * Silence is read off the player's own clock (`player.audio.currentTime`, sampled every 250 ms): the popup's
 * position waits for the background, which a stopped worker holds back while the audio plays on.
 */
import type { Page as PwPage, Worker } from 'playwright-core';
import type { Page } from 'puppeteer-core';
import { startFakeService, type FakeService, type FakeServiceOptions } from '../tests/fake-service/server.ts';
import { launchWithExtension, serviceWorkerOf } from '../tests/e2e/chromium.ts';
import { startPagesServer } from '../tests/e2e/pages-server.ts';
import { launchFirefoxWithExtension, openExtensionPage } from '../tests/e2e-firefox/firefox.ts';
import { makeArticleHtml, makeSentences } from '../tests/fixtures/make-article.ts';
import { paidTwice, sentencesOf } from '../tests/fixtures/paid-twice.ts';
import { TargetEvaluator } from './cdp.ts';
import { optionsPageFor } from './firefox.ts';
import { arg, KEY, r1, results, rows } from './report.ts';

const SOAK_MINUTES = Number(arg('soak-minutes', '30'));
/** About 70 ms of audio a character (a usual speaking pace); synthesized at 6× real time. */
const MS_PER_CHAR = 70;
const SERVICE: FakeServiceOptions = { msPerChar: MS_PER_CHAR, minMs: 50, realtimeFactor: 6, firstByteMs: 150, chunkBytes: 4096 };
const RATE = '3';
/** A fault every FAULT_EVERY_MS ± a quarter, counted from the end of the last outage. */
const FAULT_EVERY_MS = 20_000;
/** A silence that begins within this long of an outage's end is the outage's (the next try comes ≤ 8 s later, then a first byte). */
const AFTER_OUTAGE_MS = 10_000;

type FaultName = 'outage' | '429' | '5xx burst' | 'cut mid-stream' | 'background stopped' | 'player closed';

/** What the soak needs of a browser. */
interface SoakDriver {
  browser: 'Chromium' | 'Firefox';
  service: FakeService;
  /** The popup's `player` attributes. */
  view(): Promise<{ state: string; wait: string; part: number; parts: number; cost: string; chars: string; error: string }>;
  /** The player's clock: null while it has no audio element (being opened again). */
  audio(): Promise<{ time: number; paused: boolean } | null>;
  /** The player's JS heap, MB (null where the browser does not tell). */
  heapMB(): Promise<number | null>;
  stopBackground(): Promise<void>;
  /** Chrome closing the offscreen document (null: no such thing in this browser). */
  closePlayer: (() => Promise<void>) | null;
  close(): Promise<void>;
}

/** The article's text and its sentences, as the service will be asked for them. */
function article(chars: number): { html: string; sentences: string[] } {
  const html = makeArticleHtml(chars, 'Долгое чтение');
  return { html, sentences: makeSentences(chars).flat() };
}

export async function soakChromium(): Promise<void> {
  const service = await startFakeService(SERVICE);
  const pages = await startPagesServer();
  const launched = await launchWithExtension({ args: ['--enable-precise-memory-info'] });
  const context = launched.context;
  let sw: Worker = await serviceWorkerOf(context);
  const id = new URL(sw.url()).host;
  const url = (path: string) => `chrome-extension://${id}/${path}`;
  const cdp = await TargetEvaluator.create(context);
  const options = await context.newPage();
  await options.goto(url('options.html'));
  await options.getByTestId('api-key').fill(KEY);
  await options.getByTestId('base-url').fill(service.url);
  await options.getByTestId('confirm-threshold').fill('100000');
  await options.getByTestId('save').click();
  await options.getByTestId('account').waitFor();
  const { html, sentences } = article(charsFor(SOAK_MINUTES));
  pages.put('/soak.html', html);
  const page = await context.newPage();
  await page.goto(`${pages.url}/soak.html`);
  const tabId = await sw.evaluate(async (u) => (await chrome.tabs.query({ url: u }))[0]?.id ?? -1, page.url());
  const popup: PwPage = await context.newPage();
  await popup.goto(url(`popup.html?tabId=${tabId}`));
  await popup.getByTestId('speed').selectOption(RATE);
  const attr = (name: string) => popup.getByTestId('player').getAttribute(name).then((v) => v ?? '');
  const driver: SoakDriver = {
    browser: 'Chromium',
    service,
    view: async () => ({
      state: await attr('data-state'),
      wait: await attr('data-wait'),
      part: Number(await attr('data-part')),
      parts: Number(await attr('data-parts')),
      cost: (await popup.getByTestId('cost').getAttribute('data-value')) ?? '',
      chars: (await popup.getByTestId('chars').getAttribute('data-value')) ?? '',
      error: (await popup.getByTestId('error').getAttribute('data-code')) ?? '',
    }),
    audio: async () => (await cdp.evaluate<{ time: number; paused: boolean }>('/offscreen.html', '({ time: player.audio.currentTime, paused: player.audio.paused })')) ?? null,
    heapMB: async () => {
      const heap = await cdp.evaluate<number>('/offscreen.html', 'performance.memory.usedJSHeapSize');
      return typeof heap === 'number' ? r1(heap / 2 ** 20) : null;
    },
    stopBackground: async () => {
      const helper = await context.newPage();
      await helper.goto(url('options.html'));
      const session = await context.newCDPSession(helper);
      await session.send('ServiceWorker.enable');
      await session.send('ServiceWorker.stopAllWorkers');
      await session.detach().catch(() => undefined);
      await helper.close();
    },
    closePlayer: async () => {
      sw = context.serviceWorkers().find((w) => w.url().includes(id)) ?? (await serviceWorkerOf(context));
      await sw.evaluate(() => chrome.offscreen.closeDocument()).catch(() => undefined);
    },
    close: async () => {
      await launched.close();
      await pages.close();
      await service.close();
    },
  };
  try {
    results.chromium ||= context.browser()?.version() ?? '';
    report(await soak(driver, sentences));
  } finally {
    await driver.close();
  }
}

export async function soakFirefox(): Promise<void> {
  const service = await startFakeService(SERVICE);
  const pages = await startPagesServer();
  const ff = await launchFirefoxWithExtension();
  const helper = await optionsPageFor(ff, service.url);
  const { html, sentences } = article(charsFor(SOAK_MINUTES));
  pages.put('/soak.html', html);
  const page = await ff.browser.newPage();
  await page.goto(`${pages.url}/soak.html`);
  type Ext = { browser: typeof chrome };
  const tabId = await helper.evaluate(async (u) => (await (globalThis as unknown as Ext).browser.tabs.query({})).find((t) => t.url === u)?.id ?? -1, page.url());
  const popup: Page = await openExtensionPage(ff.browser, `${ff.base}popup.html?tabId=${tabId}`);
  await popup.waitForSelector('[data-testid="speed"]');
  await popup.select('[data-testid="speed"]', RATE);
  const attr = (testId: string, name: string) => popup.evaluate((t, n) => document.querySelector(`[data-testid="${t}"]`)?.getAttribute(n) ?? '', testId, name);
  /** The background page's player clock (null while the page is being replaced; an extension page may not `eval`). */
  const playerClock = () =>
    helper
      .evaluate(async () => {
        try {
          const bg = (await (globalThis as unknown as Ext).browser.runtime.getBackgroundPage()) as unknown as { player?: { audio: HTMLAudioElement } } | null;
          return bg?.player ? { time: bg.player.audio.currentTime, paused: bg.player.audio.paused } : null;
        } catch {
          return null;
        }
      })
      .catch(() => null);
  const driver: SoakDriver = {
    browser: 'Firefox',
    service,
    view: async () => ({
      state: await attr('player', 'data-state'),
      wait: await attr('player', 'data-wait'),
      part: Number(await attr('player', 'data-part')),
      parts: Number(await attr('player', 'data-parts')),
      cost: await attr('cost', 'data-value'),
      chars: await attr('chars', 'data-value'),
      error: await attr('error', 'data-code'),
    }),
    audio: playerClock,
    heapMB: async () => null,
    stopBackground: async () => {
      await helper.evaluate(async () => {
        const bg = (await (globalThis as unknown as Ext).browser.runtime.getBackgroundPage()) as unknown as Window;
        bg.location.reload();
      });
    },
    closePlayer: null,
    close: async () => {
      await ff.close();
      await pages.close();
      await service.close();
    },
  };
  try {
    results.firefox ||= await ff.browser.version();
    report(await soak(driver, sentences));
  } finally {
    await driver.close();
  }
}

/** Characters for `minutes` of audio at MS_PER_CHAR. */
const charsFor = (minutes: number) => Math.round((minutes * 60_000) / MS_PER_CHAR);

interface SoakResult {
  browser: string;
  minutes: number;
  wallMinutes: number;
  finished: boolean;
  state: string;
  error: string;
  faults: Record<string, number>;
  outageSeconds: number[];
  sentencesMissing: number;
  receivedTwiceChars: number;
  askedWholeAgain: number;
  repaidChars: number;
  cutAnswers: number;
  longestSilenceMs: number;
  silences: Array<{ atS: number; ms: number; outage: boolean }>;
  /** The faults as made, in order (s from the start). */
  timeline: Array<{ atS: number; fault: string }>;
  /** Sentences received twice, and the service's log in short. */
  receivedTwice: string[];
  log: Array<[number | null, number, boolean, number, number, string]>;
  heapMB: { first: number | null; peak: number | null; last: number | null };
  costShownOk: boolean;
}

async function soak(d: SoakDriver, sentences: string[]): Promise<SoakResult> {
  let seed = 58;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const kinds: FaultName[] = ['outage', '429', '5xx burst', 'cut mid-stream', 'background stopped', ...(d.closePlayer ? (['player closed'] as const) : [])];
  const faults: Record<string, number> = {};
  const outages: Array<{ from: number; to: number }> = [];
  const heaps: number[] = [];
  const timeline: SoakResult['timeline'] = [];
  const started = Date.now();
  const deadline = started + (SOAK_MINUTES * 60_000) / Number(RATE) + 20 * 60_000;
  let nextFault = started + FAULT_EVERY_MS;
  let last: { time: number; at: number } | null = null;
  let silentSince = 0;
  /** The reading has sounded (its first audio is not a silence). */
  let sounded = false;
  const silences: SoakResult['silences'] = [];
  let view = await d.view();
  let lastHeapAt = 0;
  for (;;) {
    const now = Date.now();
    view = await d.view();
    if (['finished', 'error', 'stopped'].includes(view.state) || now > deadline) break;
    // ▶ when an outage past the pause limit paused it (not expected within 60 s outages: the limit is 10 minutes).
    const audio = await d.audio();
    // Silent: the reading should sound (playing, or loading again after a lost player) and the player's clock
    // stands still, or there is no player (being opened again). A new player's clock starts anew: any move is sound.
    const wanted = view.state === 'playing' || view.state === 'loading';
    const moved = audio !== null && !audio.paused && last !== null && Math.abs(audio.time - last.time) > 0.001;
    if (moved) sounded = true;
    if (sounded && wanted && !moved && (last !== null || audio === null)) {
      silentSince ||= last?.at ?? now;
    } else if (silentSince) {
      const ms = now - silentSince;
      if (ms >= 250) silences.push({ atS: r1((silentSince - started) / 1000), ms, outage: outages.some((o) => silentSince >= o.from - 500 && silentSince <= o.to + AFTER_OUTAGE_MS) });
      silentSince = 0;
    }
    if (audio) last = { time: audio.time, at: now };
    else last = null;
    // The first sample of a reading not yet sounding is not a silence.
    if (!wanted) silentSince = 0;
    if (now - lastHeapAt > 15_000) {
      const last = d.service.speechLog().at(-1);
      process.stderr.write(
        `soak ${d.browser}: ${r1((now - started) / 1000)} s, ${view.state}${view.wait ? ` (waiting for the ${view.wait})` : ''}, part ${view.part + 1} of ${view.parts}; ` +
          `player ${audio ? `${r1(audio.time)} s${audio.paused ? ' paused' : ''}` : 'none'}; last request #${last?.nth} ${last?.status} ${last?.endedAt ? 'ended' : 'open'} ${last?.bytesSent} B\n`,
      );
      const heap = await d.heapMB();
      if (heap !== null) heaps.push(heap);
      lastHeapAt = now;
    }
    const outageOn = outages.some((o) => now < o.to);
    // A fault on top of one still being retried would make one long burst (SERVICE.md: a few tries of a
    // 5xx, then the reading stops with its message): the next waits for the last request answered well.
    const lastAnswer = d.service.speechLog().at(-1);
    const settled = !lastAnswer || lastAnswer.status === 200;
    if (now >= nextFault && !outageOn && settled && view.state === 'playing') {
      const kind = kinds[Math.floor(random() * kinds.length)]!;
      faults[kind] = (faults[kind] ?? 0) + 1;
      timeline.push({ atS: r1((now - started) / 1000), fault: kind });
      process.stderr.write(`soak ${d.browser}: ${r1((now - started) / 1000)} s, fault: ${kind}\n`);
      let wait = FAULT_EVERY_MS * (0.75 + random() / 2);
      // One fault at a time: one not met yet (no request came) goes, rather than piling up into one long burst.
      d.service.clearFaults();
      switch (kind) {
        case 'outage': {
          const seconds = Math.round(5 + random() * 55);
          d.service.outage({ seconds });
          outages.push({ from: now, to: now + seconds * 1000 });
          wait += seconds * 1000;
          break;
        }
        case '429':
          d.service.addFault({ kind: 'status', status: 429, code: 'concurrency_limit' });
          break;
        case '5xx burst':
          d.service.addFault({ kind: 'status', status: 502, code: 'synthesis_failed', times: 3 });
          break;
        case 'cut mid-stream':
          d.service.addFault({ kind: 'reset', afterBytes: Math.round(8_000 + random() * 60_000) });
          break;
        case 'background stopped':
          await d.stopBackground();
          break;
        case 'player closed':
          await d.closePlayer!();
          break;
      }
      nextFault = now + wait;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const log = d.service.speechLog();
  const twice = paidTwice(log);
  const sent = new Set(log.filter((e) => e.status === 200).flatMap((e) => sentencesOf(e.text)));
  const heading = /^(Глава \d+|Долгое чтение)\.? ?/;
  const missing = sentences.filter((s) => !sent.has(s) && ![...sent].some((t) => t.replace(heading, '') === s || t.endsWith(s)));
  const cost = log.reduce((n, e) => n + BigInt(e.costUnits), 0n);
  const shown = view.cost ? BigInt(view.cost.replace('.', '')) : -1n;
  const outageSilence = (s: SoakResult['silences'][number]) => s.outage;
  return {
    browser: d.browser,
    minutes: SOAK_MINUTES,
    wallMinutes: r1((Date.now() - started) / 60_000),
    finished: view.state === 'finished',
    state: view.state,
    error: view.error,
    faults,
    outageSeconds: outages.map((o) => Math.round((o.to - o.from) / 1000)),
    sentencesMissing: missing.length,
    receivedTwiceChars: twice.receivedTwice.reduce((n, s) => n + [...s].length, 0),
    askedWholeAgain: twice.askedWholeAgain.length,
    repaidChars: twice.repaidChars,
    cutAnswers: twice.cut,
    longestSilenceMs: Math.max(0, ...silences.filter((s) => !outageSilence(s)).map((s) => s.ms)),
    silences,
    timeline,
    receivedTwice: twice.receivedTwice,
    log: log.map((e) => [e.nth, e.status, e.aborted, e.bytesSent, e.billedChars, `${r1((e.arrivedAt - started) / 1000)} s ${e.text.slice(0, 40)}`]),
    heapMB: { first: heaps[0] ?? null, peak: heaps.length ? Math.max(...heaps) : null, last: heaps.at(-1) ?? null },
    costShownOk: shown === cost,
  };
}

function report(r: SoakResult): void {
  const soaks = (results.soak ??= {}) as Record<string, unknown>;
  soaks[r.browser] = r;
  const faults = Object.entries(r.faults)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  rows.push({
    measure: `${r.browser}: soak, ${r.minutes} min of audio at ${RATE}× (${r.wallMinutes} min), faults: ${faults}`,
    value: `${r.finished ? 'finished' : `ended ${r.state} ${r.error}`}; ${r.sentencesMissing} sentences unsent; ${r.receivedTwiceChars} chars received twice; ${r.repaidChars} chars of ${r.cutAnswers} cut parts' rests paid again, ${r.askedWholeAgain} asked whole; cost shown ${r.costShownOk ? '=' : '≠'} billed`,
    target: 'finished, 0 unsent, 0 received twice, cost = billed',
    met: r.finished && r.sentencesMissing === 0 && r.receivedTwiceChars === 0 && r.costShownOk,
  });
  rows.push({
    measure: `${r.browser}: soak, longest silence not caused by an outage (outages ${r.outageSeconds.join(', ')} s)`,
    value: `${r.longestSilenceMs} ms (${r.silences.filter((s) => !s.outage).length} silences of ≥ 250 ms)`,
    target: '≤ 1000 ms',
    met: r.longestSilenceMs <= 1000,
  });
  if (r.heapMB.peak !== null) {
    const { first, peak, last } = r.heapMB;
    // Flat (issue 58): what stays after 30 minutes is what was there at the start, give or take a few MB.
    rows.push({
      measure: `${r.browser}: soak, player JS heap after 30 min (first → last)`,
      value: `${first} → ${last} MB`,
      target: 'flat: last ≤ first + 5 MB',
      met: last !== null && first !== null && last <= first + 5,
    });
    // The peak (issue 60): each word-timing decode of a long part is garbage until collected.
    rows.push({
      measure: `${r.browser}: soak, player JS heap peak`,
      value: `${peak} MB`,
      target: '≤ 50 MB',
      met: peak <= 50,
    });
  }
}
