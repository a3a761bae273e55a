/** Coming back to a page offers to continue where the listener stopped; what was received plays from the cache, unpaid. */
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { expect, player, test } from './fixtures.ts';

test('coming back to a page offers "continue from", which plays from the cache with no new charge', async ({ ext, service, pages }) => {
  test.setTimeout(90_000);
  await ext.configure();
  pages.put('/long.html', makeArticleHtml(6_000));
  const { tabId } = await ext.openTab('long.html');
  let popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'playing', { timeout: 30_000 });
  // Listen into the second part, then stop.
  await popup.getByTestId('next').click();
  await expect(player(popup)).not.toHaveAttribute('data-part', '0');
  await expect.poll(async () => Number(await player(popup).getAttribute('data-position')), { timeout: 30_000 }).toBeGreaterThan(6);
  await popup.getByTestId('stop').click();
  await expect(player(popup)).toHaveAttribute('data-state', 'stopped');
  // The attributes keep their last values: the part it stopped in.
  const stopPart = (await player(popup).getAttribute('data-part'))!;
  await popup.close();
  const paid = new Set(service.speechLog().filter((e) => e.status === 200).map((e) => e.text));
  const costBefore = service.speechLog().length;

  popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'playing', { timeout: 30_000 });
  const offer = popup.getByTestId('resume-offer');
  await expect(offer).toBeVisible({ timeout: 30_000 });
  await expect(offer).toHaveAttribute('data-part', stopPart);
  expect(Number(await offer.getAttribute('data-position'))).toBeGreaterThan(6);
  await offer.click();
  await expect(player(popup)).toHaveAttribute('data-part', stopPart);
  await expect(player(popup)).toHaveAttribute('data-state', 'playing');
  await expect(offer).toBeHidden();
  // Nothing already received was paid for again: requests since are only for parts not received before.
  const since = service.speechLog().slice(costBefore);
  expect(since.filter((e) => paid.has(e.text))).toEqual([]);
  // This reading's cost is only what those new requests were billed.
  const billedSince = () => (service.speechLog().slice(costBefore).filter((e) => e.status === 200).reduce((n, e) => n + e.costUnits, 0) / 10_000).toFixed(4);
  await expect.poll(async () => (await popup.getByTestId('cost').getAttribute('data-value')) === billedSince()).toBe(true);
});
