/**
 * `npx tsx bench/word-marks.ts [seconds] [rates]`: the marks as a listener sees them, in Chromium, on the
 * saved pages with a hand-checked text (`tests/corpus-expected/`, 38 pages, Russian and English), each read
 * by the local service's timed voice (`audio: 'timed'`: its true word times are in its log, never in the
 * answer). Each page plays for `seconds` of real time (default 12) at each playback rate (default `1,2`).
 * Sampled every 10 ms in the offscreen document: which part and millisecond of audio is playing, and which
 * word the player has told; on the page, every change of the two marks. Scored:
 * - the word: the share of samples on the word being said (its true word; in a silence between two words,
 *   either — and strictly, the last word started), within one word (its neighbour in the reading, across a part's end too), and each told
 *   word's start against its true start, in the listener's ms (audio ms ÷ rate);
 * - the sentence, as painted on the page at each sample's moment: on the sentence being said (in the silence
 *   before the next sentence, either), on another sentence of the reading (wrong), or neither (covering part
 *   of it, or not placed).
 * `npm run bench` runs it as its `word-marks` step (`WORD_MARK_PAGES=n`: the first n pages of each language).
 *
 * `npx tsx bench/word-marks.ts [seconds] [rates] --firefox`: the same in headless firefox-esr with the Firefox
 * test build (`.output/firefox-mv2-test`), whose player lives in the MV2 background page: sampled there (its
 * timer) by code of an open options page, which reaches it through `getBackgroundPage()`. The scoring is the
 * same code; only the steps in `WordMarkBrowser` differ. `npm run bench -- --only firefox-word-marks` runs it.
 * Firefox's `audio.currentTime` moves in steps of 40 ms of audio here (mock audio output): the samples take
 * the player's `finePosition()` (the last second's readings carried forward), as its word clock does.
 */
import type { Page as FirefoxPage } from 'puppeteer-core';
import { launchWithExtension, serviceWorkerOf } from '../tests/e2e/chromium.ts';
import { launchFirefoxWithExtension, type LaunchedFirefox } from '../tests/e2e-firefox/firefox.ts';
import { startPagesServer } from '../tests/e2e/pages-server.ts';
import { startFakeService } from '../tests/fake-service/server.ts';
import { DEFAULT_ACCOUNT } from '../tests/fake-service/options.ts';
import { timedVoice } from '../tests/fake-service/timed-voice.ts';
import { encodeMp3, MP3_KBPS } from '../tests/fake-service/audio.ts';
import { corpusDirOf, expectedPages, type ExpectedLang } from '../tests/fixtures/expected-text.ts';
import { tokens } from '../utils/text/text-index.ts';
import { wordAt } from '../utils/audio/word-measure.ts';
import type { ReadingPlan } from '../utils/reading/plan.ts';
import { offline } from './billed.ts';
import { TargetEvaluator } from './cdp.ts';
import { optionsPageFor } from './firefox.ts';

/** [Date.now(), part, audio ms into the part, rate, told part, told word]. */
type Sample = [number, number, number, number, number, number];
/** [Date.now(), the sentence painted, the word painted]. */
type PageMark = [number, string, string];
interface TrueWord {
  start: number;
  end: number;
  startMs: number;
  endMs: number;
}

export interface WordMarkResult {
  rate: number;
  pages: number;
  wordSamples: number;
  /** On the word being said; in a silence between two words, on either. */
  onWord: number;
  /** On the last word started, silences included (the stricter count). */
  onWordStrict: number;
  /** Samples on another sentence counting a silence before a sentence as the last one's alone (the stricter count). */
  wrongSentenceStrict: number;
  withinOne: number;
  startErrorsMs: number[];
  /** The same, signed: positive when the mark came late. */
  signedMs: number[];
  /** ms from the player's telling a word to the page's showing it (both on the wall clock, 10 and 5 ms samples). */
  tripMs: number[];
  sentenceSamples: number;
  onSentence: number;
  wrongSentence: number;
  /** Samples with a mark neither on the sentence nor on another (part of it marked), and with none at all. */
  partial: number;
  unmarked: number;
  partialByPage: Record<string, number>;
  /** Samples with no sentence painted, by page. */
  unmarkedByPage: Record<string, number>;
  /** Samples whose word was off by more than one (or on another part), by page. */
  farByPage: Record<string, number>;
  /** The longest time a wrong sentence stayed marked, listener ms (consecutive samples). */
  longestWrongMs: number;
  examples: string[];
  byLang: Record<ExpectedLang, { samples: number; on: number; wrong: number }>;
  /** The MP3 codec delay the true times were moved by (`codecDelayMs`). */
  codecDelayMs: number;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : NaN;
};

