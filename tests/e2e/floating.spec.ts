/**
 * The floating mini-player on the page being read: its controls drive the reading, it shows this
 * reading's cost, it can be dragged, moved with the keyboard and closed, it remembers where it was
 * put, it goes away on stop, the page's styles do not reach it, and the options page turns it off.
 * It lives in a closed shadow root: the tests see it from the extension's own world (`ext.control`)
 * and press it with the real mouse and keyboard, as a user does.
 */
import type { Page } from 'playwright-core';
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { expect, type ExtensionHelpers, player, test } from './fixtures.ts';

// Parts of about twenty seconds: no part ends on its own while a test presses next and previous.
test.use({ serviceOptions: { msPerChar: 16 } });

type Tab = { ext: ExtensionHelpers; page: Page; tabId: number };
const seen = ({ ext, tabId }: Tab, testId = 'floating-player') => ext.control(tabId, 'trysasha-player', testId);
/** An attribute of the player's element `testId` ('' while there is no player). */
const fpAttr = async (tab: Tab, name: string, testId = 'floating-player') => (await seen(tab, testId))?.attrs[name] ?? '';
const fpCount = async (tab: Tab) => ((await seen(tab)) ? 1 : 0);
/** The user's click in the middle of the control `testId`, with the real mouse. */
async function press(tab: Tab, testId: string) {
  const c = await seen(tab, testId);
  if (!c) throw new Error(`No ${testId} on the page`);
  await tab.page.mouse.click(c.box.x + c.box.width / 2, c.box.y + c.box.height / 2);
}

/** Where the player's right and bottom edges are on screen (it keeps to them as its width changes). */
async function edges(tab: Tab) {
  const b = (await seen(tab))!.box;
  return { right: Math.round(b.x + b.width), bottom: Math.round(b.y + b.height) };
}

test('the mini-player drives the reading: pause, resume, next, previous, speed and stop; it shows the cost', async ({ ext, pages }) => {
  test.setTimeout(90_000);
  await ext.configure();
  pages.put('/long.html', makeArticleHtml(6_000));
  const { page, tabId } = await ext.openTab('long.html');
  const tab = { ext, page, tabId };
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'playing', { timeout: 30_000 });
  // The title is part 0 and over in a moment: the first paragraph is where the test starts.
  await expect(player(popup)).toHaveAttribute('data-part', '1');
  await expect.poll(() => fpAttr(tab, 'data-state')).toBe('playing');
  await expect.poll(() => fpAttr(tab, 'data-part')).toBe('1');
  expect(await fpAttr(tab, 'data-parts')).toBe(await player(popup).getAttribute('data-parts'));
  // The page cannot see into it.
  expect((await seen(tab))!.openToPage).toBe(false);

  await press(tab, 'floating-play-pause');
  await expect(player(popup)).toHaveAttribute('data-state', 'paused');
  await expect.poll(() => fpAttr(tab, 'data-state')).toBe('paused');
  await press(tab, 'floating-play-pause');
  await expect(player(popup)).toHaveAttribute('data-state', 'playing');

  await press(tab, 'floating-next');
  await expect(player(popup)).toHaveAttribute('data-part', '2');
  await expect.poll(() => fpAttr(tab, 'data-part')).toBe('2');
  await press(tab, 'floating-next');
  await expect(player(popup)).toHaveAttribute('data-part', '3');
  await press(tab, 'floating-prev');
  await expect(player(popup)).toHaveAttribute('data-part', '2');
  await expect(player(popup)).toHaveAttribute('data-state', 'playing');

  await ext.control(tabId, 'trysasha-player', 'floating-speed', { value: '1.5' });
  await expect(player(popup)).toHaveAttribute('data-rate', '1.5');
  await expect(popup.getByTestId('speed')).toHaveValue('1.5');

  // This reading's cost, the same figure as the popup's.
  await expect.poll(async () => (await fpAttr(tab, 'data-value', 'floating-cost')) === (await popup.getByTestId('cost').getAttribute('data-value'))).toBe(true);
  expect(await fpAttr(tab, 'data-value', 'floating-cost')).toMatch(/^\d+\.\d{4}$/);
  expect(Number(await fpAttr(tab, 'data-value', 'floating-cost'))).toBeGreaterThan(0);

  await press(tab, 'floating-stop');
  await expect(player(popup)).toHaveAttribute('data-state', 'stopped');
  await expect.poll(() => fpCount(tab)).toBe(0);
});

