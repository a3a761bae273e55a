/**
 * The listening queue: pages added from the context menu (a link, the page itself) show in the popup
 * with their estimates and total; they can be reordered and removed; the queue plays them one after
 * another, fetching each page's article when its turn comes; it is kept when the background restarts.
 */
import type { Page } from 'playwright-core';
import { makeArticleHtml, makeSentences } from '../fixtures/make-article.ts';
import { expect, player, test } from './fixtures.ts';

test.use({ serviceOptions: { msPerChar: 1, minMs: 50 } });

/** Runs the background's context-menu handler (test build) as a click on `menuItemId` would. */
async function menu(sw: import('playwright-core').Worker, tabId: number, info: Record<string, unknown>) {
  await sw.evaluate(
    async ({ tabId, info }) => {
      const tab = await chrome.tabs.get(tabId);
      (globalThis as unknown as { contextMenuClick(i: object, t: object): void }).contextMenuClick({ editable: false, pageUrl: tab.url, ...info }, tab);
    },
    { tabId, info },
  );
}

const items = (popup: Page) => popup.getByTestId('queue-item');
const urls = async (popup: Page) => items(popup).evaluateAll((els) => els.map((e) => new URL(e.getAttribute('data-url')!).pathname));

test('pages added from the menu are listed with their estimate, reordered, removed, and played one after another', async ({ ext, sw, service, pages }) => {
  test.setTimeout(120_000);
  await ext.configure();
  const one = makeSentences(900);
  pages.put('/one.html', makeArticleHtml(900, 'Первая в очереди'));
  pages.put('/two.html', makeArticleHtml(1_300, 'Вторая в очереди').replace(/<p>[^]*?<\/p>/, ''));
  pages.put('/three.html', makeArticleHtml(600, 'Третья в очереди'));
  pages.put('/links.html', '<!doctype html><html><head><meta charset="utf-8"><title>Ссылки</title></head><body><a href="/one.html">Первая</a> <a href="/three.html">Третья</a></body></html>');
  const links = await ext.openTab('links.html');
  // A link, and a page itself.
  await menu(sw, links.tabId, { menuItemId: 'queue-add-link', linkUrl: `${pages.url}/one.html`, linkText: 'Первая' });
  const second = await ext.openTab('two.html');
  await menu(sw, second.tabId, { menuItemId: 'queue-add-page' });
  await menu(sw, links.tabId, { menuItemId: 'queue-add-link', linkUrl: `${pages.url}/three.html` });
  // Added twice: kept once.
  await menu(sw, links.tabId, { menuItemId: 'queue-add-link', linkUrl: `${pages.url}/one.html` });

  const popup = await ext.openPopup(links.tabId);
  // Opening the popup on the links page reads it (two short sentences): it is let end, to look at the
  // queue alone (a click on Stop could come after that end, when Stop is disabled, and wait forever).
  await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 30_000 });
  await expect(popup.getByTestId('queue')).toHaveAttribute('data-count', '3');
  await expect.poll(() => urls(popup)).toEqual(['/one.html', '/two.html', '/three.html']);
  // Each counted for its estimate (the text itself is fetched again when its turn comes); the total adds them.
  await expect(popup.locator('[data-testid="queue-item"][data-chars=""]')).toHaveCount(0, { timeout: 30_000 });
  const chars = await items(popup).evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-chars'))));
  expect(chars.every((c) => c > 100)).toBe(true);
  await expect(popup.getByTestId('queue-total')).toHaveAttribute('data-chars', String(chars.reduce((a, b) => a + b, 0)));
  expect(await popup.getByTestId('queue-total').getAttribute('data-value')).toMatch(/^\d+\.\d{4}$/);
  // The titles are the articles' own.
  await expect(items(popup).first()).toContainText('Первая в очереди');

  // Reordered and removed.
  await items(popup).nth(2).getByTestId('queue-up').click();
  await expect.poll(() => urls(popup)).toEqual(['/one.html', '/three.html', '/two.html']);
  await items(popup).nth(1).getByTestId('queue-remove').click();
  await expect.poll(() => urls(popup)).toEqual(['/one.html', '/two.html']);

  // Kept when the background restarts.
  const shortReading = (await ext.readingView()).id;
  await ext.stopServiceWorker();
  await popup.reload();
  await expect.poll(() => urls(popup)).toEqual(['/one.html', '/two.html']);
  // The reloaded popup reads its tab (the links page) again: let that new short reading end before counting
  // (the popup may show the last one's end first: in one CI run its request came after the log was cleared).
  await expect.poll(async () => { const v = await ext.readingView(); return v.id !== shortReading && v.state; }, { timeout: 30_000 }).toBe('finished');

  // Played: the first page, then the second, each fetched when its turn comes; nothing of the third.
  service.resetLog();
  await popup.getByTestId('queue-play').click();
  await expect(items(popup).first()).toHaveAttribute('data-playing', 'true');
  await expect(popup.getByTestId('queue')).toHaveAttribute('data-count', '0', { timeout: 60_000 });
  await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 60_000 });
  const sent = service.speechLog().map((e) => e.text);
  // In order: the first page's title and text, then the second page's.
  const titleOne = sent.findIndex((t) => t.includes('Первая в очереди'));
  const titleTwo = sent.findIndex((t) => t.includes('Вторая в очереди'));
  expect(titleOne).toBe(0);
  expect(titleTwo).toBeGreaterThan(1);
  expect(sent.slice(1, titleTwo).join(' ')).toContain(one[0]![0]!);
  expect(sent.join(' ')).not.toContain('Третья в очереди');
  // Each part once: nothing billed twice.
  expect(new Set(sent).size).toBe(sent.length);
});