const KEY = 'vk_live_test_key';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Installed in the page: every change of the two marks, timed by the shared wall clock. */
function recordMarks(): void {
  const seen: PageMark[] = [];
  Object.assign(window, { __marks: seen });
  const text = (name: string) => {
    const h = CSS.highlights.get(name);
    const r = h ? ([...h][0] as Range | undefined) : undefined;
    return r ? r.toString() : '';
  };
  setInterval(() => {
    const sentence = text('trysasha-sentence');
    const word = text('trysasha-word');
    const last = seen.at(-1);
    if (!last || last[1] !== sentence || last[2] !== word) seen.push([Date.now(), sentence, word]);
  }, 5);
}

/**
 * Installed where the player is (test builds expose `player`): where playback is, and the word told. `player`
 * names it, `timers` the window whose timer samples (Firefox: the background page's, which kept 10–11 ms
 * here, where a tab in the background may be slowed); what it records stays on the window it is evaluated in.
 */
const sampler = (player: string, timers: string) => `(() => {
  const p = ${player};
  window.__wm = [];
  window.__tells = [];
  if (!window.__emit) {
    window.__emit = p.emit;
    p.emit = (e) => { if (e.type === 'word') { window.__told = [e.part, e.word]; window.__tells.push(Date.now()); } window.__emit(e); };
  }
  // The word the clock told before the sampler came (it is not told again until the next word begins).
  const told = p.words.clock.told;
  window.__told = told ? [told.part, told.word] : null;
  ${timers}.clearInterval(window.__wmTimer);
  window.__wmTimer = ${timers}.setInterval(() => {
    // Not while paused or waiting for audio (a stall: nothing is being said).
    if (!p.started || p.audio.paused || p.audio.readyState < 3 || !p.readingId) return;
    // The player's own fine position (Firefox's currentTime steps by 40 ms here): what its clock goes by.
    const now = p.finePosition ? p.finePosition() : p.audio.currentTime;
    // Where the parts lie: the player's timeline (since 19aa7e0), or its own map in builds before it (A/B runs).
    let part, ms;
    if (p.timeline) {
      ({ part, ms } = p.timeline.inPart(now));
    } else {
      part = p.currentPart(now);
      const start = p.partStarts.get(part);
      if (start === undefined) return;
      ms = (now - start) * 1000;
    }
    const told = window.__told ?? [-1, -1];
    window.__wm.push([Date.now(), part, ms, p.audio.playbackRate, told[0], told[1]]);
  }, 10);
  return true;
})()`;

const speakable = (s: string) => tokens(s).filter((w) => /^[a-zа-яё0-9]+$/.test(w));
const contains = (hay: string[], needle: string[]) => needle.length > 0 && ` ${hay.join(' ')} `.includes(` ${needle.join(' ')} `);
/** The painted text holds the sentence's first and last words (three of each), and not much more. */
function covers(painted: string[], sentence: string[]): boolean {
  if (sentence.length === 0) return false;
  return contains(painted, sentence.slice(0, 3)) && contains(painted, sentence.slice(-3)) && painted.length <= sentence.length * 1.5 + 4;
}

function lastAt<T extends [number, ...unknown[]]>(rows: T[], t: number): T | undefined {
  let found: T | undefined;
  for (const r of rows) {
    if (r[0] > t) break;
    found = r;
  }
  return found;
}

/**
 * The MP3 codec's delay as the browser decodes it: a file without an encoder's info header (as the local
 * service, and a stream, sends it) decodes to its PCM behind the encoder's priming samples. What the listener
 * hears at a part's time t is the PCM at t − delay, so the true times are moved by it. Measured on a timed
 * voice's part: where the first sound starts in the decoded audio, against the PCM.
 */
