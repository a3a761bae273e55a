/**
 * `npx tsx bench/precision.ts [extensionDir]`: how close what the extension bills is to what a listener
 * should hear, on the pages with a hand-written expected text (`tests/corpus-expected/`): precision,
 * recall and F1 on 4-word shingles (`tests/fixtures/shingles.ts`), per page and averaged, Russian and
 * English apart and together. `CAPTIONS=on|off` measures with image captions read or left out. `DUMP=dir` writes each page's billed text there. `CORPUS_RECALL=1` adds the whole corpus's recall of Readability's output. `JSON=file` keeps the rows (billed characters too: a before/after of a change).
 * `npm run bench` runs it as its `precision` step.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { launchWithExtension, serviceWorkerOf } from '../tests/e2e/chromium.ts';
import { startPagesServer } from '../tests/e2e/pages-server.ts';
import { corpusDirOf, type ExpectedLang, expectedPages, expectedText } from '../tests/fixtures/expected-text.ts';
import { averageScores, type Averages, type PageScore, score } from '../tests/fixtures/shingles.ts';
import { corpusDir, corpusPages, expectedWords } from '../tests/fixtures/corpus.ts';
import { billedOn, offline } from './billed.ts';
import { expected2026, PAGES_2026, pages2026Dir, type Shape } from '../tests/fixtures/pages-2026.ts';

export interface PrecisionRow extends PageScore {
  lang: ExpectedLang;
  page: string;
  billedChars: number;
  leftOutChars: number;
  expectedChars: number;
}

export async function measurePrecision(extensionDir?: string, request: Record<string, unknown> = {}): Promise<{ rows: PrecisionRow[]; averages: Record<'ru' | 'en' | 'all', Averages | null> }> {
  const browser = await launchWithExtension(extensionDir ? { extensionDir } : {});
  const rows: PrecisionRow[] = [];
  try {
    const sw = await serviceWorkerOf(browser.context);
    await offline(browser.context);
    for (const lang of ['ru', 'en'] as const) {
      const pages = expectedPages(lang);
      if (!pages.length) continue;
      const server = await startPagesServer(corpusDirOf(lang));
      try {
        for (const page of pages) {
          const got = await billedOn(browser.context, sw, `${server.url}/${page}/source.html`, request);
          const expected = expectedText(lang, page);
          if (process.env.DUMP) writeFileSync(join(process.env.DUMP, `${lang}-${page}.txt`), got.billed);
          rows.push({ lang, page, ...score(expected, got.billed), billedChars: got.billedChars, leftOutChars: got.leftOutChars, expectedChars: expected.replace(/\s+/g, ' ').trim().length });
        }
      } finally {
        await server.close();
      }
    }
  } finally {
    await browser.close();
  }
  const avg = (r: PrecisionRow[]) => (r.length ? averageScores(r) : null);
  return { rows, averages: { ru: avg(rows.filter((r) => r.lang === 'ru')), en: avg(rows.filter((r) => r.lang === 'en')), all: avg(rows) } };
}

/**
 * Over the whole corpus (Readability's 130 pages): the share of Readability's own output (`expected.html`, its
 * words the service reads) that is read, on 4-word shingles. Pages in scripts the service cannot read are skipped.
 */
export async function measureCorpusRecall(extensionDir?: string): Promise<{ pages: number; recall: number; below95: string[] }> {
  const pages = corpusPages(readdirSync(corpusDir));
  const browser = await launchWithExtension(extensionDir ? { extensionDir } : {});
  const recalls: Array<[string, number]> = [];
  try {
    const sw = await serviceWorkerOf(browser.context);
    await offline(browser.context);
    const server = await startPagesServer(corpusDir);
    try {
      for (const page of pages) {
        let expected: { words: string[]; foreign: boolean };
        try {
          expected = expectedWords(page);
        } catch {
          continue;
        }
        if (expected.foreign) continue;
        const got = await billedOn(browser.context, sw, `${server.url}/${page}/source.html`).catch(() => null);
        recalls.push([page, got ? score(expected.words.join(' '), got.billed).recall : 0]);
      }
    } finally {
      await server.close();
    }
  } finally {
    await browser.close();
  }
  return { pages: recalls.length, recall: recalls.reduce((n, [, r]) => n + r, 0) / Math.max(1, recalls.length), below95: recalls.filter(([, r]) => r < 0.95).map(([p, r]) => `${p} ${Math.round(r * 1000) / 1000}`) };
}

