/**
 * Two builds' extraction compared in one browser, on one page, taken in turns: on this machine the
 * same build's median swung by ±40 % from one bench run to the next, so a change of 10–20 ms could
 * only be seen this way. Both extensions are loaded side by side; each injects its own extract
 * script into the same tab (each in its own isolated world) and they are asked in turns.
 *
 *   npx wxt build --mode test && cp -r .output/chrome-mv3-test /tmp/new
 *   git stash && npx wxt build --mode test && cp -r .output/chrome-mv3-test /tmp/old && git stash pop
 *   npx tsx bench/ab.ts /tmp/old /tmp/new [--runs 30] [--chars 900000 | --corpus <dir of saved pages>]
 *
 * It also says whether the two builds extract the same text (blocks and kinds) from every page; `--dump <dir>`
 * writes build B's blocks of each page there ("kind: text" lines), to read what real pages give.
 *
 * `--fresh inject` or `--fresh resident` asks instead on a new page every turn (the first-audio bench's
 * 15,000-character article), as a page's first reading does: `inject` times the injection that carries
 * the request (the toolbar path), `resident` injects the script, then times its first answer by message
 * (a page read before, or click-to-read): what is not yet compiled or warm counts there.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Worker } from 'playwright-core';
import { launchWithExtension } from '../tests/e2e/chromium.ts';
import { startPagesServer } from '../tests/e2e/pages-server.ts';
import { arg, clutteredPage, firstAudioPage, letSettle, median, quantile, r1 } from './report.ts';

const [dirA, dirB] = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !all[i - 1]?.startsWith('--'));
if (!dirA || !dirB) throw new Error('usage: npx tsx bench/ab.ts <build A> <build B> [--runs 30] [--chars 900000]');
const RUNS = Number(arg('runs', '30'));
const CHARS = Number(arg('chars', '900000'));
const CORPUS = process.argv.includes('--corpus') ? resolve(arg('corpus', '')) : '';
const FRESH = arg('fresh', '');
/** `--dump <dir>`: build B's blocks of each page written there as text ("kind: text" lines), to read what a page gives. */
const DUMP = process.argv.includes('--dump') ? resolve(arg('dump', '')) : '';
if (FRESH && FRESH !== 'inject' && FRESH !== 'resident') throw new Error('--fresh is inject or resident');

/** One turn of `--fresh`: ms in the worker from the first call to the answer, and the page's own extraction time. */
async function freshTurn(w: Worker, url: string, mode: string): Promise<{ ms: number; tookMs: number }> {
  // Written out as text: the function handed to the page must not carry the bundler's helpers.
  return (await w.evaluate(`(async () => {
    const tabId = (await chrome.tabs.query({})).find((t) => t.url === ${JSON.stringify(url)}).id;
    // Builds before 2026-11-26 kept the extract script as a content script.
    const file = { target: { tabId }, files: [(await fetch('/extract.js').catch(() => null))?.ok ? '/extract.js' : '/content-scripts/extract.js'] };
    if (${JSON.stringify(mode)} === 'resident') {
      await chrome.scripting.executeScript(file);
      const t = performance.now();
      const a = await chrome.tabs.sendMessage(tabId, { id: 1, type: 'extract', data: { mode: 'normal' }, timestamp: Date.now() }, { frameId: 0 });
      return { ms: performance.now() - t, tookMs: a.res.tookMs };
    }
    const t = performance.now();
    const pending = { id: 'ab', request: { mode: 'normal' } };
    void chrome.scripting.executeScript({ target: { tabId }, func: function (p) { globalThis.__trysashaPendingExtract = p; }, args: [pending] });
    const [res] = await chrome.scripting.executeScript(file);
    const ms = performance.now() - t;
    if (!res || !res.result || res.result.requestId !== 'ab') throw new Error('the injection did not answer the request');
    return { ms, tookMs: res.result.tookMs };
  })()`)) as { ms: number; tookMs: number };
}

