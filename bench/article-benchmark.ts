/**
 * `npx tsx bench/article-benchmark.ts [extensionDir]`: the public article-extraction benchmark
 * (github.com/scrapinghub/article-extraction-benchmark, MIT: 181 news and blog pages, each with its article
 * body written by hand) scored as that benchmark scores extractors: 4-word shingles, precision and recall per
 * page, averaged. What is scored is what the extension would bill, less its first part's title (the
 * benchmark's article body has no headline). Pages the extension has never been tuned on: a check that a
 * change helps pages in general, not only the hand-checked ones (`bench/precision.ts`).
 *
 * Pages written mostly in scripts the service cannot read are not counted (`foreign`).
 *
 * `ARTICLE_BENCHMARK=<a checkout of that repository>` (default `../article-extraction-benchmark`); skipped,
 * saying why, when it is not there. `DUMP=dir` writes each page's billed text; `JSON=file` the rows.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { launchWithExtension, serviceWorkerOf } from '../tests/e2e/chromium.ts';
import { startPagesServer } from '../tests/e2e/pages-server.ts';
import { averageScores, type Averages, type PageScore, score } from '../tests/fixtures/shingles.ts';
import { billedOn, offline } from './billed.ts';

export const articleBenchmarkDir = resolve(process.env.ARTICLE_BENCHMARK ?? '../article-extraction-benchmark');

export interface BenchmarkRow extends PageScore {
  page: string;
  url: string;
  billedChars: number;
  /** Why nothing was read (the extraction's error). */
  error?: string;
}

/**
 * The page without its scripts, but for its JSON-LD: saved pages' scripts are dead (their sites are not
 * reached), and some of their inline ones send the page to its own site (a Chromium error page, offline).
 * Bytes as they are (latin1 in, latin1 out), whatever the page's encoding.
 */
export function withoutScripts(html: string): string {
  return html.replace(/<script\b([^>]*)>[\s\S]*?<\/script\s*>/gi, (whole, attrs: string) => (/ld\+json/i.test(attrs) ? whole : ''));
}

/** An article mostly in scripts the service cannot read (Korean, Japanese): the reader leaves those out by design. */
export function foreign(text: string): boolean {
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  const readable = text.match(/[\p{Script=Latin}\p{Script=Cyrillic}]/gu)?.length ?? 0;
  return readable * 2 < letters;
}

/**
 * Both texts without diacritics: the service takes Latin letters without them (`accepted.ts` folds
 * "experiência" to "experiencia" before billing), which is no loss of the author's words.
 */
const folded = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '');

export async function measureArticleBenchmark(extensionDir?: string, limit = Infinity): Promise<{ rows: BenchmarkRow[]; averages: Averages } | { skipped: string }> {
  const truthFile = join(articleBenchmarkDir, 'ground-truth.json');
  if (!existsSync(truthFile)) return { skipped: `no benchmark at ${articleBenchmarkDir} (git clone https://github.com/scrapinghub/article-extraction-benchmark there, or set ARTICLE_BENCHMARK)` };
  const truth = JSON.parse(readFileSync(truthFile, 'utf8')) as Record<string, { articleBody?: string; url?: string }>;
  // The pages server serves <dir>/<page>/source.html: the gzipped pages are unpacked so.
  const pagesDir = mkdtempSync(join(tmpdir(), 'trysasha-aeb-'));
  const ids = readdirSync(join(articleBenchmarkDir, 'html'))
    .filter((f) => f.endsWith('.html.gz'))
    .map((f) => f.slice(0, -'.html.gz'.length))
    .filter((id) => truth[id] && !foreign(truth[id].articleBody ?? ''))
    .sort()
    .slice(0, limit);
  for (const id of ids) {
    mkdirSync(join(pagesDir, id));
    writeFileSync(join(pagesDir, id, 'source.html'), withoutScripts(gunzipSync(readFileSync(join(articleBenchmarkDir, 'html', `${id}.html.gz`))).toString('latin1')), 'latin1');
  }
  const browser = await launchWithExtension(extensionDir ? { extensionDir } : {});
  const rows: BenchmarkRow[] = [];
  try {
    const sw = await serviceWorkerOf(browser.context);
    await offline(browser.context);
    const server = await startPagesServer(pagesDir);
    try {
      for (const id of ids) {
        let error = '';
        const got = await billedOn(browser.context, sw, `${server.url}/${id}/source.html`).catch((e: unknown) => ((error = String(e).slice(0, 80)), null));
        // The headline is the article's first block when it is read as a title.
        const title = got?.text.blocks[0]?.kind === 'title' ? got.text.blocks[0].text : '';
        // The planner may end the title with a full stop: its first line goes when it is the title.
        const [first = '', ...rest] = got?.billed.split('\n') ?? [];
        const body = !got ? '' : title && first.startsWith(title.replace(/[.!?…]+$/, '')) ? rest.join('\n') : got.billed;
        if (process.env.DUMP) writeFileSync(join(process.env.DUMP, `${id}.txt`), body);
        rows.push({ page: id, url: truth[id]!.url ?? '', ...score(folded(truth[id]!.articleBody ?? ''), folded(body)), billedChars: got?.billedChars ?? 0, ...(error ? { error } : {}) });
      }
    } finally {
      await server.close();
    }
  } finally {
    await browser.close();
    rmSync(pagesDir, { recursive: true, force: true });
  }
  return { rows, averages: averageScores(rows) };
}

const r3 = (n: number) => Math.round(n * 1000) / 1000;

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await measureArticleBenchmark(process.argv[2] ? resolve(process.argv[2]) : undefined, Number(process.env.LIMIT ?? Infinity));
  if ('skipped' in result) {
    console.log(`skipped: ${result.skipped}`);
  } else {
    const worst = [...result.rows].sort((a, b) => a.f1 - b.f1).slice(0, Number(process.env.WORST ?? 25));
    console.table(worst.map((r) => ({ page: r.page.slice(0, 10), site: r.url.replace(/^https?:\/\/(www\.)?/, '').slice(0, 40), billed: r.billedChars, error: r.error ?? '', P: r3(r.precision), R: r3(r.recall), F1: r3(r.f1) })));
    const a = result.averages;
    // The benchmark's own F1 is that of the averaged precision and recall; the mean of the pages' F1 beside it.
    console.log(`${a.pages} pages: P ${r3(a.precision)}, R ${r3(a.recall)}, F1 ${r3((2 * a.precision * a.recall) / (a.precision + a.recall))} (mean of pages' F1 ${r3(a.f1)})`);
    if (process.env.JSON) writeFileSync(process.env.JSON, JSON.stringify(result, null, 1));
  }
}
