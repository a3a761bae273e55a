/**
 * One saved page of each shape of 2024–26 (`tests/fixtures/pages-2026/`: a listicle, a review, a how-to, a long
 * read, a vendor's blog, a short news post, an events list) read through the extension as a listener would, scored
 * on 4-word shingles against its hand-written text, with what the clean-up left out shown in the popup. The whole
 * set is measured by `npm run bench` (its `precision` step).
 */
import { billed } from '../fixtures/billed.ts';
import { expected2026, PAGES_2026_E2E, pages2026Dir } from '../fixtures/pages-2026.ts';
import { score } from '../fixtures/shingles.ts';
import { startPagesServer } from './pages-server.ts';
import { expect, player, test } from './fixtures.ts';

test.use({ serviceOptions: { msPerChar: 0.3, minMs: 100 } });

for (const { page, shape, precision, recall, leftOut } of PAGES_2026_E2E) {
  test(`${shape} (${page}): the article is read, and the site's lines are left out and counted`, async ({ ext, service, context }) => {
    test.setTimeout(90_000);
    const server = await startPagesServer(pages2026Dir);
    try {
      // Saved pages still point at their sites: nothing leaves this machine.
      await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort());
      await ext.configure({ threshold: '100000' });
      const { tabId } = await ext.openTab(`${server.url}/${page}.html`);
      const popup = await ext.openPopup(tabId);
      await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 80_000 });
      const got = score(expected2026(page), billed(service));
      expect.soft(got.recall, 'share of the article read').toBeGreaterThanOrEqual(recall);
      expect.soft(got.precision, 'share of what was read that is the article').toBeGreaterThanOrEqual(precision);
      expect(Number(await popup.getByTestId('saved').getAttribute('data-chars')), 'left out before billing').toBeGreaterThanOrEqual(leftOut);
    } finally {
      await server.close();
    }
  });
}
