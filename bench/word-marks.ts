/**
 * `npx tsx bench/word-marks.ts [seconds] [rates]`: the marks as a listener sees them, in Chromium, on the
 * saved pages with a hand-checked text (`tests/corpus-expected/`, 38 pages, Russian and English), each read
 * by the local service's timed voice (`audio: 'timed'`: its true word times are in its log, never in the
 * answer). Each page plays for `seconds` of real time (default 12) at each playback rate (default `1,2`).
 * Sampled every 10 ms in the offscreen document: which part and millisecond of audio is playing, and which
 * word the player has told; on the page, every change of the two marks. Scored:
 * - the word: the share of samples on the word being said (its true word), within one word, and each told
 *   word's start against its true start, in the listener's ms (audio ms ÷ rate);
 * - the sentence, as painted on the page at each sample's moment: on the sentence being said, on another
 *   sentence of the reading (wrong), or neither (covering part of it, or not placed).
 * `npm run bench` runs it as its `word-marks` step (`WORD_MARK_PAGES=n`: the first n pages of each language).
 */
import { launchWithExtension, serviceWorkerOf } from '../tests/e2e/chromium.ts';
import { startPagesServer } from '../tests/e2e/pages-server.ts';
import { startFakeService } from '../tests/fake-service/server.ts';
import { DEFAULT_ACCOUNT } from '../tests/fake-service/options.ts';
import { timedVoice } from '../tests/fake-service/timed-voice.ts';
import { encodeMp3, MP3_KBPS } from '../tests/fake-service/audio.ts';
import { corpusDirOf, expectedPages, type ExpectedLang } from '../tests/fixtures/expected-text.ts';
import { tokens } from '../utils/text/highlight.ts';
import { wordAt } from '../utils/audio/word-timing.ts';
import type { ReadingPlan } from '../utils/reading/plan.ts';
import { offline } from './billed.ts';
import { TargetEvaluator } from './cdp.ts';

/** [Date.now(), part, audio ms into the part, rate, told part, told word]. */
type Sample = [number, number, number, number, number, number];
/** [Date.now(), the sentence painted, the word painted]. */
type PageMark = [number, string, string];
interface TrueWord {
  start: number;
  end: number;
  startMs: number;
}

