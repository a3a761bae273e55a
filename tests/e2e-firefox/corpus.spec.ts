/**
 * A sample of the real-page corpus read in Firefox, with the same checks as in Chromium
 * (`tests/fixtures/corpus.ts`). Skipped, and says so, when there is no corpus. `CORPUS_PAGES=a,b` picks pages.
 */
import { recordedHighlights, recordHighlights } from '../fixtures/highlights.ts';
import { corpusDir, corpusPages, expectedWords, heardOf, highlightIsHeard, judge } from '../fixtures/corpus.ts';
import { startPagesServer, type PagesServer } from '../e2e/pages-server.ts';
import { attr, expect, state, test } from './fixtures.ts';
import { evaluate } from './firefox.ts';

/**
 * Encyclopedia, French and German news, a WordPress blog of code blocks (the CJK pages are in the Chromium sample;
 * wikipedia, 18 s, and ietf-1, 23 s, left out for CI's 20 minutes: an RFC's shape is `extraction.spec`'s).
 */
const pages = corpusPages(['wikipedia-3', 'lemonde-1', 'heise', '002']);

type Entry = { status: number; text: string };

let server: PagesServer | undefined;
test.beforeAll(async () => {
  if (pages.length) server = await startPagesServer(corpusDir);
});
test.afterAll(() => server?.close());

test.describe('real pages', () => {
  test.skip(pages.length === 0, `no corpus at ${corpusDir} (set TRYSASHA_CORPUS)`);
  test.use({ serviceOptions: { msPerChar: 0.5, minMs: 200 } });

  for (const name of pages.length ? pages : ['none']) {
    test(`${name}: the article's words once and in order, junk at most 1% of what is billed, the highlight on what is read`, async ({ ext, service }) => {
      test.setTimeout(120_000);
      await ext.configure({ threshold: '100000' });
      const { page, tabId } = await ext.openTab(`${server!.url}/${name}/source.html`);
      await evaluate(page, recordHighlights, 'body');
      const popup = await ext.openPopup(tabId);
      await expect.poll(() => state(popup), { timeout: 100_000 }).toMatch(/finished|error/);
      const log = service.speechLog() as Entry[];
      if ((await state(popup)) === 'error') {
        // A page with nothing the service can read (its words all in other scripts) ends so, before any request.
        expect(await attr(popup, 'error', 'data-code')).toBe('no-text');
        expect(log).toHaveLength(0);
        return;
      }
      const billedText = log.filter((e) => e.status === 200).map((e) => e.text).join(' ');
      const verdict = judge(expectedWords(name), billedText);
      expect.soft(verdict.read, 'expected words read, in order').toBeGreaterThanOrEqual(0.9);
      expect.soft(verdict.extra, 'billed words that are not the article in its order').toBeLessThanOrEqual(0.1);
      expect.soft(verdict.junk, 'junk share of billed text').toBeLessThanOrEqual(0.01);
      const heard = heardOf(billedText);
      for (const h of await evaluate(page, recordedHighlights)) expect.soft(highlightIsHeard(h.text, heard), `highlight is read: ${h.text.slice(0, 60)}`).toBe(true);
    });
  }
});