export interface Row2026 extends PageScore {
  page: string;
  shape: Shape;
  lang: 'ru' | 'en';
  billedChars: number;
  leftOutChars: number;
  expectedChars: number;
}

/**
 * The same on the saved pages of 2024–26 (`tests/fixtures/pages-2026/`, issue 61), averaged by shape (listicles,
 * reviews, how-tos, long articles, vendor blogs, news, event lists) and in all.
 */
export async function measurePages2026(extensionDir?: string): Promise<{ rows: Row2026[]; byShape: Record<string, Averages>; all: Averages }> {
  const browser = await launchWithExtension(extensionDir ? { extensionDir } : {});
  const rows: Row2026[] = [];
  try {
    const sw = await serviceWorkerOf(browser.context);
    await offline(browser.context);
    const server = await startPagesServer(pages2026Dir);
    try {
      for (const [page, { shape, lang }] of Object.entries(PAGES_2026)) {
        const got = await billedOn(browser.context, sw, `${server.url}/${page}.html`);
        const expected = expected2026(page);
        if (process.env.DUMP) writeFileSync(join(process.env.DUMP, `2026-${page}.txt`), got.billed);
        rows.push({ page, shape, lang, ...score(expected, got.billed), billedChars: got.billedChars, leftOutChars: got.leftOutChars, expectedChars: expected.replace(/\s+/g, ' ').trim().length });
      }
    } finally {
      await server.close();
    }
  } finally {
    await browser.close();
  }
  const byShape: Record<string, Averages> = {};
  for (const shape of new Set(rows.map((r) => r.shape))) byShape[shape] = averageScores(rows.filter((r) => r.shape === shape));
  return { rows, byShape, all: averageScores(rows) };
}

const r3 = (n: number) => Math.round(n * 1000) / 1000;

if (import.meta.url === `file://${process.argv[1]}`) {
  // CAPTIONS=on / off: captions read or left out, whatever the default.
  const captions = process.env.CAPTIONS === 'on' ? { leaveOutCaptions: false } : process.env.CAPTIONS === 'off' ? { leaveOutCaptions: true } : {};
  const { rows, averages } = await measurePrecision(process.argv[2] ? resolve(process.argv[2]) : undefined, captions);
  console.table(rows.map((r) => ({ lang: r.lang, page: r.page, billed: r.billedChars, expected: r.expectedChars, leftOut: r.leftOutChars, P: r3(r.precision), R: r3(r.recall), F1: r3(r.f1) })));
  for (const [k, a] of Object.entries(averages)) if (a) console.log(`${k}: ${a.pages} pages, P ${r3(a.precision)}, R ${r3(a.recall)}, F1 ${r3(a.f1)}`);
  if (process.env.JSON) writeFileSync(process.env.JSON, JSON.stringify({ rows, averages }, null, 1));
  if (process.env.PAGES_2026) {
    const p = await measurePages2026(process.argv[2] ? resolve(process.argv[2]) : undefined);
    console.table(p.rows.map((r) => ({ shape: r.shape, page: r.page, billed: r.billedChars, expected: r.expectedChars, leftOut: r.leftOutChars, P: r3(r.precision), R: r3(r.recall), F1: r3(r.f1) })));
    for (const [k, a] of [...Object.entries(p.byShape), ['all', p.all] as const]) console.log(`2026 ${k}: ${a.pages} pages, P ${r3(a.precision)}, R ${r3(a.recall)}, F1 ${r3(a.f1)}`);
  }
  if (process.env.CORPUS_RECALL) {
    const whole = await measureCorpusRecall(process.argv[2] ? resolve(process.argv[2]) : undefined);
    console.log(`whole corpus: ${whole.pages} pages, recall of Readability's output ${r3(whole.recall)}; under 0.95: ${whole.below95.join(', ') || 'none'}`);
  }
}
