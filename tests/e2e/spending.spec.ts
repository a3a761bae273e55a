/**
 * Every ruble through one gate, as a listener meets it in Chromium: caps that hold after the usage history
 * is cleared, Save as MP3 that buys only what its confirmation showed, and a page's script that cannot
 * answer "read it?" for the listener.
 */
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { pdfBytes, TEST_PDFS } from '../fixtures/pdfs.ts';
import { growArticle } from '../fixtures/grow-article.ts';
import { expect, player, test } from './fixtures.ts';

test('a spending cap still holds after the usage history is cleared: the next reading that would pass it asks first', async ({ ext, service, pages }) => {
  // About 0.52 ₽ and 0.49 ₽ at 1,500 ₽ a million: together past the 0.80 ₽ daily cap.
  pages.put('/first.html', makeArticleHtml(340, 'Первая'));
  pages.put('/second.html', makeArticleHtml(320, 'Вторая'));
  await ext.configure({ threshold: '100', dailyCap: '0.80' });
  const first = await ext.openTab('first.html');
  const popup = await ext.openPopup(first.tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 30_000 });
  expect(Number(await popup.getByTestId('cost').getAttribute('data-value'))).toBeGreaterThan(0.4);
  await popup.close();

  const options = await ext.openOptions();
  await expect(options.getByTestId('history')).not.toHaveAttribute('data-count', '0');
  await options.getByTestId('clear-history').click();
  await expect(options.getByTestId('history')).toHaveAttribute('data-count', '0');
  await expect(options.getByTestId('history-keeps-totals')).toBeVisible();

  const billed = service.speechLog().length;
  const second = await ext.openTab('second.html');
  const again = await ext.openPopup(second.tabId);
  await expect(player(again)).toHaveAttribute('data-state', 'confirm');
  await expect(again.getByTestId('confirm-reason')).toHaveAttribute('data-reason', 'budget');
  expect(service.speechLog()).toHaveLength(billed);
});

test("the page's own script cannot answer \"read it?\": a confirm sent through the mini-player's channel is refused", async ({ ext, service, pages, sw }) => {
  pages.put('/long.html', makeArticleHtml(4_000));
  await ext.configure({ threshold: '1' });
  const { tabId } = await ext.openTab('long.html');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'confirm');
  // As a compromised page process would: the extension's content-script world, sending on the mini-player's channel.
  const answers = await sw.evaluate(async (tabId) => {
    const [result] = await chrome.scripting.executeScript({
      target: { tabId },
      world: 'ISOLATED',
      func: async () => {
        const send = (type: string, data: unknown) =>
          new Promise((answer) => chrome.runtime.sendMessage({ id: 1, type, data, timestamp: Date.now() }, (reply) => answer(JSON.stringify(reply ?? chrome.runtime.lastError?.message ?? null))));
        return [await send('floatingCommand', { command: 'confirm' }), await send('fetchForSave', { readingId: '', upTo: 99, maxRub: '1000' }), await send('removeKey', undefined)];
      },
    });
    return result?.result as string[];
  }, tabId);
  for (const answer of answers) expect(answer).toContain('refused');
  await expect(player(popup)).toHaveAttribute('data-state', 'confirm');
  expect(service.speechLog()).toHaveLength(0);
  await expect(popup.getByTestId('confirm-reason')).toHaveAttribute('data-reason', 'threshold');
});