test('the sleep timer "at the end of this article" stops the queue after the entry playing', async ({ ext, sw, service, pages }) => {
  test.setTimeout(90_000);
  await ext.configure();
  pages.put('/a.html', makeArticleHtml(700, 'Статья А'));
  pages.put('/b.html', makeArticleHtml(700, 'Статья Б'));
  const a = await ext.openTab('a.html');
  await menu(sw, a.tabId, { menuItemId: 'queue-add-page' });
  const b = await ext.openTab('b.html');
  await menu(sw, b.tabId, { menuItemId: 'queue-add-page' });
  const popup = await ext.openPopup(b.tabId);
  await popup.getByTestId('stop').click();
  await expect(popup.getByTestId('queue')).toHaveAttribute('data-count', '2');
  service.resetLog();
  await popup.getByTestId('queue-play').click();
  await expect(player(popup)).toHaveAttribute('data-state', /loading|playing/);
  await popup.getByTestId('sleep-timer').selectOption('end');
  await expect(popup.getByTestId('sleep-left')).toHaveAttribute('data-end', 'true');
  await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 60_000 });
  // The first entry went; the second waits; nothing of it was asked for; the timer is used up.
  await expect(popup.getByTestId('queue')).toHaveAttribute('data-count', '1');
  await expect(popup.getByTestId('sleep-left')).toHaveAttribute('data-end', 'false');
  expect(service.speechLog().map((e) => e.text).join(' ')).not.toContain('Статья Б');
  expect(service.speechLog().map((e) => e.text).join(' ')).toContain('Статья А');
});

test("the queue's next page cannot be reached for a while: the reading waits for the network, then reads it (issue 58)", async ({ ext, sw, service, pages }) => {
  await ext.configure();
  pages.put('/away.html', makeArticleHtml(600, 'Страница за туннелем'));
  pages.put('/here.html', makeArticleHtml(200, 'Здесь'));
  const away = await ext.openTab('away.html');
  await menu(sw, away.tabId, { menuItemId: 'queue-add-page' });
  const here = await ext.openTab('here.html');
  const popup = await ext.openPopup(here.tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 30_000 });
  await expect(popup.getByTestId('queue')).toHaveAttribute('data-count', '1');
  service.resetLog();
  pages.unreachable('/away.html', 6);

  await popup.getByTestId('queue-play').click();
  await expect(player(popup)).toHaveAttribute('data-wait', 'network');
  await expect(player(popup)).toHaveAttribute('data-state', 'extracting');
  // Back by itself: the page is read.
  await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 40_000 });
  await expect(player(popup)).toHaveAttribute('data-wait', '');
  expect(pages.cut('/away.html')).toBeGreaterThan(0);
  expect(service.speechLog().map((e) => e.text)[0]).toContain('Страница за туннелем');
  await expect(popup.getByTestId('queue')).toHaveAttribute('data-count', '0');
});