const pages = await (CORPUS ? startPagesServer(CORPUS) : startPagesServer());
const browser = await launchWithExtension({ extensionDir: dirA, alsoLoad: [dirB] });
try {
  const workers: Worker[] = [];
  while (workers.length < 2) {
    workers.splice(0, workers.length, ...browser.context.serviceWorkers().filter((w) => w.url().endsWith('/background.js')));
    if (workers.length < 2) await browser.context.waitForEvent('serviceworker');
  }
  // An unpacked extension's id is made from its absolute path (sha-256, hex digits written a–p).
  const idOf = (dir: string) => [...createHash('sha256').update(resolve(dir)).digest('hex').slice(0, 32)].map((c) => String.fromCharCode(97 + parseInt(c, 16))).join('');
  const order = [dirA, dirB].map((dir) => workers.find((w) => new URL(w.url()).host === idOf(dir)));
  if (order.some((w) => !w)) throw new Error(`could not tell the builds apart: ${workers.map((w) => w.url()).join(', ')}`);

  if (FRESH) {
    const times: [number[], number[]] = [[], []];
    const inPage: [number[], number[]] = [[], []];
    for (let i = -2; i < RUNS; i++) {
      for (const k of i % 2 === 0 ? [0, 1] : [1, 0]) {
        const { path, html } = firstAudioPage('article', 7000 + 2 * i + k);
        pages.put(path, html);
        const page = await browser.context.newPage();
        await page.goto(`${pages.url}${path}`);
        // As the first-audio bench: started once the page has settled, not while its load is still going on.
        await letSettle(page);
        const { ms, tookMs } = await freshTurn(order[k]!, page.url(), FRESH);
        if (i >= 0) {
          times[k]!.push(ms);
          inPage[k]!.push(tookMs);
        }
        await page.close();
      }
    }
    for (const [k, dir] of [dirA, dirB].entries()) {
      console.log(`${dir}: ${FRESH}: median ${r1(median(times[k]!))} ms (in the page ${r1(median(inPage[k]!))}), min ${r1(Math.min(...times[k]!))} (${RUNS} new pages)`);
    }
  }
  const list = FRESH
    ? []
    : CORPUS
    ? readdirSync(CORPUS).filter((d) => existsSync(join(CORPUS, d, 'source.html'))).map((d) => `/${d}/source.html`)
    : ['/ab.html'];
  if (!CORPUS && !FRESH) pages.put('/ab.html', clutteredPage(CHARS, 'Большая страница'));
  // Saved pages still point at their sites' scripts, images and fonts: nothing leaves this machine.
  await browser.context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort());
  /** Per page, each build's median; and the pages whose text differs between the builds. */
  const medians: [number[], number[]] = [[], []];
  const differ: string[] = [];
  /** The pages measured, in the order of `medians`. */
  const measured: string[] = [];
  for (const path of list) {
    const page = await browser.context.newPage();
    try {
      await page.goto(`${pages.url}${path}`, { waitUntil: 'domcontentloaded', timeout: 20_000 }).catch(() => undefined);
      const tabId = await order[0]!.evaluate(async (url) => (await chrome.tabs.query({})).find((t) => t.url === url)!.id!, page.url());
      for (const w of order) {
        await w!.evaluate(async (tabId) => {
          const path = (await fetch('/extract.js').catch(() => null))?.ok ? '/extract.js' : '/content-scripts/extract.js';
          await chrome.scripting.executeScript({ target: { tabId }, files: [path] });
        }, tabId);
      }
      const ask = (w: Worker) =>
        w.evaluate(async (tabId) => {
          const answer = (await chrome.tabs.sendMessage(tabId, { id: 1, type: 'extract', data: { mode: 'normal' }, timestamp: Date.now() }, { frameId: 0 })) as {
            res: { tookMs: number; blocks: Array<{ text: string; kind: string }> };
          };
          return { ms: answer.res.tookMs, text: JSON.stringify(answer.res.blocks) };
        }, tabId);
      const times: [number[], number[]] = [[], []];
      const texts = new Set<string>();
      for (let i = -2; i < RUNS; i++) {
        // Turns alternate which build goes first.
        for (const k of i % 2 === 0 ? [0, 1] : [1, 0]) {
          const { ms, text } = await ask(order[k]!);
          if (i >= 0) times[k]!.push(ms);
          texts.add(text);
        }
      }
      if (texts.size > 1) differ.push(path);
      if (DUMP) {
        const blocks = JSON.parse((await ask(order[1]!)).text) as Array<{ text: string; kind: string }>;
        mkdirSync(DUMP, { recursive: true });
        writeFileSync(join(DUMP, `${path.split('/').filter(Boolean)[0] ?? 'page'}.txt`), blocks.map((b) => `${b.kind}: ${b.text}`).join('\n'));
      }
      for (const k of [0, 1]) medians[k]!.push(median(times[k]!));
      measured.push(path);
      if (!CORPUS) {
        for (const [k, dir] of [dirA, dirB].entries()) {
          const xs = times[k]!;
          console.log(`${dir}: median ${r1(median(xs))} ms, p25 ${r1(quantile(xs, 0.25))}, min ${r1(Math.min(...xs))} (${RUNS} extractions of ${CHARS.toLocaleString('en')} characters)`);
        }
      }
    } catch (err) {
      console.log(`${path}: ${String(err).split('\n')[0]}`);
    } finally {
      await page.close();
    }
  }
  if (CORPUS) {
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const faster = medians[0]!.filter((a, i) => medians[1]![i]! < a).length;
    for (const [k, dir] of [dirA, dirB].entries()) console.log(`${dir}: sum of per-page medians ${r1(sum(medians[k]!))} ms, median page ${r1(median(medians[k]!))} ms`);
    console.log(`${medians[0]!.length} pages; B faster on ${faster}; largest: ${medians[0]!.map((a, i) => [a, medians[1]![i]!, i] as const).sort((x, y) => y[0] - x[0]).slice(0, 5).map(([a, b, i]) => `${measured[i]!.split('/')[1]} ${r1(a)}→${r1(b)}`).join(', ')}`);
  }
  if (!FRESH) console.log(differ.length ? `text differs on ${differ.length}: ${differ.join(', ')}` : 'the same text from both builds on every page');
} finally {
  await browser.close();
  await pages.close();
}
