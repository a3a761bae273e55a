/** What the Chromium and Firefox measures share: the table, the statistics, and the service they run against. */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FakeService, FakeServiceOptions } from '../tests/fake-service/server.ts';
import { DEFAULT_ACCOUNT } from '../tests/fake-service/options.ts';
import { makeArticleHtml } from '../tests/fixtures/make-article.ts';

export const KEY = 'vk_live_test_key';
const args = process.argv.slice(2);
export const arg = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
export const RUNS = Number(arg('runs', '10'));

export interface Row {
  measure: string;
  value: string;
  target: string;
  met: boolean | null;
  /** The row's figure for comparing two builds (`--ab`); else the first number of `value`. */
  num?: number;
}
export const rows: Row[] = [];
export const results: Record<string, unknown> = { date: new Date().toISOString(), chromium: '',
  firefox: '', machine: `${process.platform} ${process.arch}` };

export const median = (xs: number[]) => quantile(xs, 0.5);
export function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const i = (s.length - 1) * q;
  const lo = Math.floor(i);
  return s[lo]! + (s[Math.ceil(i)]! - s[lo]!) * (i - lo);
}
/** `ask()`'s first truthy answer, asked every 20 ms; undefined after `ms`. */
export async function until<T>(ask: () => Promise<T | undefined>, ms: number): Promise<T | undefined> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
    const answer = await ask();
    if (answer) return answer;
  }
  return undefined;
}
export const r1 = (n: number) => Math.round(n * 10) / 10;


/** The local service as a child process (only its URL is used). */
export async function startExternalService(o: FakeServiceOptions): Promise<FakeService> {
  const flags = [
    ['--round-trip-ms', o.roundTripMs],
    ['--first-byte-ms', o.firstByteMs],
    ['--ms-per-char', o.msPerChar],
    ['--realtime-factor', o.realtimeFactor],
    ['--chunk-bytes', o.chunkBytes],
    ['--balance', o.accounts?.[0]?.balanceRub],
  ].flatMap(([flag, value]) => (value === undefined || value === null ? [] : [String(flag), String(value)]));
  const child = spawn(process.execPath, [resolve(import.meta.dirname, '../node_modules/tsx/dist/cli.mjs'), resolve(import.meta.dirname, '../tests/fake-service/cli.ts'), ...flags], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((ok, fail) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) ok((JSON.parse(line) as { url: string }).url);
    });
    child.on('exit', () => fail(new Error(`the service exited: ${out}`)));
  });
  return {
    url,
    close: async () => {
      child.kill('SIGTERM');
    },
  } as unknown as FakeService;
}

/** First audio: 100 ms first byte; speech at about 15 characters a second, synthesized at 4× real time. */
export const FIRST_BYTE_MS = 100;
/**
 * First audio over the service's first byte, at the median, on every way a listener starts a reading (issue
 * 60's targets; the saved pages are held to the same), and the popup-opened path (its page load included).
 */
export const FIRST_AUDIO_TARGET_MS = { Chromium: 25, Firefox: 40 } as const;
export const POPUP_OPENED_TARGET_MS = 60;
/**
 * `--rtt N`: a network round trip of N ms before every request reaches the local service (its account
 * too), as a real network has; 0 by default. First audio then counts the speech request's own trip too.
 */
export const ROUND_TRIP_MS = Number(arg('rtt', '0'));
/** A balance for every way of starting, ten runs each (the default 100 ₽ ran out before the end). */
export const FIRST_AUDIO_SERVICE: FakeServiceOptions = {
  roundTripMs: ROUND_TRIP_MS,
  firstByteMs: FIRST_BYTE_MS,
  msPerChar: 65,
  realtimeFactor: 4,
  chunkBytes: 2048,
  accounts: [{ ...DEFAULT_ACCOUNT, balanceRub: '100000.0000' }],
};

/**
 * A new first part every run (the cache would otherwise answer without the service); the rest of
 * the text is the same each run, so the local service's CPU-bound tone encoding for later parts
 * (a stand-in's cost, not the extension's) is cached and does not steal the 2 cores from the browser.
 */
export function firstAudioPage(kind: 'selection' | 'article', run: number): { path: string; html: string } {
  const n = String(run + 100);
  return {
    path: `/fa-${kind}-${run}.html`,
    html: makeArticleHtml(kind === 'article' ? 15_000 : 600, `Статья номер ${n} о скорости`).replace('<p>', `<p>Проба номер ${n} начинается здесь. `),
  };
}