async function codecDelayMs(browser: WordMarkBrowser): Promise<number> {
  const voice = await timedVoice('Проверка задержки звука, и ещё одно слово.');
  const bytes = encodeMp3(voice.pcm, MP3_KBPS.mp3);
  const onset = (xs: ArrayLike<number>, scale: number) => {
    for (let i = 0; i < xs.length; i++) if (Math.abs(xs[i]! * scale) > 0.05) return i;
    return -1;
  };
  const pcmOnset = onset(voice.pcm, 1 / 32768);
  const decodedOnset = await browser.decodedOnset(Buffer.from(bytes).toString('base64'));
  return ((decodedOnset - pcmOnset) * 1000) / voice.sampleRate;
}

/** Evaluated in an extension page: the first sample over 0.05 of the MP3 (base64) as the browser decodes it. */
async function decodedOnsetInPage(b64: string): Promise<number> {
  const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const decoded = await new OfflineAudioContext(1, 1, 22050).decodeAudioData(data.buffer);
  const xs = decoded.getChannelData(0);
  for (let i = 0; i < xs.length; i++) if (Math.abs(xs[i]!) > 0.05) return i;
  return -1;
}

/** What a reading left: the player's samples, the page's marks, and when each word was told (wall clock). */
interface Recorded {
  samples: Sample[];
  marks: PageMark[];
  tells: number[];
}

/** The steps that differ between browsers; one page is open and read at a time. */
interface WordMarkBrowser {
  /**
   * The first loud sample of the MP3 (base64) as this browser decodes it (`decodedOnsetInPage` in an extension
   * page). Asked once, before any page is opened (Chromium closes its options page after it).
   */
  decodedOnset(b64: string): Promise<number>;
  /** Opens a saved page and installs `recordMarks` in it. */
  open(url: string): Promise<void>;
  /** Starts reading the open page (the shortcut's handler), waits for playback and installs the sampler; false if nothing played. */
  startReading(): Promise<boolean>;
  setRate(rate: number): Promise<void>;
  /** Stops sampling, and hands over what was recorded. */
  collect(): Promise<Recorded>;
  /** The reading's plan (the background's `readingPlan()`, test builds). */
  readingPlan(): Promise<ReadingPlan | null>;
  /** Stops the reading (the shortcut's handler). */
  stopReading(): Promise<void>;
  closePage(): Promise<void>;
  close(): Promise<void>;
}

/** Chromium (playwright): the service worker's handlers, the player in the offscreen document (reached over CDP). */
async function chromiumWordMarks(serviceUrl: string): Promise<WordMarkBrowser> {
  const browser = await launchWithExtension();
  try {
    const sw = await serviceWorkerOf(browser.context);
    const id = new URL(sw.url()).host;
    await offline(browser.context);
    const options = await browser.context.newPage();
    await options.goto(`chrome-extension://${id}/options.html`);
    await options.getByTestId('api-key').fill(KEY);
    await options.getByTestId('base-url').fill(serviceUrl);
    await options.getByTestId('confirm-threshold').fill('100000');
    await options.getByTestId('save').click();
    await options.getByTestId('account').waitFor();
    await options.evaluate('window.__name = (f) => f');
    let page: import('playwright-core').Page | null = null;
    let cdp: TargetEvaluator | null = null;
    return {
      async decodedOnset(b64) {
        const onset = await options.evaluate(decodedOnsetInPage, b64);
        await options.close();
        cdp = await TargetEvaluator.create(browser.context);
        return onset;
      },
      async open(url) {
        page = await browser.context.newPage();
        await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 20_000 }).catch(() => undefined);
        // tsx names the page function's inner functions through a helper the page lacks.
        await page.evaluate('window.__name = (f) => f');
        await page.evaluate(recordMarks);
      },
      async startReading() {
        const tabId = await sw.evaluate(async (u) => (await chrome.tabs.query({ url: u }))[0]?.id ?? -1, page!.url());
        await sw.evaluate(async (tabId) => {
          const g = globalThis as unknown as { commandHandler(c: string, t: object): Promise<void> };
          await g.commandHandler('read', await chrome.tabs.get(tabId));
        }, tabId);
        for (let i = 0; i < 300; i++) {
          const started = await cdp!.evaluate<boolean>('/offscreen.html', 'typeof player !== "undefined" && player.started && !!player.readingId').catch(() => false);
          if (started) return (await cdp!.evaluate<boolean>('/offscreen.html', sampler('player', 'window'))) === true;
          await sleep(50);
        }
        return false;
      },
      async setRate(rate) {
        await cdp!.evaluate('/offscreen.html', `player.audio.playbackRate = ${rate}`);
      },
      async collect() {
        const samples = (await cdp!.evaluate<Sample[]>('/offscreen.html', 'clearInterval(window.__wmTimer), window.__wm')) ?? [];
        const marks = (await page!.evaluate(() => (window as unknown as { __marks: PageMark[] }).__marks)) ?? [];
        const tells = (await cdp!.evaluate<number[]>('/offscreen.html', 'window.__tells')) ?? [];
        return { samples, marks, tells };
      },
      async readingPlan() {
        return (await sw.evaluate(() => (globalThis as unknown as { readingPlan(): Promise<ReadingPlan | null> }).readingPlan())) as ReadingPlan | null;
      },
      async stopReading() {
        await sw.evaluate(() => (globalThis as unknown as { commandHandler(c: string): Promise<void> }).commandHandler('stop'));
      },
      async closePage() {
        await page?.close();
        page = null;
      },
      close: () => browser.close(),
    };
  } catch (err) {
    await browser.close();
    throw err;
  }
}

