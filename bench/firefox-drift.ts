/**
 * `npx tsx bench/firefox-drift.ts`: does Firefox's first audio slow down over one browser session, and what
 * grows with it? Not part of `npm run bench`. Starts `--starts N` readings from the toolbar's handler, one
 * after another in one Firefox (each on a page not read before, stopped once it plays), with `--between K`
 * pages of a kind (`--pages popup|options|blank`, 0 by default) opened and closed after each start. Every
 * five starts it prints their overheads over the service's first byte, the background page's zero-delay
 * timer rate over a second, the WebExtensions process's memory and each Firefox process's CPU ticks over
 * five idle seconds (Linux `/proc`); the first start is the browser's first (a warm-up). `--pause-at N` waits
 * a minute after start N. Findings: bench/HISTORY.md.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { openExtensionPage } from '../tests/e2e-firefox/firefox.ts';
import { FirefoxRig } from './firefox.ts';
import { FIRST_AUDIO_SERVICE, arg, firstAudioPage, median, serviceFirstByteAfter } from './report.ts';

const STARTS = Number(arg('starts', '40'));
const BETWEEN = Number(arg('between', '0'));
const PAGES = arg('pages', 'popup');
const PAUSE_AT = Number(arg('pause-at', '-1'));

/** Firefox's processes (by their thread names) and their CPU ticks so far. */
function firefoxProcesses(): Array<{ pid: string; name: string; ticks: number }> {
  const out: Array<{ pid: string; name: string; ticks: number }> = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const name = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      if (!/firefox|Web|Isolated|Socket|RDD|Utility|Privileged/.test(name)) continue;
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      out.push({ pid, name, ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // The process ended while it was read.
    }
  }
  return out;
}

function webExtensionsMb(): number {
  const pid = firefoxProcesses().find((p) => p.name === 'WebExtensions')?.pid;
  if (!pid) return -1;
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? -1024) / 1024);
}

const rig = await FirefoxRig.start(FIRST_AUDIO_SERVICE, true);
const overheads: number[] = [];
try {
  for (let i = 0; i < STARTS; i++) {
    const { path, html } = firstAudioPage('article', i + 1000);
    rig.pages.put(path, html);
    const { page, tabId } = await rig.openTab(path);
    await page.bringToFront();
    const { ms, startedAt } = await rig.hookUntilPlaying(tabId, 'toolbar');
    overheads.push(ms - ((await serviceFirstByteAfter(rig.service.url, startedAt)) ?? 0));
    await rig.stopFromBackground();
    await page.close();
    for (let k = 0; k < BETWEEN; k++) {
      const other = PAGES === 'blank' ? await rig.ff.browser.newPage() : await openExtensionPage(rig.ff.browser, `${rig.ff.base}${PAGES}.html`);
      if (PAGES !== 'blank') await other.waitForSelector(PAGES === 'popup' ? '[data-testid="player"]' : 'body *');
      await other.close();
    }
    if (i === PAUSE_AT) await new Promise((r) => setTimeout(r, 60_000));
    if (i % 5 !== 4) continue;
    // A string, not a function: tsx's helpers would not exist in the page.
    const timers = await rig.helperPage().evaluate(
      `(async () => { const bg = await browser.runtime.getBackgroundPage(); return await new Promise((done) => { let n = 0; const end = bg.performance.now() + 1000; const spin = () => { n++; if (bg.performance.now() < end) bg.setTimeout(spin, 0); else done(n); }; spin(); }); })()`,
    );
    const before = new Map(firefoxProcesses().map((p) => [p.pid, p.ticks]));
    await new Promise((r) => setTimeout(r, 5000));
    const idle = firefoxProcesses()
      .map((p) => ({ name: p.name, ticks: p.ticks - (before.get(p.pid) ?? p.ticks) }))
      .filter((p) => p.ticks > 0)
      .map((p) => `${p.name} ${p.ticks}`)
      .join(', ');
    const last = overheads.slice(-5);
    console.log(
      `starts ${i - 3}–${i + 1}: ${last.map(Math.round).join(' ')} ms (median ${Math.round(median(last))}) | background timers ${timers}/s | WebExtensions ${webExtensionsMb()} MB | idle ticks in 5 s: ${idle || 'none'}`,
    );
  }
} finally {
  await rig.close();
}
