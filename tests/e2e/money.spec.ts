/**
 * What a reading costs is decided by the service's price as it is now, not the one saved with the key.
 */
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { expect, player, test, TEST_KEY } from './fixtures.ts';

test('a price that rose since the key was saved decides: the reading asks first, and nothing is sent until it is confirmed', async ({
  ext,
  service,
  pages,
}) => {
  // 4,000 characters: about 6 ₽ at the saved price (1,500 ₽ per million), under the 10 ₽ threshold; 60 ₽ at the new one.
  pages.put('/priced.html', makeArticleHtml(4_000));
  await ext.configure();
  service.configure({ accounts: [{ key: TEST_KEY, name: 'Test account', balanceRub: '100.0000', pricePerMillionRub: '15000.0000', maxConcurrency: 2 }] });
  const { tabId } = await ext.openTab('priced.html');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'confirm');
  const chars = Number(await popup.getByTestId('estimate').getAttribute('data-chars'));
  const value = await popup.getByTestId('estimate').getAttribute('data-value');
  expect(Number(value)).toBeCloseTo((chars * 15000) / 1_000_000, 3);
  await expect(popup.getByTestId('stale-price')).toHaveCount(0);
  expect(service.speechLog()).toHaveLength(0);
});

test('when the service cannot be asked for its price, the estimate says it uses the last known one', async ({ ext, service, pages }) => {
  pages.put('/priced.html', makeArticleHtml(1_500));
  await ext.configure();
  // The account endpoint fails from now on; speech still works.
  service.addFault({ kind: 'status', status: 503, code: 'synthesis_failed', match: { path: '/v1/account' }, times: Infinity });
  const { tabId } = await ext.openTab('priced.html');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', /playing|finished/);
  await expect(popup.getByTestId('stale-price')).toBeVisible();
});
