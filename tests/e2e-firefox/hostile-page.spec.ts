/**
 * The page cannot work our controls, in Firefox (issue 45): whatever its script does to the
 * mini-player or click-to-read's ▶, the reading is not changed and the user's click lands on the page;
 * a navigation takes the controls away.
 */
import type { Page } from 'puppeteer-core';
import { type Attack, attack, clicksOn, hostileArticleHtml } from '../fixtures/hostile-page.ts';
import { makeSentences } from '../fixtures/make-article.ts';
import { evaluate } from './firefox.ts';
import { attr, type Ext, expect, type FirefoxHelpers, state, test } from './fixtures.ts';

// Parts of about twenty seconds: no part ends on its own while the test clicks.
test.use({ serviceOptions: { msPerChar: 16 } });

const middle = (page: Page) => evaluate(page, () => ({ x: innerWidth / 2, y: innerHeight / 2 }));
const playerPart = async (ext: FirefoxHelpers, tabId: number) => (await ext.control(tabId, 'trysasha-player', 'floating-player'))?.attrs['data-part'] ?? 'none';

for (const how of ['restyle', 'click', 'move', 'scale'] as Attack[]) {
  test(`a page that tries to ${how} the mini-player changes nothing; the user's click lands on the page`, async ({ ext, pages }) => {
    test.setTimeout(60_000);
    await ext.configure();
    pages.put('/hostile.html', hostileArticleHtml(6_000));
    const { page, tabId } = await ext.openTab('hostile.html');
    const popup = await ext.openPopup(tabId);
    await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('playing');
    await expect.poll(() => attr(popup, 'player', 'data-part')).toBe('1');
    await expect.poll(() => playerPart(ext, tabId)).toBe('1');
    await page.bringToFront();

    expect(await evaluate(page, attack, how)).toBe('1 hosts, 0 shadow roots reached');
    const at = await middle(page);
    for (let i = 0; i < 2; i++) await page.mouse.click(at.x, at.y);
    await expect.poll(() => evaluate(page, clicksOn)).toHaveLength(2);
    expect(await evaluate(page, clicksOn)).not.toContain('trysasha-player');
    expect(await state(popup)).toBe('playing');
    expect(await attr(popup, 'player', 'data-part')).toBe('1');
  });
}

test("a page that works click-to-read's ▶ starts nothing; the user's click lands on the page", async ({ ext, service, pages }) => {
  test.setTimeout(60_000);
  await ext.configure();
  const helper = await ext.extensionPage();
  await evaluate(helper, () => (globalThis as unknown as Ext).browser.storage.local.set({ 'page-options': { floatingPlayer: true, clickToRead: true } }));
  await expect.poll(() => evaluate(helper, async () => (await (globalThis as unknown as Ext).browser.scripting.getRegisteredContentScripts()).length)).toBe(1);
  pages.put('/hostile.html', hostileArticleHtml(4_000));
  const { page, tabId } = await ext.openTab('hostile.html');
  const play = () => ext.control(tabId, 'trysasha-click', 'click-to-read');
  const hover = async (n: number) => {
    await page.mouse.move(1, 1);
    await (await page.$(`article p:nth-of-type(${n})`))!.hover();
  };
  // Made-up pointer events do not show the ▶; the user's pointer does.
  await expect.poll(async () => (await hover(3), (await play())?.hidden)).toBe(false);
  await page.mouse.move(1, 1);
  await expect.poll(async () => (await play())?.hidden).toBe(true);
  await evaluate(page, attack, 'hover' as Attack);
  expect((await play())?.hidden).toBe(true);

  await expect.poll(async () => (await hover(3), (await play())?.hidden)).toBe(false);
  for (const how of ['click', 'restyle'] as Attack[]) expect(await evaluate(page, attack, how)).toBe('1 hosts, 0 shadow roots reached');
  expect(await play()).toBeNull();
  const at = await middle(page);
  await page.mouse.click(at.x, at.y);
  await expect.poll(() => evaluate(page, clicksOn)).toHaveLength(1);
  expect(await evaluate(page, clicksOn)).not.toContain('trysasha-click');
  expect(service.speechLog()).toEqual([]);
  expect((await ext.readingView()).state ?? 'idle').toBe('idle');
});

test('a navigation takes the mini-player away; it comes back only on the page being read', async ({ ext, pages }) => {
  test.setTimeout(90_000);
  await ext.configure();
  pages.put('/read.html', hostileArticleHtml(6_000, 'Читаемая статья'));
  pages.put('/next.html', hostileArticleHtml(2_000, 'Другой сайт'));
  const { page, tabId } = await ext.openTab('read.html');
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('playing');
  await expect.poll(() => playerPart(ext, tabId)).not.toBe('none');

  await page.goto(`${pages.url}/next.html`);
  const next = async () => {
    const before = await attr(popup, 'player', 'data-part');
    await evaluate(popup, () => (document.querySelector('[data-testid="next"]') as HTMLElement).click());
    await expect.poll(() => attr(popup, 'player', 'data-part')).not.toBe(before);
  };
  await next();
  await next();
  await expect.poll(() => state(popup)).toBe('playing');
  expect(await playerPart(ext, tabId)).toBe('none');
  expect(await evaluate(page, () => document.querySelectorAll('trysasha-player').length)).toBe(0);
  expect(await evaluate(page, () => CSS.highlights.get('trysasha-sentence')?.size ?? 0)).toBe(0);

  // Back (as the user's Back button: puppeteer's goBack waits for a load a page from the back-forward cache never fires).
  await evaluate(page, () => history.back());
  await expect.poll(() => evaluate(page, () => location.pathname).catch(() => '')).toBe('/read.html');
  await next();
  await expect.poll(async () => (await playerPart(ext, tabId)) === (await attr(popup, 'player', 'data-part'))).toBe(true);
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
  await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('playing');
  await expect.poll(() => playerPart(ext, tabId)).not.toBe('none');

  await page.goto(`${pages.url}/next.html`);
  const before = await attr(popup, 'player', 'data-part');
  await evaluate(popup, () => (document.querySelector('[data-testid="next"]') as HTMLElement).click());
  await expect.poll(() => attr(popup, 'player', 'data-part')).not.toBe(before);
  await expect.poll(() => state(popup)).toBe('playing');
  // The view change went by: it brought neither the player nor the reading's title and cost to the new site.
  expect(await playerPart(ext, tabId)).toBe('none');
  expect(await evaluate(page, () => document.querySelectorAll('trysasha-player').length)).toBe(0);
});