/**
 * Firefox (puppeteer over BiDi): the background page's handlers and player, reached from the options page
 * (`window.__bg`, kept open throughout). The sampler's code and records are that page's; its timer is the
 * background page's (the options page is a tab in the background while a saved page is read, and Firefox
 * slows such a tab's timers to one a second).
 */
async function firefoxWordMarks(serviceUrl: string): Promise<WordMarkBrowser> {
  const ff: LaunchedFirefox = await launchFirefoxWithExtension();
  try {
    const helper = await optionsPageFor(ff, serviceUrl);
    await helper.evaluate('window.__name = (f) => f');
    await helper.evaluate('(async () => { window.__bg = await browser.runtime.getBackgroundPage(); })()');
    const inBg = async <T>(js: string): Promise<T> => JSON.parse((await helper.evaluate(`(async () => JSON.stringify(await (${js}) ?? null))()`)) as string) as T;
    let page: FirefoxPage | null = null;
    let tabId = -1;
    return {
      decodedOnset: (b64) => helper.evaluate(decodedOnsetInPage, b64),
      async open(url) {
        page = await ff.browser.newPage();
        await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 20_000 }).catch(() => undefined);
        await page.bringToFront();
        await page.evaluate('window.__name = (f) => f');
        await page.evaluate(recordMarks);
        // The tab's URL reaches the tabs API a little after the page has it.
        for (let i = 0; i < 100 && (tabId = await inBg<number>(`browser.tabs.query({}).then((ts) => ts.find((t) => t.url === ${JSON.stringify(page.url())})?.id ?? -1)`)) < 0; i++) await sleep(50);
        if (tabId < 0) console.error(`${url}: no tab (${JSON.stringify(await inBg('browser.tabs.query({}).then((ts) => ts.map((t) => t.url))'))})`);
      },
      async startReading() {
        await inBg(`browser.tabs.get(${tabId}).then((tab) => window.__bg.commandHandler('read', tab))`);
        for (let i = 0; i < 300; i++) {
          const started = await inBg<boolean>('window.__bg.player && window.__bg.player.started && !!window.__bg.player.readingId').catch(() => false);
          if (started) return (await helper.evaluate(sampler('window.__bg.player', 'window.__bg'))) === true;
          await sleep(50);
        }
        return false;
      },
      async setRate(rate) {
        await helper.evaluate(`window.__bg.player.audio.playbackRate = ${rate}`);
      },
      async collect() {
        const samples = (await inBg<Sample[]>('(window.__bg.clearInterval(window.__wmTimer), window.__wm)')) ?? [];
        const marks = (await page!.evaluate(() => (window as unknown as { __marks: PageMark[] }).__marks)) ?? [];
        const tells = (await inBg<number[]>('window.__tells')) ?? [];
        return { samples, marks, tells };
      },
      readingPlan: () => inBg<ReadingPlan | null>('window.__bg.readingPlan()'),
      async stopReading() {
        await inBg(`window.__bg.commandHandler('stop')`);
      },
      async closePage() {
        await page?.close();
        page = null;
      },
      close: () => ff.close(),
    };
  } catch (err) {
    await ff.close();
    throw err;
  }
}

