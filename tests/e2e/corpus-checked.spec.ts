/**
 * Pages with a hand-written expected spoken text (`tests/corpus-expected/`), read through the extension as a
 * listener would and scored on 4-word shingles (`tests/fixtures/shingles.ts`). A sample here; the whole set
 * is measured by `npm run bench` (its `precision` step). Without the saved pages these tests are skipped and say so.
 */
import { billed } from '../fixtures/billed.ts';
import { corpusDirOf, type ExpectedLang, expectedPages, expectedText } from '../fixtures/expected-text.ts';
import { score } from '../fixtures/shingles.ts';
import { startPagesServer } from './pages-server.ts';
import { expect, player, test } from './fixtures.ts';

const SAMPLE: Array<[ExpectedLang, string]> = [
  ['ru', 'mk-lukashenko'],
  ['ru', 'tass-ckad'],
  ['ru', 'ukrinform-metro'],
  ['ru', 'umputun-apple-maps'],
  ['en', 'nytimes-3'],
  ['en', 'theverge'],
];

test.use({ serviceOptions: { msPerChar: 0.5, minMs: 100 } });

for (const [lang, name] of SAMPLE) {
  test(`${lang}/${name}: what is read is the article as written (shingle precision and recall)`, async ({ ext, service, context }) => {
    test.skip(!expectedPages(lang).includes(name), `no saved page for ${name} in ${corpusDirOf(lang)}`);
    test.setTimeout(90_000);
    const server = await startPagesServer(corpusDirOf(lang));
    try {
      // Saved pages still point at their sites: nothing leaves this machine.
      await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort());
      await ext.configure({ threshold: '100000' });
      const { tabId } = await ext.openTab(`${server.url}/${name}/source.html`);
      const popup = await ext.openPopup(tabId);
      await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 80_000 });
      const got = score(expectedText(lang, name), billed(service));
      expect.soft(got.recall, 'share of the article read').toBeGreaterThanOrEqual(0.95);
      expect.soft(got.precision, 'share of what was read that is the article').toBeGreaterThanOrEqual(0.9);
    } finally {
      await server.close();
    }
  });
}
