/**
 * The key goes only where the user sent it (Firefox): content scripts can write storage.local here, so the
 * settings that decide where the key goes and what a reading may spend are kept with the key, in the
 * extension's IndexedDB; the key's binding to its origin, checked before every request, is a second lock.
 */
import { startFakeService, type FakeService } from '../fake-service/server.ts';
import { attr, expect, fill, state, test, TEST_KEY, type Ext } from './fixtures.ts';
import { click, evaluate } from './firefox.ts';

let other: FakeService;
test.beforeEach(async () => {
  other = await startFakeService({});
});
test.afterEach(() => other.close());

test('a content script that rewrites the settings in storage.local changes nothing: the address, the threshold and the key stay', async ({ ext, service }) => {
  // Asks first above 0.0001 ₽: every article does.
  await ext.configure({ threshold: '0.0001' });
  const { tabId } = await ext.openTab('sample-article.html');
  // Run in the extension's content-script world, where the extract script runs: Firefox lets it write storage.local.
  const written = await evaluate(
    await ext.extensionPage(),
    async (tabId: number, url: string) => {
      const { browser } = globalThis as unknown as Ext;
      const tampered = JSON.stringify({ baseUrl: url, voice: '', format: 'mp3', confirmThresholdRub: '1000000' });
      const code = `browser.storage.local.set({ settings: ${tampered}, 'spending-totals': null }).then(() => 'written', (e) => 'refused: ' + e)`;
      const [result] = (await browser.tabs.executeScript(tabId, { code })) as unknown as string[];
      return result;
    },
    tabId,
    other.url,
  );
  expect(written).toBe('written'); // Firefox has no access level for storage.local
  // The settings are kept with the key (the extension's IndexedDB): the reading asks first, as the user set it.
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup)).toBe('confirm');
  await click(popup, '[data-testid="confirm-read"]');
  await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('finished');
  expect(other.log).toHaveLength(0);
  expect(service.speechLog().length).toBeGreaterThan(0);
});

test('a changed service address gets the saved key only once the user confirms that host', async ({ ext }) => {
  await ext.configure();
  const page = await ext.openOptions();
  // The saved key's account appears above the form once the page has its settings.
  await page.waitForSelector('[data-testid="account"]');
  await fill(page, 'base-url', other.url);
  await click(page, '[data-testid="save"]');
  await expect.poll(() => attr(page, 'options-error', 'data-code')).toBe('key-origin');
  expect(await attr(page, 'confirm-origin', 'data-host')).toBe(new URL(other.url).host);
  expect(other.log).toHaveLength(0);
  await click(page, '[data-testid="confirm-origin"]');
  // The account panel still shows the old service's account: wait for the new one's check.
  await expect.poll(() => other.log.map((e) => [e.path, e.key])).toEqual([['/v1/account', TEST_KEY]]);
  await expect.poll(() => attr(page, 'options-error', 'data-code')).toBe('');
  await expect.poll(() => attr(page, 'confirm-origin', 'data-host')).toBe('');
});