export type WordMarkBrowserName = 'chromium' | 'firefox';

export async function measureWordMarks(
  seconds = 12,
  rates = [1, 2],
  perLang = Number(process.env.WORD_MARK_PAGES ?? Infinity),
  browserName: WordMarkBrowserName = 'chromium',
  /**
   * The service sends each part's audio over its length ÷ this, as a synthesizer streams it (`WORD_MARK_REALTIME=n`);
   * null: at once, once made. Streamed, a part plays while its audio comes, its words timed as it does.
   */
  realtimeFactor: number | null = process.env.WORD_MARK_REALTIME ? Number(process.env.WORD_MARK_REALTIME) : null,
): Promise<WordMarkResult[]> {
  // A balance for every page at every rate (each reading buys its first parts: ~5,000 characters).
  const service = await startFakeService({ audio: 'timed', realtimeFactor, accounts: [{ ...DEFAULT_ACCOUNT, balanceRub: '100000.0000' }] });
  const results: WordMarkResult[] = [];
  let browser: WordMarkBrowser | null = null;
  try {
    browser = await (browserName === 'firefox' ? firefoxWordMarks : chromiumWordMarks)(service.url);
    const delayMs = await codecDelayMs(browser);
    // Each part's true word times by its text: a page read again (the next rate) plays its parts from the cache.
    const trueByText = new Map<string, TrueWord[]>();
    for (const rate of rates) {
      const r: WordMarkResult = {
        rate, pages: 0, wordSamples: 0, onWord: 0, onWordStrict: 0, wrongSentenceStrict: 0, withinOne: 0, startErrorsMs: [], signedMs: [], tripMs: [], sentenceSamples: 0, onSentence: 0, wrongSentence: 0, partial: 0, unmarked: 0, partialByPage: {}, unmarkedByPage: {}, farByPage: {}, longestWrongMs: 0, examples: [],
        byLang: { ru: { samples: 0, on: 0, wrong: 0 }, en: { samples: 0, on: 0, wrong: 0 } },
        codecDelayMs: delayMs,
      };
      for (const lang of ['ru', 'en'] as const) {
        const server = await startPagesServer(corpusDirOf(lang));
        try {
          // `WORD_MARK_ONLY=en/guardian-1,…`: those pages alone.
          const only = process.env.WORD_MARK_ONLY?.split(',');
          for (const name of expectedPages(lang).slice(0, perLang).filter((n) => !only || only.includes(`${lang}/${n}`))) {
            service.resetLog();
            await browser.open(`${server.url}/${name}/source.html`);
            if (!(await browser.startReading())) {
              console.error(`${lang}/${name}: no playback`);
              await browser.closePage();
              continue;
            }
            if (rate !== 1) await browser.setRate(rate);
            await sleep(seconds * 1000);
            const { samples, marks, tells } = await browser.collect();
            const plan = await browser.readingPlan();
            await browser.stopReading();
            await browser.closePage();
            if (!plan) continue;
            r.pages++;
            for (const e of service.speechLog() as Array<{ text: string; trueWords?: TrueWord[] }>) if (e.trueWords) trueByText.set(e.text, e.trueWords);
            // The true times as heard: behind the codec's delay.
            const truth = (k: number) => trueByText.get(plan.parts[k]?.text ?? '')?.map((w) => ({ ...w, startMs: w.startMs + delayMs, endMs: w.endMs + delayMs }));
            const sentenceWords = plan.parts.map((p) => p.sentences.map((s) => speakable(p.text.slice(s.start, s.end))));
            // The mark's way from the player to the page: each word told, to the page's next change of word (5 ms samples).
            for (const t of tells) {
              const next = marks.find((m, k) => m[0] >= t && m[2] !== '' && m[2] !== marks[k - 1]?.[2]);
              if (next && next[0] - t < 500) r.tripMs.push(next[0] - t);
            }
            const trip = Math.max(0, quantile(r.tripMs, 0.5) || 0);
            /** The word painted at `t`: what the player told a trip earlier. */
            const paintedWord = (k: number): [number, number] => {
              const t = samples[k]![0] - trip;
              let j = k;
              while (j > 0 && samples[j]![0] > t) j--;
              return [samples[j]![4], samples[j]![5]];
            };
            let told: string | null = null;
            let wrongSince: number | null = null;
            for (const [k, [t, part, ms, sampleRate]] of samples.entries()) {
              const [tPart, tWord] = paintedWord(k);
              const words = truth(part);
              const p = plan.parts[part];
              if (!words || !p) continue;
              const i = wordAt(words, ms);
              if (i < 0) continue; // the part's lead-in silence
              // The word painted on the page (the player's, a trip later).
              r.wordSamples++;
              // In the silence after word i (before the next, or before the next part's first word) no word is
              // being said: the one just said and the one to come are both right (strictly, only the first).
              const nextWord = words[i + 1];
              const inSilence = ms >= words[i]!.endMs && (!nextWord || ms < nextWord.startMs);
              const [nextPart, nextIndex] = nextWord ? [part, i + 1] : [part + 1, 0];
              if (tPart === part && tWord === i) {
                r.onWord++;
                r.onWordStrict++;
              } else if (inSilence && tPart === nextPart && tWord === nextIndex) r.onWord++;
              // Next to the word in the reading's order: across a part's end too (the last word of the part before, or the next part's first).
              const adjacent = tPart === part ? Math.abs(tWord - i) <= 1 : tPart === part - 1 ? i === 0 && tWord === (truth(tPart)?.length ?? 0) - 1 : tPart === part + 1 && tWord === 0 && i === words.length - 1;
              if (adjacent) r.withinOne++;
              else { r.farByPage[`${lang}/${name}`] = (r.farByPage[`${lang}/${name}`] ?? 0) + 1; if (process.env.FAR_DEBUG) console.log(`far ${name} t=${t.toFixed(0)} part ${part} ms ${ms.toFixed(0)} word ${i}/${words.length} told ${tPart}:${tWord} first ${samples[0]![1]}:${samples[0]![2].toFixed(0)}`); }
              const key = `${tPart}:${tWord}`;
              if (tPart === part && key !== told && words[tWord]) {
                r.startErrorsMs.push(Math.abs(ms - words[tWord]!.startMs) / sampleRate);
                r.signedMs.push((ms - words[tWord]!.startMs) / sampleRate);
              }
              told = key;
              // The sentence painted at that moment.
              const at = words[i]!.start;
              let s = 0;
              p.sentences.forEach((x, k) => x.start <= at && (s = k));
              const painted = speakable(lastAt(marks, t)?.[1] ?? '');
              r.sentenceSamples++;
              r.byLang[lang].samples++;
              // In a silence before another sentence, that one is right too (nothing is being said).
              let coming: string[] | undefined;
              if (inSilence) {
                if (nextWord) {
                  let s2 = 0;
                  p.sentences.forEach((x, k) => x.start <= nextWord.start && (s2 = k));
                  if (s2 !== s) coming = sentenceWords[part]![s2];
                } else coming = sentenceWords[part + 1]?.[0];
              }
              const other = (ss: string[]) => !covers(ss, sentenceWords[part]![s]!) && !(coming && covers(ss, coming));
              const onComing = !!coming && covers(painted, coming);
              const strictWrong = !covers(painted, sentenceWords[part]![s]!) && sentenceWords.some((ss, k) => ss.some((w, j) => (k !== part || j !== s) && w.length >= 2 && covers(painted, w) && !covers(w, sentenceWords[part]![s]!)));
              if (strictWrong) r.wrongSentenceStrict++;
              const wrong = !onComing && !covers(painted, sentenceWords[part]![s]!) && sentenceWords.some((ss) => ss.some((w) => w.length >= 2 && covers(painted, w) && other(w)));
              if (wrong) {
                wrongSince ??= t;
                r.longestWrongMs = Math.max(r.longestWrongMs, t - wrongSince + 10);
              } else wrongSince = null;
              if (painted.length === 0) {
                r.unmarked++;
                r.unmarkedByPage[`${lang}/${name}`] = (r.unmarkedByPage[`${lang}/${name}`] ?? 0) + 1;
                if (process.env.FAR_DEBUG) console.log(`none ${name} part ${part} ms ${ms.toFixed(0)} word ${i}/${words.length} told ${tPart}:${tWord}`);
              } else if (covers(painted, sentenceWords[part]![s]!) || onComing) {
                r.onSentence++;
                r.byLang[lang].on++;
              } else if (wrong) {
                r.wrongSentence++;
                r.byLang[lang].wrong++;
                if (r.examples.length < 40) r.examples.push(`wrong ${lang}/${name} part ${part} at ${ms.toFixed(0)} ms (word ${i} from ${words[i]!.startMs.toFixed(0)} ms; told ${tPart}:${tWord}): heard «${sentenceWords[part]![s]!.join(' ').slice(0, 80)}», painted «${painted.join(' ').slice(0, 80)}»`);
              } else {
                r.partial++;
                r.partialByPage[`${lang}/${name}`] = (r.partialByPage[`${lang}/${name}`] ?? 0) + 1;
                if (r.examples.length < 40 && !r.examples.some((e) => e.startsWith(`partial ${lang}/${name}`))) r.examples.push(`partial ${lang}/${name} part ${part} at ${ms.toFixed(0)} ms (word ${i}; told ${tPart}:${tWord}): heard «${sentenceWords[part]![s]!.join(' ').slice(0, 80)}», painted «${painted.join(' ').slice(0, 80)}»`);
              }
            }
          }
        } finally {
          await server.close();
        }
      }
      results.push(r);
    }
  } finally {
    await browser?.close();
    await service.close();
  }
  return results;
}

