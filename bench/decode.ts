/**
 * `npx tsx bench/decode.ts`: where a part's audio can be decoded for its word timings (issue 48), measured.
 * A part as the service sends it (2,000 characters of Russian, espeak-ng speech, MP3 at 48 kbps) is decoded
 * with `decodeAudioData` in an extension page of each browser — Chromium's offscreen document and Firefox's
 * background page are such pages — `RUNS` times: how long the decoding takes, and how late the page's own
 * timers run meanwhile (a 5 ms timer's worst lateness: what a player on the same page would feel).
 * Needs the test builds (`npx wxt build --mode test`, `npx wxt build -b firefox --mode test`).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { launchWithExtension, serviceWorkerOf } from '../tests/e2e/chromium.ts';
import { evaluate, launchFirefoxWithExtension, openPage } from '../tests/e2e-firefox/firefox.ts';
import { renderSpeech } from '../tests/fake-service/audio.ts';

const RUNS = 5;

export interface DecodeResult {
  browser: string;
  audioSeconds: number;
  bytes: number;
  decodeMs: number[];
  worstTimerLateMs: number;
}

/** Runs in the extension page: decodes the MP3 `RUNS` times, watching a 5 ms timer meanwhile. */
async function decodeInPage({ base64, runs }: { base64: string; runs: number }): Promise<{ seconds: number; ms: number[]; late: number }> {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const ms: number[] = [];
  let late = 0;
  let seconds = 0;
  for (let r = 0; r < runs; r++) {
    let watching = true;
    let last = performance.now();
    const tick = () => {
      const now = performance.now();
      late = Math.max(late, now - last - 5);
      last = now;
      if (watching) setTimeout(tick, 5);
    };
    setTimeout(tick, 5);
    const started = performance.now();
    const context = new OfflineAudioContext(1, 1, 22050);
    const decoded = await context.decodeAudioData(bytes.slice().buffer);
    ms.push(Math.round((performance.now() - started) * 10) / 10);
    watching = false;
    seconds = decoded.duration;
    decoded.getChannelData(0);
  }
  return { seconds, ms, late: Math.round(late * 10) / 10 };
}

/** `fn(arg)` run in an extension page (the options page) of Chromium, then of Firefox, with the test builds. */
export async function inBothBrowsers<A, R>(fn: (arg: A) => Promise<R>, arg: A): Promise<Array<{ browser: 'Chromium' | 'Firefox'; result: R }>> {
  const out: Array<{ browser: 'Chromium' | 'Firefox'; result: R }> = [];
  const chromium = await launchWithExtension();
  try {
    const sw = await serviceWorkerOf(chromium.context);
    const page = await chromium.context.newPage();
    await page.goto(`chrome-extension://${new URL(sw.url()).host}/options.html`);
    // tsx names the page function's inner functions through a helper the page lacks.
    await page.evaluate('window.__name = (f) => f');
    out.push({ browser: 'Chromium', result: (await page.evaluate(fn as (arg: unknown) => Promise<unknown>, arg)) as R });
  } finally {
    await chromium.close();
  }
  const firefox = await launchFirefoxWithExtension();
  try {
    const page = await openPage(firefox.browser, `${firefox.base}options.html`);
    await evaluate(page, () => void ((window as unknown as { __name: unknown }).__name = (f: unknown) => f));
    out.push({ browser: 'Firefox', result: await evaluate(page, fn, arg) });
  } finally {
    await firefox.close();
  }
  return out;
}

export async function measureDecode(): Promise<DecodeResult[]> {
  const text = readFileSync(resolve(import.meta.dirname, '../tests/corpus-expected/ru/aif-france.txt'), 'utf8').replace(/\s+/g, ' ').slice(0, 2000);
  const { bytes } = await renderSpeech(text, 'mp3');
  const base64 = Buffer.from(bytes).toString('base64');
  return (await inBothBrowsers(decodeInPage, { base64, runs: RUNS })).map(({ browser, result: r }) => ({ browser, audioSeconds: r.seconds, bytes: bytes.length, decodeMs: r.ms, worstTimerLateMs: r.late }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await measureDecode()) {
    console.log(`${r.browser}: ${r.audioSeconds.toFixed(1)} s of audio (${r.bytes} bytes) decoded in ${r.decodeMs.join(', ')} ms; a 5 ms timer at most ${r.worstTimerLateMs} ms late`);
  }
}
