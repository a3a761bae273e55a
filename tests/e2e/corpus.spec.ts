/**
 * Real pages saved from public sites, read through the extension as a listener would. The corpus is
 * not in this repository (pages fetched from public repositories are not committed here): it is read
 * from `TRYSASHA_CORPUS`, or `../shared/corpus` beside the project, in the layout of mozilla/readability's
 * `test/test-pages` (a folder a page, with `source.html` and Readability's reviewed `expected.html`).
 * Without a corpus these tests are skipped and say so. `CORPUS_PAGES=a,b` picks pages.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseHTML } from 'linkedom';
import { blocksOf } from '../../utils/text/extract.ts';
import { tokens } from '../../utils/text/highlight.ts';
import { recordedHighlights, recordHighlights } from '../fixtures/highlights.ts';
import { junkIn } from '../fixtures/junk.ts';
import { startPagesServer, type PagesServer } from './pages-server.ts';
import { expect, player, test } from './fixtures.ts';

const corpus = resolve(process.env.TRYSASHA_CORPUS ?? resolve(import.meta.dirname, '../../../shared/corpus'));
/** A sample across kinds and languages: encyclopedia, RFC, news, blogs, technical writing, CJK, Cyrillic-free European. */
const SAMPLE = [
  'wikipedia', 'wikipedia-2', 'wikipedia-3', 'wikipedia-4', 'ietf-1', 'lwn-1', 'v8-blog', 'mozilla-1', 'mozilla-2', 'google-sre-book-1',
  'firefox-nightly-blog', 'medicalnewstoday', 'seattletimes-1', 'guardian-1', 'nytimes-5', 'ars-1', 'mercurial', 'toc-missing', 'qq',
  'hukumusume', 'lemonde-1', 'heise', 'aktualne', 'folha',
];
const pages = (process.env.CORPUS_PAGES?.split(',') ?? SAMPLE).filter((p) => existsSync(join(corpus, p, 'source.html')));


/** The share of `expected`'s words found in `billed`, in order (a word may be missed, never reordered). */
function inOrder(expected: string[], billed: string[]): number {
  // Anchored on three words at a time, so a block the billed text has in addition cannot derail the rest.
  const hay = ` ${billed.join(' ')} `;
  let at = 0;
  let found = 0;
  for (let i = 0; i < expected.length; i++) {
    const next = hay.indexOf(` ${expected.slice(i, i + 3).join(' ')} `, at);
    if (next >= 0) {
      found++;
      at = next + expected[i]!.length + 1;
    }
  }
  return expected.length ? found / expected.length : 1;
}

let server: PagesServer | undefined;
test.beforeAll(async () => {
  if (pages.length) server = await startPagesServer(corpus);
});
test.afterAll(() => server?.close());

test.describe('real pages', () => {
  test.skip(pages.length === 0, `no corpus at ${corpus} (set TRYSASHA_CORPUS)`);
  test.use({ serviceOptions: { msPerChar: 0.5, minMs: 200 } });

  for (const name of pages.length ? pages : ['none']) {
    test(`${name}: the article's words once and in order, junk at most 1% of what is billed, the highlight on what is read`, async ({
      ext,
      service,
      context,
    }) => {
      test.setTimeout(120_000);
      // Saved pages still point at their sites: nothing leaves this machine.
      await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort());
      await ext.configure({ threshold: '100000' });
      const { page, tabId } = await ext.openTab(`${server!.url}/${name}/source.html`);
      await page.evaluate(recordHighlights, 'body');
      const popup = await ext.openPopup(tabId);
      await expect(player(popup)).toHaveAttribute('data-state', /finished|error/, { timeout: 100_000 }).catch(async (err) => {
        if (process.env.CORPUS_DEBUG) console.log(await player(popup).evaluate((e) => [...e.attributes].map((a) => `${a.name}=${a.value}`).join(' ')), JSON.stringify(service.speechLog().map((e) => [e.status, e.text.length, e.endedAt !== null, e.aborted])));
        throw err;
      });
      const billedText = service.speechLog().filter((e) => e.status === 200).map((e) => e.text).join(' ');
      if ((await player(popup).getAttribute('data-state')) === 'error') {
        // A page with nothing the service can read (its words all in other scripts) ends so, before any request.
        await expect(popup.getByTestId('error')).toHaveAttribute('data-code', 'no-text');
        expect(service.speechLog()).toHaveLength(0);
        return;
      }
      const billed = tokens(billedText);
      // What Readability's reviewed output says the article is, without what a listener does not want.
      const { document } = parseHTML(`<!doctype html><html><body>${readFileSync(join(corpus, name, 'expected.html'), 'utf8')}</body></html>`);
      const expected = tokens(blocksOf(document.body as unknown as Element).blocks.map((b) => b.text).join(' ').replace(/\[[^\]]{1,30}\]/g, ' '));
      expect(expected.length, 'the expected text has words').toBeGreaterThan(20);
      const accepted = (w: string) => /^[a-zа-яё0-9]+$/.test(w); // words in other scripts are left out by design
      expect.soft(inOrder(expected.filter(accepted), billed), 'expected words read, in order').toBeGreaterThanOrEqual(0.9);
      const inArticle = new Set(expected);
      expect.soft(billed.filter((w) => inArticle.has(w)).length / Math.max(billed.length, 1), 'billed words that are the article').toBeGreaterThanOrEqual(0.9);
      const { leaders, drawing, refs } = junkIn(billedText);
      const junk = leaders! + drawing! + refs!;
      expect.soft(junk / Math.max(billedText.length, 1), 'junk share of billed text').toBeLessThanOrEqual(0.01);
      // Each highlight is on words that were read (pages hidden by their own scripts' CSS excepted, visibility is not checked here).
      const highlights = await page.evaluate(recordedHighlights);
      const heard = billed.join(' ');
      for (const h of highlights) expect.soft(heard.includes(tokens(h.text).slice(0, 3).join(' ')), `highlight is read: ${h.text.slice(0, 60)}`).toBe(true);
    });
  }
});