const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(1)} %`;

export function describeWordMarks(r: WordMarkResult): string[] {
  return [
    `at ${r.rate}× (true times moved by the codec's ${r.codecDelayMs.toFixed(1)} ms), ${r.pages} pages: word ${pct(r.onWord, r.wordSamples)} on (strictly, the last word started even in a silence: ${pct(r.onWordStrict, r.wordSamples)}), ${pct(r.withinOne, r.wordSamples)} within one (${r.wordSamples} samples); ` +
      `start error median ${quantile(r.startErrorsMs, 0.5).toFixed(0)} ms, p90 ${quantile(r.startErrorsMs, 0.9).toFixed(0)} ms (${r.startErrorsMs.length} words; signed median ${quantile(r.signedMs, 0.5).toFixed(0)} ms, late > 0); player to page ${quantile(r.tripMs, 0.5).toFixed(0)} ms median`,
    `  sentence: ${pct(r.onSentence, r.sentenceSamples)} on (${r.sentenceSamples} samples; ru ${pct(r.byLang.ru.on, r.byLang.ru.samples)}, en ${pct(r.byLang.en.on, r.byLang.en.samples)}), wrong ${r.wrongSentence} (longest ${r.longestWrongMs} ms; strictly, a silence before a sentence the last one's alone: ${r.wrongSentenceStrict}), part of it ${r.partial}, none ${r.unmarked}`,
    `  part of it, by page: ${JSON.stringify(r.partialByPage)}; none, by page: ${JSON.stringify(r.unmarkedByPage)}`,
    `  word more than one off, by page: ${JSON.stringify(r.farByPage)}`,
    ...r.examples.map((e) => `    ${e}`),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2).filter((a) => a !== '--firefox');
  const seconds = Number(args[0] ?? 12);
  const rates = (args[1] ?? '1,2').split(',').map(Number);
  const results = await measureWordMarks(seconds, rates, undefined, process.argv.includes('--firefox') ? 'firefox' : 'chromium');
  for (const r of results) console.log(describeWordMarks(r).join('\n'));
  if (process.env.JSON) (await import('node:fs')).writeFileSync(process.env.JSON, JSON.stringify(results));
}