export interface WordMarkResult {
  rate: number;
  pages: number;
  wordSamples: number;
  onWord: number;
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

/** Installed in the offscreen document (test builds expose `player`): where playback is, and the word told. */
const SAMPLER = `(() => {
  const p = player;
  window.__wm = [];
  window.__tells = [];
  if (!window.__emit) {
    window.__emit = p.emit;
    p.emit = (e) => { if (e.type === 'word') { window.__told = [e.part, e.word]; window.__tells.push(Date.now()); } window.__emit(e); };
  }
  window.__told = null;
  clearInterval(window.__wmTimer);
  window.__wmTimer = setInterval(() => {
    if (!p.started || p.audio.paused || !p.readingId) return;
    const part = p.currentPart();
    const start = p.partStarts.get(part);
    if (start === undefined) return;
    const told = window.__told ?? [-1, -1];
    window.__wm.push([Date.now(), part, (p.audio.currentTime - start) * 1000, p.audio.playbackRate, told[0], told[1]]);
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
async function codecDelayMs(page: import('playwright-core').Page): Promise<number> {
  const voice = await timedVoice('Проверка задержки звука, и ещё одно слово.');
  const bytes = encodeMp3(voice.pcm, MP3_KBPS.mp3);
  const onset = (xs: ArrayLike<number>, scale: number) => {
    for (let i = 0; i < xs.length; i++) if (Math.abs(xs[i]! * scale) > 0.05) return i;
    return -1;
  };
  const pcmOnset = onset(voice.pcm, 1 / 32768);
  const decodedOnset = await page.evaluate(async (b64) => {
    const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const decoded = await new OfflineAudioContext(1, 1, 22050).decodeAudioData(data.buffer);
    const xs = decoded.getChannelData(0);
    for (let i = 0; i < xs.length; i++) if (Math.abs(xs[i]!) > 0.05) return i;
    return -1;
  }, Buffer.from(bytes).toString('base64'));
  return ((decodedOnset - pcmOnset) * 1000) / voice.sampleRate;
}

export async function measureWordMarks(seconds = 12, rates = [1, 2], perLang = Number(process.env.WORD_MARK_PAGES ?? Infinity)): Promise<WordMarkResult[]> {
  // A balance for every page at every rate (each reading buys its first parts: ~5,000 characters).
  const service = await startFakeService({ audio: 'timed', accounts: [{ ...DEFAULT_ACCOUNT, balanceRub: '100000.0000' }] });
  const browser = await launchWithExtension();
  const results: WordMarkResult[] = [];
  try {
    const sw = await serviceWorkerOf(browser.context);
    const id = new URL(sw.url()).host;
    await offline(browser.context);
    const options = await browser.context.newPage();
    await options.goto(`chrome-extension://${id}/options.html`);
    await options.getByTestId('api-key').fill(KEY);
    await options.getByTestId('base-url').fill(service.url);
    await options.getByTestId('confirm-threshold').fill('100000');
    await options.getByTestId('save').click();
    await options.getByTestId('account').waitFor();
    await options.evaluate('window.__name = (f) => f');
    const delayMs = await codecDelayMs(options);
    await options.close();
    const cdp = await TargetEvaluator.create(browser.context);
    // Each part's true word times by its text: a page read again (the next rate) plays its parts from the cache.
    const trueByText = new Map<string, TrueWord[]>();
    for (const rate of rates) {
      const r: WordMarkResult = {
        rate, pages: 0, wordSamples: 0, onWord: 0, withinOne: 0, startErrorsMs: [], signedMs: [], tripMs: [], sentenceSamples: 0, onSentence: 0, wrongSentence: 0, partial: 0, unmarked: 0, partialByPage: {}, longestWrongMs: 0, examples: [],
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
            const page = await browser.context.newPage();
            await page.goto(`${server.url}/${name}/source.html`, { waitUntil: 'domcontentloaded', timeout: 20_000 }).catch(() => undefined);
            // tsx names the page function's inner functions through a helper the page lacks.
            await page.evaluate('window.__name = (f) => f');
            await page.evaluate(recordMarks);
            const tabId = await sw.evaluate(async (u) => (await chrome.tabs.query({ url: u }))[0]?.id ?? -1, page.url());
            await sw.evaluate(async (tabId) => {
              const g = globalThis as unknown as { commandHandler(c: string, t: object): Promise<void> };
              await g.commandHandler('read', await chrome.tabs.get(tabId));
            }, tabId);
            let installed = false;
            for (let i = 0; i < 300 && !installed; i++) {
              const started = await cdp.evaluate<boolean>('/offscreen.html', 'typeof player !== "undefined" && player.started && !!player.readingId').catch(() => false);
              if (started) installed = (await cdp.evaluate<boolean>('/offscreen.html', SAMPLER)) === true;
              else await sleep(50);
            }
            if (!installed) {
              console.error(`${lang}/${name}: no playback`);
              await page.close();
              continue;
            }
            if (rate !== 1) await cdp.evaluate('/offscreen.html', `player.audio.playbackRate = ${rate}`);
            await sleep(seconds * 1000);
            const samples = (await cdp.evaluate<Sample[]>('/offscreen.html', 'clearInterval(window.__wmTimer), window.__wm')) ?? [];
            const marks = (await page.evaluate(() => (window as unknown as { __marks: PageMark[] }).__marks)) ?? [];
            const plan = (await sw.evaluate(() => (globalThis as unknown as { readingPlan(): Promise<ReadingPlan | null> }).readingPlan())) as ReadingPlan | null;
            await sw.evaluate(() => (globalThis as unknown as { commandHandler(c: string): Promise<void> }).commandHandler('stop'));
            await page.close();
            if (!plan) continue;
            r.pages++;
            for (const e of service.speechLog() as Array<{ text: string; trueWords?: TrueWord[] }>) if (e.trueWords) trueByText.set(e.text, e.trueWords);
            // The true times as heard: behind the codec's delay.
            const truth = (k: number) => trueByText.get(plan.parts[k]?.text ?? '')?.map((w) => ({ ...w, startMs: w.startMs + delayMs }));
            const sentenceWords = plan.parts.map((p) => p.sentences.map((s) => speakable(p.text.slice(s.start, s.end))));
            // The mark's way from the player to the page: each word told, to the page's next change of word (5 ms samples).
            const tells = (await cdp.evaluate<number[]>('/offscreen.html', 'window.__tells')) ?? [];
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
              if (tPart === part && tWord === i) r.onWord++;
              if (tPart === part && Math.abs(tWord - i) <= 1) r.withinOne++;
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
              const wrong = !covers(painted, sentenceWords[part]![s]!) && sentenceWords.some((ss, k) => ss.some((w, j) => (k !== part || j !== s) && w.length >= 2 && covers(painted, w) && !covers(w, sentenceWords[part]![s]!)));
              if (wrong) {
                wrongSince ??= t;
                r.longestWrongMs = Math.max(r.longestWrongMs, t - wrongSince + 10);
              } else wrongSince = null;
              if (painted.length === 0) {
                r.unmarked++;
              } else if (covers(painted, sentenceWords[part]![s]!)) {
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
    await browser.close();
    await service.close();
  }
  return results;
}

const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(1)} %`;

export function describeWordMarks(r: WordMarkResult): string[] {
  return [
    `at ${r.rate}× (true times moved by the codec's ${r.codecDelayMs.toFixed(1)} ms), ${r.pages} pages: word ${pct(r.onWord, r.wordSamples)} on, ${pct(r.withinOne, r.wordSamples)} within one (${r.wordSamples} samples); ` +
      `start error median ${quantile(r.startErrorsMs, 0.5).toFixed(0)} ms, p90 ${quantile(r.startErrorsMs, 0.9).toFixed(0)} ms (${r.startErrorsMs.length} words; signed median ${quantile(r.signedMs, 0.5).toFixed(0)} ms, late > 0); player to page ${quantile(r.tripMs, 0.5).toFixed(0)} ms median`,
    `  sentence: ${pct(r.onSentence, r.sentenceSamples)} on (${r.sentenceSamples} samples; ru ${pct(r.byLang.ru.on, r.byLang.ru.samples)}, en ${pct(r.byLang.en.on, r.byLang.en.samples)}), wrong ${r.wrongSentence} (longest ${r.longestWrongMs} ms), part of it ${r.partial}, none ${r.unmarked}`,
    `  part of it, by page: ${JSON.stringify(r.partialByPage)}`,
    ...r.examples.map((e) => `    ${e}`),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const seconds = Number(process.argv[2] ?? 12);
  const rates = (process.argv[3] ?? '1,2').split(',').map(Number);
  const results = await measureWordMarks(seconds, rates);
  for (const r of results) console.log(describeWordMarks(r).join('\n'));
  if (process.env.JSON) (await import('node:fs')).writeFileSync(process.env.JSON, JSON.stringify(results));
}
