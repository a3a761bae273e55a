/** The listening queue in Firefox: two pages added from the menu, counted, then played one after the other. */
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { click, evaluate } from './firefox.ts';
import { attr, contextMenu, type Ext, type Hooks, expect, state, test } from './fixtures.ts';

test.use({ serviceOptions: { msPerChar: 1, minMs: 50 } });

test('two pages added from the menu are counted, then played one after the other', async ({ ext, service, pages }) => {
  test.setTimeout(90_000);
  await ext.configure();
  pages.put('/one.html', makeArticleHtml(800, 'Первая в очереди'));
  pages.put('/two.html', makeArticleHtml(800, 'Вторая в очереди'));
  const helper = await ext.extensionPage();
  const add = async (tabId: number, info: Record<string, unknown>) =>
    evaluate(
      helper,
      async (tabId: number, info: Record<string, unknown>) => {
        const { browser } = globalThis as unknown as Ext;
        const bg = (await browser.runtime.getBackgroundPage()) as unknown as Hooks;
        const tab = await browser.tabs.get(tabId);
        bg.contextMenuClick({ editable: false, pageUrl: tab.url, ...info }, tab);
      },
      tabId,
      info,
    );
  const one = await ext.openTab('one.html');
  // The second as a link on the first page.
  await add(one.tabId, { menuItemId: 'queue-add-page' });
  await add(one.tabId, { menuItemId: 'queue-add-link', linkUrl: `${pages.url}/two.html` });
  // The popup opened on another page (it starts reading that one; stopped): page one's audio is not cached by it.
  pages.put('/other.html', makeArticleHtml(300, 'Другая страница'));
  const other = await ext.openTab('other.html');
  const popup = await ext.openPopup(other.tabId);
  // Stop is enabled only once that reading is under way (a click on it before would do nothing); the
  // short page may also be read to its end first. Either way it is over before the queue plays.
  await expect.poll(() => state(popup), { timeout: 30_000 }).toMatch(/^(playing|finished)$/);
  if ((await state(popup)) === 'playing') await click(popup, '[data-testid="stop"]');
  await expect.poll(() => state(popup)).toMatch(/^(stopped|finished)$/);
  await expect.poll(() => attr(popup, 'queue', 'data-count')).toBe('2');
  await expect
    .poll(() => evaluate(popup, () => Array.from(document.querySelectorAll('[data-testid="queue-item"]')).map((e) => Number(e.getAttribute('data-chars')))), { timeout: 30_000 })
    .toEqual([expect.any(Number), expect.any(Number)]);
  const chars = await evaluate(popup, () => Array.from(document.querySelectorAll('[data-testid="queue-item"]')).map((e) => Number(e.getAttribute('data-chars'))));
  expect(chars.every((c) => c > 100)).toBe(true);
  expect(Number(await attr(popup, 'queue-total', 'data-chars'))).toBe(chars[0]! + chars[1]!);

  service.resetLog();
  await click(popup, '[data-testid="queue-play"]');
  await expect.poll(() => attr(popup, 'queue', 'data-count'), { timeout: 60_000 }).toBe('0');
  await expect.poll(() => state(popup), { timeout: 60_000 }).toBe('finished');
  const sent = service.speechLog().map((e) => e.text);
  const titleOne = sent.findIndex((t) => t.includes('Первая в очереди'));
  const titleTwo = sent.findIndex((t) => t.includes('Вторая в очереди'));
  expect(titleOne).toBe(0);
  expect(titleTwo).toBeGreaterThan(1);
  expect(new Set(sent).size).toBe(sent.length);
});

test("the queue's next page cannot be reached for a while: the reading waits for the network, then reads it (issue 58)", async ({ ext, service, pages }) => {
  await ext.configure();
  pages.put('/away.html', makeArticleHtml(600, 'Страница за туннелем'));
  pages.put('/here.html', makeArticleHtml(200, 'Здесь'));
  const away = await ext.openTab('away.html');
  await contextMenu(ext, away.tabId, { menuItemId: 'queue-add-page' });
  const here = await ext.openTab('here.html');
  const popup = await ext.openPopup(here.tabId);
  await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('finished');
  await expect.poll(() => attr(popup, 'queue', 'data-count')).toBe('1');
  service.resetLog();
  pages.unreachable('/away.html', 6);

  await click(popup, '[data-testid="queue-play"]');
  await expect.poll(() => attr(popup, 'player', 'data-wait')).toBe('network');
  expect(await state(popup)).toBe('extracting');
  await expect.poll(() => state(popup), { timeout: 40_000 }).toBe('finished');
  expect(await attr(popup, 'player', 'data-wait')).toBe('');
  expect(pages.cut('/away.html')).toBeGreaterThan(0);
  expect(service.speechLog().map((e) => e.text)[0]).toContain('Страница за туннелем');
  await expect.poll(() => attr(popup, 'queue', 'data-count')).toBe('0');
});
