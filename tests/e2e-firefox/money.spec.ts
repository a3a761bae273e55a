/** The service's price as it is now decides what a reading costs (Firefox). */
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { click } from './firefox.ts';
import { attr, expect, fill, saveOptions, state, test, TEST_KEY } from './fixtures.ts';

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

test('a reading that would pass the daily cap asks first, and sends nothing until the user agrees', async ({ ext, service, pages }) => {
  pages.put('/capped.html', makeArticleHtml(4_000)); // about 6 ₽
  await ext.configure({ threshold: '100' });
  const options = await ext.openOptions();
  await expect.poll(() => attr(options, 'account', 'data-balance')).not.toBe('');
  await fill(options, 'daily-cap', '1');
  await saveOptions(options);
  await expect.poll(() => attr(options, 'account', 'data-balance')).not.toBe('');
  await options.close();
  const { tabId } = await ext.openTab('capped.html');
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup)).toBe('confirm');
  expect(await attr(popup, 'confirm-reason', 'data-reason')).toBe('budget');
  expect(service.speechLog()).toHaveLength(0);
  await click(popup, '[data-testid="confirm-read"]');
  await expect.poll(() => service.speechLog().length).toBeGreaterThan(0);
});

test.describe('receipts handled out of the order they were billed in', () => {
  test.use({ serviceOptions: { msPerChar: 1, minMs: 50, firstByteMs: 30 } });

  test('the balance shown is the service’s after the last bill, not an earlier one whose answer came later', async ({ ext, service, pages }) => {
    // Two parts asked for together; the first is billed first, but its answer (and its receipt) comes after the second's.
    // The second's first byte came 0.3–1.1 s after it was asked on an idle machine (the local voice synthesizes its
    // 1,517 characters), over 1.5 s in CI: the first's is held back 4 s.
    pages.put('/two.html', makeArticleHtml(1_500));
    await ext.configure({ threshold: '1000' });
    service.addFault({ match: { nth: 1 }, kind: 'delay', firstByteMs: 4_000 });
    const { tabId } = await ext.openTab('two.html');
    const popup = await ext.openPopup(tabId);
    await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('finished');
    // The second part's answer was first: the receipts were handled in the other order.
    const [first, second] = service.speechLog();
    expect(second!.firstByteAt!).toBeLessThan(first!.firstByteAt!);
    expect(await attr(popup, 'balance', 'data-value')).toBe(service.account(TEST_KEY).balanceRub);
  });
});