/**
 * First audio on saved real pages (`real-pages`, `firefox-real-pages`): pages saved from public sites,
 * one folder a page holding `source.html` (the layout of mozilla/readability's test-pages), from
 * `--corpus <dir>` or TRYSASHA_CORPUS. A sample of sizes: the Guardian's article (1.16 MB of HTML), the
 * New York Times' (489 KB), Medium's (120 KB), Ars Technica's (56 KB); `--real-pages a,b` names others.
 */
export const REAL_PAGES_DIR = arg('corpus', process.env.TRYSASHA_CORPUS ?? '');
export const REAL_PAGES = arg('real-pages', 'guardian-1,nytimes-3,medium-1,ars-1').split(',');

/**
 * A saved page as served for run `run`: a new address each run (no place kept, a page not read
 * before), its scripts and style sheets from other sites left out (they would load the live site's
 * code where the network reaches it, and fail at once where it does not: the same page either way).
 * Null when the corpus has no such page.
 */
export function realPage(name: string, run: number): { path: string; html: string } | null {
  const html = realPageHtml(name);
  return html === null ? null : { path: `/real-${name}-${run + 100}.html`, html };
}

/** Each saved page read (and its other sites' scripts and style sheets left out) once. */
const realPages = new Map<string, string | null>();
function realPageHtml(name: string): string | null {
  if (!realPages.has(name)) {
    const file = join(REAL_PAGES_DIR, name, 'source.html');
    const html = REAL_PAGES_DIR && existsSync(file)
      ? readFileSync(file, 'utf8')
          .replace(/<script\b[^>]*\bsrc\s*=\s*["']?(?:https?:)?\/\/[^>]*>\s*<\/script>/gi, '')
          .replace(/<link\b[^>]*\bhref\s*=\s*["']?(?:https?:)?\/\/[^>]*>/gi, '')
      : null;
    realPages.set(name, html);
  }
  return realPages.get(name)!;
}

/**
 * In the extension's worker (`g` its global) or, in Firefox, with its background page as `g`: waits (at
 * most 5 s) for the rest of a page read title first to come from it.
 */
export const waitForRest = async (g: { readingTrace?: [string, number][] } = globalThis as never) => {
  // No named function inside: the bench's TypeScript runner would wrap it in a helper the worker lacks.
  for (let i = 0; i < 250; i++) {
    const labels = (g.readingTrace ?? []).map(([l]) => l);
    if (!labels.includes('extract:title-first') || labels.includes('extract:rest')) return;
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** One start on a saved page: ms from the call to `playing`, the service's first byte for its request, the worker's steps. */
export type RealPageRun = (name: string, run: number) => Promise<{ ms: number; firstByte: number | null; trace: [string, number][] }>;

/**
 * Measures each page of `REAL_PAGES` found in the corpus `RUNS` times (in turns, after one warm-up
 * round) through `start`, and adds a row a page: the overhead over the service's first byte, with
 * when the request left and, read title first, when the rest came after `playing`.
 */
export async function measureRealPages(browser: 'Chromium' | 'Firefox', start: RealPageRun): Promise<void> {
  const names = REAL_PAGES.filter((name) => realPage(name, 0));
  if (!names.length) {
    rows.push({ measure: `${browser}: first audio on saved real pages`, value: `no pages (--corpus <dir> or TRYSASHA_CORPUS: ${REAL_PAGES_DIR || 'not set'})`, target: '—', met: null });
    return;
  }
  const over: Record<string, number[]> = {};
  const steps: Record<string, number[]> = {};
  for (let run = -1; run < RUNS; run++) {
    for (const name of names) {
      const { ms, firstByte, trace } = await start(name, run);
      if (run < 0 || firstByte === null) continue;
      (over[name] ??= []).push(ms - firstByte);
      collectSteps(trace, name, steps);
      (steps[`${name} playing`] ??= []).push(ms);
    }
  }
  const out: Record<string, unknown> = {};
  const target = FIRST_AUDIO_TARGET_MS[browser];
  for (const name of names) {
    const xs = over[name] ?? [];
    const at = (label: string) => median(steps[`${name} ${label}`] ?? []);
    const kb = Math.round(realPage(name, 0)!.html.length / 1024);
    const rest = steps[`${name} extract:rest`]?.length ? `; read title first, its rest ${r1(at('extract:rest') - at('playing'))} ms after playing` : '';
    rows.push({
      measure: `${browser}: first audio, toolbar button, saved page ${name} (${kb} KB) (click → playing, − the service's first byte)`,
      value: `median ${r1(median(xs))} ms, p95 ${r1(quantile(xs, 0.95))} ms (the page answered at ${r1(at('extract:answered'))} ms, the request left at ${r1(at('request'))}${rest})`,
      target: `as the bench's article: ≤ ${target} ms`,
      met: median(xs) <= target,
    });
    out[name] = { overOwnFirstByte: { median: r1(median(xs)), p95: r1(quantile(xs, 0.95)), runs: xs.map(r1) }, steps: Object.fromEntries(Object.entries(steps).filter(([k]) => k.startsWith(`${name} `)).map(([k, v]) => [k.slice(name.length + 1), r1(median(v))])) };
  }
  results[`realPages${browser}`] = out;
}

/** Seams: 3 ms of audio a character (2,000-character parts ≈ 6 s), synthesized at 2× real time, 300 ms first byte. */
export const SEAMS_SERVICE: FakeServiceOptions = { firstByteMs: 300, msPerChar: 3, realtimeFactor: 2, chunkBytes: 1024 };
export const SEAMS_PAGE = { path: '/seams.html', html: makeArticleHtml(39_000, 'Двадцать частей') };

/** When the first speech request at or after `since` (epoch ms) reached the service, from its log endpoint. */
export async function firstRequestAfter(serviceUrl: string, since: number): Promise<number | null> {
  const log = (await (await fetch(`${serviceUrl}/__fake/log?speech=1`)).json()) as Array<{ arrivedAt: number }>;
  const times = log.map((e) => e.arrivedAt).filter((t) => t >= since);
  return times.length ? Math.min(...times) : null;
}

/**
 * Ends what a stopped reading still downloads, and waits until the service has no speech request in
 * flight. A stop lets a part already requested finish into the cache (it is paid for): the next measure
 * must not share the service with it, nor meet the account's concurrency limit (the naive run's request
 * was answered 429, and the bench waited for ever for its error body to play).
 */
export async function serviceIdle(serviceUrl: string): Promise<void> {
  // A part under way streams for as long as its audio lasts at the service's speed (30 s on the first-audio
  // service): it is cut, as it does not belong to the measure.
  const until = Date.now() + 10_000;
  for (;;) {
    // Cut again while any is in flight: a part asked for just before the stop may reach the service after
    // the first cut (an article read title first asks for its next part once the title plays).
    await fetch(`${serviceUrl}/__fake/cut`, { method: 'POST' });
    const accounts = (await (await fetch(`${serviceUrl}/__fake/accounts`)).json()) as Array<{ inFlight: number }>;
    if (accounts.every((a) => a.inFlight === 0)) return;
    if (Date.now() > until) throw new Error('the service still has requests in flight 10 s after a stop, cut again and again');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The service's own time to the first byte of the first speech request at or after `since` (epoch ms):
 * the configured delay plus the stand-in's encoding of that text, which is not the extension's.
 */
export async function serviceFirstByteAfter(serviceUrl: string, since: number): Promise<number | null> {
  const first = await firstSpeechAfter(serviceUrl, since);
  return first?.firstByteAt ? first.firstByteAt - first.arrivedAt : null;
}

/** The local service's log entry of the first speech request at or after `since` (epoch ms), if any. */
async function firstSpeechAfter(serviceUrl: string, since: number): Promise<{ arrivedAt: number; firstByteAt: number | null } | undefined> {
  const log = (await (await fetch(`${serviceUrl}/__fake/log?speech=1`)).json()) as Array<{ arrivedAt: number; firstByteAt: number | null }>;
  return log.filter((e) => e.arrivedAt >= since).sort((a, b) => a.arrivedAt - b.arrivedAt)[0];
}

/**
 * Waits as a reader does before starting a reading: a while after the page has come, not in the moment
 * its load event fires. The browser finishes the load's work (and the last run's closing pages) first.
 * Without it the injection shared the cores with that work, by an amount that varied with the order of
 * the runs: the toolbar run, right after the naive run's page closed, took 10–20 ms longer to inject,
 * and Chromium's shortcut row read 120–130 ms where it reads ~80 with the page settled.
 */
export async function letSettle(page: { evaluate<T>(f: () => Promise<T>): Promise<T> }): Promise<void> {
  await new Promise((r) => setTimeout(r, 300));
  await page.evaluate(() => new Promise<void>((r) => requestIdleCallback(() => r(), { timeout: 1_000 })));
}

/**
 * Presses the popup's play-pause button from inside the page (its click handler runs in the same task)
 * and times it to the player's `playing`: the press on the wall clock, ms from it to `playing`, and those
 * ms minus the service's own first byte for that request (null when the service logged none).
 */
export async function pressPlayUntilPlaying(
  popup: { evaluate<T>(f: () => T): Promise<T> },
  serviceUrl: string,
  playingAfter: (startedAt: number, what: string) => Promise<number>,
): Promise<{ startedAt: number; ms: number; overFirstByte: number | null }> {
  const startedAt = await popup.evaluate(() => {
    const at = performance.timeOrigin + performance.now();
    (document.querySelector('[data-testid="play-pause"]') as HTMLButtonElement).click();
    return at;
  });
  const ms = await playingAfter(startedAt, 'the popup button');
  const serviceFirstByte = await serviceFirstByteAfter(serviceUrl, startedAt);
  return { startedAt, ms, overFirstByte: serviceFirstByte === null ? null : ms - serviceFirstByte };
}

/**
 * The trace with the local service's own marks for the first speech request after `since` put in on the
 * same clock (epoch ms, the service's `performance.timeOrigin + now()`): its arrival and its first byte, so
 * that the steps show how long the request took to reach the service and the answer to come back.
 */
export async function withServiceMarks(trace: [string, number][], serviceUrl: string, since: number): Promise<[string, number][]> {
  const first = await firstSpeechAfter(serviceUrl, since);
  if (!first) return trace;
  const marks: [string, number][] = [['service:arrived', first.arrivedAt]];
  if (first.firstByteAt) marks.push(['service:first-byte', first.firstByteAt]);
  return [...trace, ...marks].sort((x, y) => x[1] - y[1]);
}

/**
 * Adds a reading's first-step marks (`utils/trace.ts`), as ms after its `start`, to `steps` under `how`:
 * the last start's, as the trace may still hold the marks of runs before it (a popup run's).
 */
export function collectSteps(trace: [string, number][], how: string, steps: Record<string, number[]>, before?: { label: string; at: number }): void {
  const from = trace.findLastIndex(([label]) => label === 'start');
  if (from < 0) return;
  const t0 = trace[from]![1];
  // And the time before the `start` (the popup opened, a chapter clicked), under its own label.
  if (before) (steps[`${how} (${before.label} → start)`] ??= []).push(t0 - before.at);
  const seen = new Set<string>();
  for (const [label, at] of trace.slice(from)) {
    if (seen.has(label)) continue;
    seen.add(label);
    (steps[`${how} ${label}`] ??= []).push(at - t0);
  }
}

/** Empties the extension's audio cache (the book's parts would otherwise be played from it, unpaid, on the next run). */
export const CLEAR_AUDIO_CACHE = () =>
  new Promise<void>((ok, fail) => {
    const open = indexedDB.open('trysasha-audio');
    open.onerror = () => fail(open.error);
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('parts')) return ok();
      const tx = db.transaction('parts', 'readwrite');
      tx.objectStore('parts').clear();
      tx.oncomplete = () => (db.close(), ok());
      tx.onerror = () => fail(tx.error);
    };
  });

/** What a benchmark waits for on the popup: a player state, or the estimate counted whole. */
export type PopupCheck = { state: string } | { counted: true };

/** Run in the popup: performance.now() once `check` holds, else false (a predicate for waitForFunction, no eval). */
export function popupReached(check: PopupCheck): number | false {
  if ('state' in check) return document.querySelector('[data-testid="player"]')?.getAttribute('data-state') === check.state && performance.now();
  const estimate = document.querySelector('[data-testid="estimate"]');
  return estimate?.getAttribute('data-counting') === 'false' && estimate.getAttribute('data-chars') !== '' && performance.now();
}

/** An article inside the clutter of a real site: menus, sidebars, comments, footers. */
export function clutteredPage(chars: number, title: string): string {
  const nav = Array.from({ length: 200 }, (_, i) => `<li><a href="/s/${i}">Раздел ${i}</a></li>`).join('');
  const aside = Array.from({ length: 100 }, (_, i) => `<div class="card"><img alt=""><a href="/n/${i}">Новость дня номер ${i}</a><span>12:0${i % 10}</span></div>`).join('');
  const comments = Array.from({ length: 300 }, (_, i) => `<div class="comment"><b>Читатель ${i}</b><p>Комментарий номер ${i}: спасибо за статью!</p></div>`).join('');
  return makeArticleHtml(chars, title)
    .replace('<body>', `<body><header><ul class="menu">${nav}</ul></header><aside class="sidebar">${aside}</aside>`)
    .replace('</body>', `<section class="comments">${comments}</section></body>`);
}

/**
 * An expression that waits, in the page evaluating it, until `mark` (the player's first `playing` on the
 * wall clock, 0 before it) passes `after`, on the page's own 10 ms timer for up to a second, then answers
 * the mark as it is. The benches wait for first audio with it rather than asking through the browser
 * driver every few ms: each ask went through the browser into the process where the start being
 * measured runs (5–12 ms of Chromium's rows, 16–21 of Firefox's). The time is the player's own mark.
 */
export function waitInPage(mark: string, after: number): string {
  return `new Promise((done) => {
    const until = Date.now() + 1000;
    const look = () => {
      const at = ${mark};
      if (at > ${after} || Date.now() > until) done(at);
      else setTimeout(look, 10);
    };
    look();
  })`;
}

/** What `watchMainThread` saw: the longest task (where the browser tells), and how late a 20 ms timer ran. */
export interface MainThreadSeen {
  longestTaskMs: number | null;
  longTasks: number | null;
  lateP99Ms: number;
  lateMaxMs: number;
  ticks: number;
}

/**
 * Put in the player's page (written out as text: a function handed over would carry the bundler's helpers):
 * watches the page's main thread while it plays — a 20 ms timer's lateness, and long tasks where the browser
 * reports them (Chromium). `__mainThread()` on that page's global then reads what it saw and stops. Its timers are the
 * page's own (`w`): Firefox throttles a tab in the background, not its background page.
 */
export const WATCH_MAIN_THREAD_ON = `((w) => {
  const lates = [];
  let longest = null, count = null, observer = null;
  // Firefox takes the type and reports nothing: asked of the list of types it reports.
  if ((w.PerformanceObserver.supportedEntryTypes || []).includes('longtask')) {
    observer = new w.PerformanceObserver((list) => {
      for (const e of list.getEntries()) { count = (count || 0) + 1; longest = Math.max(longest || 0, e.duration); }
    });
    observer.observe({ type: 'longtask' });
    longest = 0; count = 0;
  }
  let due = w.performance.now() + 20;
  const tick = () => { const now = w.performance.now(); lates.push(now - due); due = now + 20; timer = w.setTimeout(tick, 20); };
  let timer = w.setTimeout(tick, 20);
  w.__mainThread = () => {
    w.clearTimeout(timer);
    if (observer) observer.disconnect();
    const sorted = lates.slice().sort((a, b) => a - b);
    const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] || 0;
    return { longestTaskMs: longest, longTasks: count, lateP99Ms: Math.round(at(0.99) * 10) / 10, lateMaxMs: Math.round(at(1) * 10) / 10, ticks: lates.length };
  };
  return true;
})`;

/** `WATCH_MAIN_THREAD_ON` put in the page it is evaluated in. */
export const WATCH_MAIN_THREAD = `${WATCH_MAIN_THREAD_ON}(globalThis)`;

/** The rows for what `watchMainThread` saw in `browser`'s player while a reading played. */
export function mainThreadRows(browser: 'Chromium' | 'Firefox', seen: MainThreadSeen): void {
  const task = seen.longestTaskMs === null ? 'not told by this browser' : `${r1(seen.longestTaskMs)} ms (${seen.longTasks} tasks ≥ 50 ms)`;
  rows.push({ measure: `${browser}: player's main thread while playing, longest task`, value: task, target: '—', met: null, ...(seen.longestTaskMs !== null ? { num: seen.longestTaskMs } : {}) });
  rows.push({ measure: `${browser}: player's main thread while playing, a 20 ms timer late by (p99 / max)`, value: `${seen.lateP99Ms} / ${seen.lateMaxMs} ms (${seen.ticks} ticks)`, target: '—', met: null, num: seen.lateP99Ms });
}