test('a Save as MP3 confirmation left open after another reading began buys nothing', async ({ ext, service, pages }) => {
  // 15 ₽ at 1,500 ₽ a million: 10,000 characters. The first reading (about 9,000) starts at once and has parts
  // left to buy when it is stopped, however far it got (its title is one short part); the second asks first.
  await ext.configure({ threshold: '15' });
  pages.put('/one.html', makeArticleHtml(9_000, 'Первая'));
  pages.put('/two.html', makeArticleHtml(12_000, 'Вторая'));
  const one = await ext.openTab('one.html');
  const popup = await ext.openPopup(one.tabId);
  await expect.poll(() => service.speechLog().length).toBeGreaterThan(0);
  await popup.getByTestId('stop').click();
  await expect(player(popup)).toHaveAttribute('data-state', 'stopped');
  await popup.getByTestId('save-mp3').click();
  await expect(popup.getByTestId('save-box')).not.toHaveAttribute('data-missing', '');
  const billed = service.speechLog().length;

  // Another reading starts (it asks first: about 9 ₽ over the 5 ₽ threshold) while the confirmation stays open.
  const two = await ext.openTab('two.html');
  const other = await ext.openPopup(two.tabId);
  await expect(player(other)).toHaveAttribute('data-state', 'confirm');
  await popup.getByTestId('confirm-save').click();
  await expect(popup.getByTestId('save-error')).toHaveAttribute('data-code', 'save-changed');
  expect(service.speechLog()).toHaveLength(billed);
  await expect(player(other)).toHaveAttribute('data-state', 'confirm');
});

test('Save as MP3 on a PDF still being counted is refused: its cost is not known, and nothing is bought for it', async ({ ext, service, pages }) => {
  await ext.configure({ threshold: '1' });
  pages.putFile(`/${TEST_PDFS.book.name}`, await pdfBytes('book'), 'application/pdf');
  // The book stays counted for as long as the test needs (test builds' diagnostics hold the background's next request for pages).
  await ext.diagnostics('holdAt', 'text:more');
  const { tabId } = await ext.openTab(`${pages.url}/${TEST_PDFS.book.name}`);
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'confirm', { timeout: 60_000 });
  await popup.getByTestId('confirm-read').click();
  await expect(player(popup)).toHaveAttribute('data-state', /loading|playing/);
  await expect(popup.getByTestId('estimate')).toHaveAttribute('data-counting', 'true');
  await popup.getByTestId('save-mp3').click();
  await expect(popup.getByTestId('save-error')).toHaveAttribute('data-code', 'still-counting');
  await expect(popup.getByTestId('confirm-save')).toHaveCount(0);
  // Nothing was bought twice, and the reading still counts (no confirmation was taken from the refused save).
  const texts = service.speechLog().map((e) => e.text);
  expect(new Set(texts).size).toBe(texts.length);
  await expect(popup.getByTestId('estimate')).toHaveAttribute('data-counting', 'true');
  await ext.diagnostics('release', 'text:more');
  await popup.getByTestId('stop').click();
});

test('a page that grows after its size was checked (an article read title first) asks before the rest is bought, with the whole estimate', async ({ ext, service, pages, sw }) => {
  // 1 ₽ at 1,500 ₽ a million: 666 characters. The page is about 300 when its facts are read, so its title
  // is read at once; the script put in afterwards finds about 3,000.
  await ext.configure({ threshold: '1' });
  pages.put('/grows.html', makeArticleHtml(300, 'Статья, которая растёт'));
  const { page, tabId } = await ext.openTab('grows.html');
  await page.bringToFront();
  // The background waits (test builds' diagnostics) between reading the page's facts and putting its script in.
  await ext.diagnostics('holdAt', 'extract:script');
  await sw.evaluate(async (tabId) => {
    const handler = (globalThis as { commandHandler?: (name: string, tab: object) => Promise<void> }).commandHandler!;
    // Not waited for: the start waits on the hold.
    void handler('read', await chrome.tabs.get(tabId));
  }, tabId);
  await expect.poll(() => ext.diagnostics('reached', 'extract:script')).toBeGreaterThan(0);
  await page.evaluate(growArticle);
  await ext.diagnostics('release', 'extract:script');

  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'confirm', { timeout: 30_000 });
  await expect(popup.getByTestId('confirm-reason')).toHaveAttribute('data-reason', 'threshold');
  const estimate = Number(await popup.getByTestId('estimate').getAttribute('data-chars'));
  expect(estimate).toBeGreaterThan(2_500);
  // Nothing past what stays under the threshold was bought before it asked.
  const paidChars = () => service.speechLog().filter((e) => e.status === 200).reduce((n, e) => n + e.billedChars, 0);
  expect(paidChars()).toBeLessThanOrEqual(666);
  await popup.getByTestId('confirm-read').click();
  await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 60_000 });
  // The whole article, each part bought once.
  expect(paidChars()).toBe(estimate);
});
