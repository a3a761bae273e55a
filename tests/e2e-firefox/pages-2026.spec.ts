/**
 * One saved page of each shape of 2024–26 read in Firefox and scored on 4-word shingles, with what the clean-up left
 * out shown in the popup (as in Chromium's `pages-2026.spec.ts`).
 */
import { billed } from '../fixtures/billed.ts';
import { expected2026, PAGES_2026_E2E, pages2026Dir } from '../fixtures/pages-2026.ts';
import { score } from '../fixtures/shingles.ts';
import { startPagesServer } from '../e2e/pages-server.ts';
import { attr, expect, state, test } from './fixtures.ts';

test.use({ serviceOptions: { msPerChar: 0.3, minMs: 100 } });

for (const { page, shape, precision, recall, leftOut } of PAGES_2026_E2E) {
  test(`${shape} (${page}): the article is read, and the site's lines are left out and counted`, async ({ ext, service }) => {
    test.setTimeout(90_000);
    const server = await startPagesServer(pages2026Dir);
    try {
      await ext.configure({ threshold: '100000' });
      const { tabId } = await ext.openTab(`${server.url}/${page}.html`);
      const popup = await ext.openPopup(tabId);
      await expect.poll(() => state(popup), { timeout: 80_000 }).toBe('finished');
      const got = score(expected2026(page), billed(service));
      expect.soft(got.recall, 'share of the article read').toBeGreaterThanOrEqual(recall);
      expect.soft(got.precision, 'share of what was read that is the article').toBeGreaterThanOrEqual(precision);
      expect(Number(await attr(popup, 'saved', 'data-chars')), 'left out before billing').toBeGreaterThanOrEqual(leftOut);
    } finally {
      await server.close();
    }
  });
}
