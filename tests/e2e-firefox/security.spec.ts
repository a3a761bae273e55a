/**
 * The key goes only where the user sent it (Firefox): content scripts can write storage.local here, so the
 * key's binding to its origin, checked before every request, is what keeps it home.
 */
import { startFakeService, type FakeService } from '../fake-service/server.ts';
import { attr, expect, fill, state, test, TEST_KEY, type Ext } from './fixtures.ts';
import { click, evaluate } from './firefox.ts';

let other: FakeService;
test.beforeEach(async () => {
  other = await startFakeService({});
});
test.afterEach(() => other.close());

test('a content script that rewrites the service address does not make the key go there', async ({ ext, service }) => {
  await ext.configure();
  const { tabId } = await ext.openTab('sample-article.html');
  // Run in the extension's content-script world, where the extract script runs.
  const written = await evaluate(
    await ext.extensionPage(),
    async (tabId: number, url: string) => {
      const { browser } = globalThis as unknown as Ext;
      const code = `browser.storage.local.get('settings').then(({ settings }) => browser.storage.local.set({ settings: { ...settings, baseUrl: ${JSON.stringify(url)} } })).then(() => 'written', (e) => 'refused: ' + e)`;
      const [result] = (await browser.tabs.executeScript(tabId, { code })) as unknown as string[];
      return result;
    },
    tabId,
    other.url,
  );
  expect(written).toBe('written'); // Firefox has no access level for storage.local
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup)).toBe('error');
  expect(await attr(popup, 'error', 'data-code')).toBe('key-origin');
  expect(other.log).toHaveLength(0);
  expect(service.speechLog()).toHaveLength(0);
});

test('a changed service address gets the saved key only once the user confirms that host', async ({ ext }) => {
  await ext.configure();
  const page = await ext.openOptions();
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
