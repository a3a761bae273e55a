/**
 * The key goes only where the user sent it, and stored data stays bounded (the faults a hostile review found).
 */
import type { Worker } from '@playwright/test';
import { startFakeService, type FakeService } from '../fake-service/server.ts';
import { makeSentences } from '../fixtures/make-article.ts';
import { expect, player, test, TEST_KEY } from './fixtures.ts';

let other: FakeService;
test.beforeEach(async () => {
  // A second service on another loopback port: another origin, which the manifest lets the extension reach.
  other = await startFakeService({});
});
test.afterEach(() => other.close());

/**
 * The stored settings with the service address replaced behind the options page: written where they are kept,
 * with the key (the extension's IndexedDB, which only its own pages reach), then read by a new worker.
 */
const tampered = async (ext: { stopServiceWorker(): Promise<void> }, sw: Worker, baseUrl: string) => {
  await sw.evaluate(async (baseUrl) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('trysasha-protected');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const tx = db.transaction('values', 'readwrite');
    const values = tx.objectStore('values');
    const settings = await new Promise<object>((resolve) => {
      const read = values.get('settings');
      read.onsuccess = () => resolve(read.result as object);
    });
    values.put({ ...settings, baseUrl }, 'settings');
    await new Promise((done) => (tx.oncomplete = done));
    db.close();
  }, baseUrl);
  await ext.stopServiceWorker();
};

test('a content script cannot rewrite the service address, and an address changed behind the options page never gets the key', async ({
  ext,
  sw,
  service,
}) => {
  await ext.configure();
  const { tabId } = await ext.openTab('sample-article.html');
  // The extension's own content-script world (where the extract script runs) is refused storage.local.
  const fromContentScript = await sw.evaluate(
    async ({ tabId, baseUrl }) => {
      const [result] = await chrome.scripting.executeScript({
        target: { tabId },
        world: 'ISOLATED',
        args: [baseUrl],
        func: async (url: string) => {
          try {
            await chrome.storage.local.set({ settings: { baseUrl: url, voice: '', format: 'mp3', confirmThresholdRub: '1000' } });
            return 'written';
          } catch (err) {
            return `refused: ${String(err)}`;
          }
        },
      });
      return result?.result;
    },
    { tabId, baseUrl: other.url },
  );
  expect(fromContentScript).toMatch(/^refused/);

  // Were the address changed all the same, the key stays home.
  await tampered(ext, sw, other.url);
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'error');
  await expect(popup.getByTestId('error')).toHaveAttribute('data-code', 'key-origin');
  expect(other.log).toHaveLength(0);
  expect(service.speechLog()).toHaveLength(0);
});

test('a changed service address gets the saved key only once the user confirms that host, or types the key again', async ({
  ext,
}) => {
  await ext.configure();
  const page = await ext.openOptions();
  const error = page.getByTestId('options-error');
  await page.getByTestId('base-url').fill(other.url);
  await page.getByTestId('save').click();
  await expect(error).toHaveAttribute('data-code', 'key-origin');
  const confirm = page.getByTestId('confirm-origin');
  await expect(confirm).toHaveAttribute('data-host', new URL(other.url).host);
  // Nothing was sent, and nothing was saved: reopened, the page shows the old address.
  expect(other.log).toHaveLength(0);
  await page.reload();
  await expect(page.getByTestId('base-url')).not.toHaveValue(other.url);

  await page.getByTestId('base-url').fill(other.url);
  await page.getByTestId('save').click();
  await page.getByTestId('confirm-origin').click();
  // The account panel still shows the old service's account: wait for the new one's check.
  await expect.poll(() => other.log.map((e) => [e.path, e.key])).toEqual([['/v1/account', TEST_KEY]]);
  await expect(page.getByTestId('confirm-origin')).toHaveCount(0);
  await expect(page.getByTestId('account')).toBeVisible();
  await expect(error).toHaveAttribute('data-code', '');
});

test('an address copied with /v1 is repaired, and requests go to /v1/speech, not /v1/v1/speech', async ({ ext, service }) => {
  await ext.configure({ baseUrl: `${service.url}/v1` });
  const options = await ext.openOptions();
  await expect(options.getByTestId('base-url')).toHaveValue(service.url);
  const { tabId } = await ext.openTab('sample-article.html');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', /playing|finished/);
  expect(service.log.every((e) => !e.path.startsWith('/v1/v1'))).toBe(true);
  expect(service.speechLog().length).toBeGreaterThan(0);
});

test.describe('bounded storage', () => {
  test.use({ serviceOptions: { msPerChar: 0.35, minMs: 200, firstByteMs: 30 } });

  test('a page with a title of a million characters: every billed request has its history row, the title cut', async ({ ext, context, pages, service }) => {
    const title = 'Заголовок '.repeat(110_000);
    const body = makeSentences(6_000)
      .map((p) => `<p>${p.join(' ')}</p>`)
      .join('\n');
    await context.route(`${pages.url}/huge-title.html`, (route) =>
      route.fulfill({ contentType: 'text/html; charset=utf-8', body: `<!doctype html><html lang="ru"><head><title>${title}</title></head><body><article>${body}</article></body></html>` }),
    );
    await ext.configure({ threshold: '1000' });
    const { tabId } = await ext.openTab('huge-title.html');
    const popup = await ext.openPopup(tabId);
    await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 30_000 }).catch(async (e) => {
      console.log(JSON.stringify(service.log.map((x) => [x.path, x.status, x.text.length, x.endedAt, x.aborted])), await player(popup).evaluate((e) => e.outerHTML.slice(0, 500)));
      throw e;
    });
    const billed = service.speechLog().filter((e) => e.status === 200);
    expect(billed.length).toBeGreaterThan(3);
    // The title read first is cut as well: no request carries a million characters.
    expect(Math.max(...billed.map((e) => e.text.length))).toBeLessThan(2_000);

    const options = await ext.openOptions();
    await expect(options.getByTestId('history')).toHaveAttribute('data-count', String(billed.length));
    const titles = await options.locator('[data-testid="history-row"] .page-title').allTextContents();
    expect(titles.every((t) => t.length <= 300 && t.endsWith('…'))).toBe(true);
    await expect(options.getByTestId('history-error')).toHaveCount(0);

    // Clearing goes through the background's one writer, and stays cleared.
    await options.getByTestId('clear-history').click();
    await expect(options.getByTestId('history')).toHaveAttribute('data-count', '0');
    await options.reload();
    await expect(options.getByTestId('history')).toHaveAttribute('data-count', '0');
  });

  test('a history write the browser refuses is shown, not lost silently', async ({ ext, sw }) => {
    await ext.configure();
    // storage.local filled to its 10 MB quota: the history's next write is refused.
    await sw.evaluate(async () => {
      const free = chrome.storage.local.QUOTA_BYTES - (await chrome.storage.local.getBytesInUse(null));
      await chrome.storage.local.set({ filler: 'x'.repeat(free - 40) });
    });
    const { tabId } = await ext.openTab('sample-article.html');
    const popup = await ext.openPopup(tabId);
    await expect(player(popup)).toHaveAttribute('data-state', /playing|finished/);
    const options = await ext.openOptions();
    await expect(options.getByTestId('history-error')).toBeVisible();
  });
});
