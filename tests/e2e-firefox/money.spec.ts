/** The service's price as it is now decides what a reading costs (Firefox). */
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { attr, expect, state, test, TEST_KEY } from './fixtures.ts';

test('a price that rose since the key was saved decides: the reading asks first, and nothing is sent', async ({ ext, service, pages }) => {
  // About 6 ₽ at the saved price, under the 10 ₽ threshold; 60 ₽ at the new one.
  pages.put('/priced.html', makeArticleHtml(4_000));
  await ext.configure();
  service.configure({ accounts: [{ key: TEST_KEY, name: 'Test account', balanceRub: '100.0000', pricePerMillionRub: '15000.0000', maxConcurrency: 2 }] });
  const { tabId } = await ext.openTab('priced.html');
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup)).toBe('confirm');
  const chars = Number(await attr(popup, 'estimate', 'data-chars'));
  expect(Number(await attr(popup, 'estimate', 'data-value'))).toBeCloseTo((chars * 15000) / 1_000_000, 3);
  expect(service.speechLog()).toHaveLength(0);
});
