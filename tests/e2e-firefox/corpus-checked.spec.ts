/**
 * Pages with a hand-written expected spoken text, read in Firefox and scored on 4-word shingles (as in
 * Chromium's `corpus-checked.spec.ts`). Skipped, and says so, without the saved pages.
 */
import { billed } from '../fixtures/billed.ts';
import { corpusDirOf, type ExpectedLang, expectedPages, expectedText } from '../fixtures/expected-text.ts';
import { score } from '../fixtures/shingles.ts';
import { startPagesServer } from '../e2e/pages-server.ts';
import { expect, state, test } from './fixtures.ts';

const SAMPLE: Array<[ExpectedLang, string]> = [
  ['ru', 'mk-serpukhov'],
  ['ru', 'unn-moldova'],
  ['en', 'cnn'],
];

test.use({ serviceOptions: { msPerChar: 0.5, minMs: 100 } });

for (const [lang, name] of SAMPLE) {
  test(`${lang}/${name}: what is read is the article as written (shingle precision and recall)`, async ({ ext, service }) => {
    test.skip(!expectedPages(lang).includes(name), `no saved page for ${name} in ${corpusDirOf(lang)}`);
    test.setTimeout(90_000);
    const server = await startPagesServer(corpusDirOf(lang));
    try {
      await ext.configure({ threshold: '100000' });
      const { tabId } = await ext.openTab(`${server.url}/${name}/source.html`);
      const popup = await ext.openPopup(tabId);
      await expect.poll(() => state(popup), { timeout: 80_000 }).toBe('finished');
      const got = score(expectedText(lang, name), billed(service));
      expect.soft(got.recall, 'share of the article read').toBeGreaterThanOrEqual(0.95);
      expect.soft(got.precision, 'share of what was read that is the article').toBeGreaterThanOrEqual(0.9);
    } finally {
      await server.close();
    }
  });
}
