/** The floating mini-player in Firefox: its controls drive the reading; it moves, remembers its place and goes on stop; the options turn it off. */
import type { Page } from 'puppeteer-core';
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { click, evaluate } from './firefox.ts';
import { attr, expect, type FirefoxHelpers, state, test } from './fixtures.ts';

// Parts of about twenty seconds: no part ends on its own while the test presses next.
test.use({ serviceOptions: { msPerChar: 16 } });

type Tab = { ext: FirefoxHelpers; page: Page; tabId: number };
/** An attribute of the mini-player's element `testId` ('' while there is none): it lives in a closed shadow root. */
const fpAttr = async ({ ext, tabId }: Tab, testId: string, name: string) => (await ext.control(tabId, 'trysasha-player', testId))?.attrs[name] ?? '';
const fpState = (tab: Tab) => fpAttr(tab, 'floating-player', 'data-state');
/** The user's click on the control, with the real mouse, where it is drawn. */
async function press(tab: Tab, testId: string) {
  const c = await tab.ext.control(tab.tabId, 'trysasha-player', testId);
  if (!c) throw new Error(`No ${testId} on the page`);
  await tab.page.mouse.click(c.box.x + c.box.width / 2, c.box.y + c.box.height / 2);
}

test('the mini-player drives the reading, moves with the keyboard, shows the cost and goes on stop', async ({ ext, pages }) => {
  test.setTimeout(90_000);
  await ext.configure();
  pages.put('/long.html', makeArticleHtml(6_000));
  const { page, tabId } = await ext.openTab('long.html');
  const tab = { ext, page, tabId };
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('playing');
  await expect.poll(() => attr(popup, 'player', 'data-part')).toBe('1');
  await expect.poll(() => fpState(tab)).toBe('playing');

  await press(tab, 'floating-play-pause');
  await expect.poll(() => state(popup)).toBe('paused');
  await expect.poll(() => fpState(tab)).toBe('paused');
  await press(tab, 'floating-play-pause');
  await expect.poll(() => state(popup)).toBe('playing');
  await press(tab, 'floating-next');
  await expect.poll(() => attr(popup, 'player', 'data-part')).toBe('2');
  await expect.poll(() => fpAttr(tab, 'floating-player', 'data-part')).toBe('2');

  await expect.poll(async () => (await fpAttr(tab, 'floating-cost', 'data-value')) === (await attr(popup, 'cost', 'data-value'))).toBe(true);
  expect(Number(await fpAttr(tab, 'floating-cost', 'data-value'))).toBeGreaterThan(0);

  // The arrow keys on its handle move it (16 px a press), and the place is kept.
  const right = Number(await fpAttr(tab, 'floating-player', 'data-right'));
  await ext.control(tabId, 'trysasha-player', 'floating-grip', { focus: true });
  await page.keyboard.press('ArrowLeft');
  await expect.poll(async () => Number(await fpAttr(tab, 'floating-player', 'data-right'))).toBe(right + 16);

  await press(tab, 'floating-stop');
  await expect.poll(() => state(popup)).toBe('stopped');
  await expect.poll(() => evaluate(page, () => document.querySelectorAll('trysasha-player').length)).toBe(0);

  // The next reading: the player is back where it was put.
  await popup.close();
  const again = await ext.openPopup(tabId);
  await expect.poll(() => state(again), { timeout: 30_000 }).toBe('playing');
  await expect.poll(async () => Number(await fpAttr(tab, 'floating-player', 'data-right'))).toBe(right + 16);
});

test('switched off in the options, no mini-player shows', async ({ ext, pages }) => {
  test.setTimeout(60_000);
  await ext.configure();
  const options = await ext.openOptions();
  await click(options, '[data-testid="floating-player-option"]');
  await expect.poll(() => evaluate(options, () => (document.querySelector('[data-testid="floating-player-option"]') as HTMLInputElement).checked)).toBe(false);
  pages.put('/long.html', makeArticleHtml(3_000));
  const { page, tabId } = await ext.openTab('long.html');
  const tab = { ext, page, tabId };
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('playing');
  // The same page with the option on again: the reading in progress gets it.
  expect(await evaluate(page, () => document.querySelectorAll('trysasha-player').length)).toBe(0);
  await click(options, '[data-testid="floating-player-option"]');
  await expect.poll(() => fpState(tab)).toBe('playing');
});