test('the mini-player is dragged, moved with the keyboard and closed; it comes back where it was put', async ({ ext, pages }) => {
  test.setTimeout(90_000);
  await ext.configure();
  pages.put('/long.html', makeArticleHtml(6_000));
  const { page, tabId } = await ext.openTab('long.html');
  const tab = { ext, page, tabId };
  let popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'playing', { timeout: 30_000 });
  await expect.poll(() => fpCount(tab)).toBe(1);
  const viewport = page.viewportSize()!;
  const start = await edges(tab);
  // Bottom right by default.
  expect(start.right).toBeGreaterThan(viewport.width - 40);
  expect(start.bottom).toBeGreaterThan(viewport.height - 40);

  // Dragged by its handle, 300 px left and 200 px up.
  const grip = (await seen(tab, 'floating-grip'))!.box;
  await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
  await page.mouse.down();
  await page.mouse.move(grip.x + grip.width / 2 - 150, grip.y + grip.height / 2 - 100, { steps: 5 });
  await page.mouse.move(grip.x + grip.width / 2 - 300, grip.y + grip.height / 2 - 200, { steps: 5 });
  await page.mouse.up();
  await expect.poll(async () => (await edges(tab)).right).toBe(start.right - 300);
  expect((await edges(tab)).bottom).toBe(start.bottom - 200);

  // With the keyboard: the handle takes focus, arrows move it 16 px.
  await ext.control(tabId, 'trysasha-player', 'floating-grip', { focus: true });
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowUp');
  await expect.poll(async () => (await edges(tab)).right).toBe(start.right - 316);
  expect((await edges(tab)).bottom).toBe(start.bottom - 216);
  // Tab reaches the controls; Space on play/pause pauses the reading.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect.poll(async () => (await seen(tab, 'floating-play-pause'))?.focused).toBe(true);
  await page.keyboard.press('Space');
  await expect(player(popup)).toHaveAttribute('data-state', 'paused');
  await page.keyboard.press('Space');
  await expect(player(popup)).toHaveAttribute('data-state', 'playing');

  // Closed: it goes, the reading goes on.
  await press(tab, 'floating-close');
  await expect.poll(() => fpCount(tab)).toBe(0);
  const part = Number(await player(popup).getAttribute('data-part'));
  await popup.getByTestId('next').click();
  await expect(player(popup)).toHaveAttribute('data-part', String(part + 1));
  await expect(player(popup)).toHaveAttribute('data-state', 'playing');
  expect(await fpCount(tab)).toBe(0);
  await popup.getByTestId('stop').click();
  await popup.close();

  // The next reading, on another page: it is back, where it was put.
  pages.put('/other.html', makeArticleHtml(3_000, 'Другая статья'));
  const other = await ext.openTab('other.html');
  const otherTab = { ext, ...other };
  popup = await ext.openPopup(other.tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'playing', { timeout: 30_000 });
  await expect.poll(() => fpCount(otherTab)).toBe(1);
  expect(await edges(otherTab)).toEqual({ right: start.right - 316, bottom: start.bottom - 216 });
  // The page left behind has none.
  expect(await fpCount(tab)).toBe(0);
});

test("the page's styles and scripted clicks do not reach the mini-player; the options page turns it off", async ({ ext, pages }) => {
  test.setTimeout(90_000);
  await ext.configure();
  // A page that restyles everything, even inside custom elements it does not know.
  pages.put(
    '/styled.html',
    makeArticleHtml(2_500, 'Статья со стилями').replace(
      '</head>',
      '<style>* { font-size: 40px !important; color: red !important; } button, select { display: none !important; } body { transform: none; }</style></head>',
    ),
  );
  const { page, tabId } = await ext.openTab('styled.html');
  const tab = { ext, page, tabId };
  let popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'playing', { timeout: 30_000 });
  await expect.poll(async () => (await seen(tab, 'floating-play-pause'))?.hidden).toBe(false);
  expect((await seen(tab, 'floating-cost'))!.box.height).toBeLessThan(30);
  // The page's own script clicking the player's host does nothing: only the user's input counts.
  await page.evaluate(() => (document.querySelector('trysasha-player') as HTMLElement | null)?.click());
  await press(tab, 'floating-next');
  await expect(player(popup)).not.toHaveAttribute('data-part', '0');
  await expect(player(popup)).toHaveAttribute('data-state', 'playing');

  // Turned off in the options: it goes at once, and the next reading has none.
  const options = await ext.openOptions();
  await options.getByTestId('floating-player-option').uncheck();
  await expect.poll(() => fpCount(tab)).toBe(0);
  await popup.getByTestId('stop').click();
  await popup.close();
  popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'playing', { timeout: 30_000 });
  await expect(player(popup)).toHaveAttribute('data-parts', /[1-9]/);
  // Turned on again, it shows on the reading in progress.
  expect(await fpCount(tab)).toBe(0);
  await options.getByTestId('floating-player-option').check();
  await expect.poll(() => fpAttr(tab, 'data-state')).toBe('playing');
});
