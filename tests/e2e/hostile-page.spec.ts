/**
 * The page cannot work our controls (issue 45): whatever its script does to the mini-player or
 * click-to-read's ▶ — restyle it, move it, scale the page under it, click it — the reading is not
 * changed, and the user's own click lands on the page.
 */
import { type Attack, attack, clicksOn, hostileArticleHtml } from '../fixtures/hostile-page.ts';
import { makeSentences } from '../fixtures/make-article.ts';
import { expect, player, test } from './fixtures.ts';

// Parts of about twenty seconds: no part ends on its own while the test clicks.
test.use({ serviceOptions: { msPerChar: 16 } });

for (const how of ['restyle', 'click', 'move', 'scale'] as const satisfies Attack[]) {
  test(`a page that tries to ${how} the mini-player changes nothing; the user's click lands on the page`, async ({ ext, pages }) => {
    test.setTimeout(60_000);
    await ext.configure();
    pages.put('/hostile.html', hostileArticleHtml(6_000));
    const { page, tabId } = await ext.openTab('hostile.html');
    const popup = await ext.openPopup(tabId);
    await expect(player(popup)).toHaveAttribute('data-state', 'playing', { timeout: 30_000 });
    await expect(player(popup)).toHaveAttribute('data-part', '1');
    await expect.poll(async () => (await ext.control(tabId, 'trysasha-player', 'floating-player'))?.attrs['data-state']).toBe('playing');

    expect(await page.evaluate(attack, how as Attack)).toBe('1 hosts, 0 shadow roots reached');
    // The user clicks the middle of the article, twice.
    const { width, height } = page.viewportSize()!;
    for (let i = 0; i < 2; i++) await page.mouse.click(width / 2, height / 2);
    await expect.poll(() => page.evaluate(clicksOn)).toHaveLength(2);
    expect(await page.evaluate(clicksOn)).not.toContain('trysasha-player');
    // The reading is where it was.
    await expect(player(popup)).toHaveAttribute('data-state', 'playing');
    await expect(player(popup)).toHaveAttribute('data-part', '1');
  });
}

test("a page that works click-to-read's ▶ starts nothing; the user's click lands on the page", async ({ ext, sw, service, pages }) => {
  test.setTimeout(60_000);
  await ext.configure();
  const options = await ext.openOptions();
  await options.evaluate(() => chrome.storage.local.set({ 'page-options': { floatingPlayer: true, clickToRead: true } }));
  await expect.poll(() => sw.evaluate(async () => (await chrome.scripting.getRegisteredContentScripts()).length)).toBe(1);
  pages.put('/hostile.html', hostileArticleHtml(4_000));
  const { page, tabId } = await ext.openTab('hostile.html');
  const play = () => ext.control(tabId, 'trysasha-click', 'click-to-read');
  // The ▶ is made on the first hover; made-up pointer events do not show it.
  await expect.poll(async () => (await page.locator('article p').nth(2).hover(), await play()) !== null).toBe(true);
  await page.mouse.move(1, 1);
  await expect.poll(async () => (await play())?.hidden).toBe(true);
  await page.evaluate(attack, 'hover' as Attack);
  expect((await play())?.hidden).toBe(true);

  // The ▶ shown by the user's own pointer, then clicked and restyled by the page (a restyled ▶ is taken away).
  await page.locator('article p').nth(2).hover();
  await expect.poll(async () => (await play())?.hidden).toBe(false);
  for (const how of ['click', 'restyle'] as Attack[]) expect(await page.evaluate(attack, how)).toBe('1 hosts, 0 shadow roots reached');
  expect(await play()).toBeNull();
  const { width, height } = page.viewportSize()!;
  await page.mouse.click(width / 2, height / 2);
  await expect.poll(() => page.evaluate(clicksOn)).toHaveLength(1);
  expect(await page.evaluate(clicksOn)).not.toContain('trysasha-click');

  // Scaled under the user's pointer (the page loaded anew: a page that worked the ▶ gets none again): it
  // goes before the click reaches it.
  await page.reload();
  await expect.poll(async () => (await page.locator('article p').nth(3).hover(), (await play())?.hidden)).toBe(false);
  await expect.poll(async () => (await play())?.hidden).toBe(false);
  await page.evaluate(attack, 'scale' as Attack);
  await page.mouse.click(width / 2, height / 2);
  await expect.poll(() => page.evaluate(clicksOn)).toHaveLength(1);
  expect(await page.evaluate(clicksOn)).not.toContain('trysasha-click');
  expect(service.speechLog()).toEqual([]);
  expect((await ext.readingView()).state ?? 'idle').toBe('idle');
});

test('a navigation takes the mini-player and the highlight away; they come back only on the page being read', async ({ ext, pages }) => {
  test.setTimeout(90_000);
  await ext.configure();
  pages.put('/read.html', hostileArticleHtml(6_000, 'Читаемая статья'));
  pages.put('/next.html', hostileArticleHtml(2_000, 'Другой сайт'));
  const { page, tabId } = await ext.openTab('read.html');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'playing', { timeout: 30_000 });
  const shown = async () => (await ext.control(tabId, 'trysasha-player', 'floating-player'))?.attrs['data-part'] ?? 'none';
  const highlighted = () => page.evaluate(() => CSS.highlights.get('trysasha-sentence')?.size ?? 0);
  await expect.poll(shown).not.toBe('none');
  await expect.poll(highlighted).toBeGreaterThan(0);

  // The tab goes on to another page while the reading plays on.
  await page.goto(`${pages.url}/next.html`);
  const next = async () => {
    const part = await player(popup).getAttribute('data-part');
    await popup.getByTestId('next').click();
    await expect(player(popup)).not.toHaveAttribute('data-part', part!);
  };
  await next();
  await next();
  await expect(player(popup)).toHaveAttribute('data-state', 'playing');
  // Each view change went by: none of them brought the player or a highlight to the new page.
  expect(await shown()).toBe('none');
  expect(await page.locator('trysasha-player').count()).toBe(0);
  expect(await highlighted()).toBe(0);

  // Back on the page being read, they come back with the next change.
  await page.goBack();
  await next();
  await expect.poll(async () => (await shown()) === (await player(popup).getAttribute('data-part'))).toBe(true);
});

test("the menu's own text read (the page gave no selection) stays with the page it was on: a navigation takes the mini-player away", async ({ ext, pages }) => {
  test.setTimeout(90_000);
  await ext.configure();
  pages.put('/read.html', hostileArticleHtml(2_000, 'Читаемая статья'));
  pages.put('/next.html', hostileArticleHtml(2_000, 'Другой сайт'));
  const { page, tabId } = await ext.openTab('read.html');
  // The menu's text, not the page's (a selection in a frame, a page that cannot be scripted): it has no address of its own.
  await ext.menuClick(tabId, makeSentences(3_000).flat().join(' '));
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'playing', { timeout: 30_000 });
  const shown = async () => (await ext.control(tabId, 'trysasha-player', 'floating-player'))?.attrs['data-part'] ?? 'none';
  await expect.poll(shown).not.toBe('none');

  await page.goto(`${pages.url}/next.html`);
  const part = await player(popup).getAttribute('data-part');
  await popup.getByTestId('next').click();
  await expect(player(popup)).not.toHaveAttribute('data-part', part!);
  await expect(player(popup)).toHaveAttribute('data-state', 'playing');
  // The view change went by: it brought neither the player nor the reading's title and cost to the new site.
  expect(await shown()).toBe('none');
  expect(await page.locator('trysasha-player').count()).toBe(0);
});
