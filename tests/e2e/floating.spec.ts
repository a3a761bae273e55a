/**
 * The floating mini-player on the page being read: its controls drive the reading, it shows this
 * reading's cost, it can be dragged, moved with the keyboard and closed, it remembers where it was
 * put, it goes away on stop, the page's styles do not reach it, and the options page turns it off.
 */
import type { Page } from 'playwright-core';
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { expect, player, test } from './fixtures.ts';

const fp = (page: Page) => page.getByTestId('floating-player');

// Parts of about twenty seconds: no part ends on its own while a test presses next and previous.
test.use({ serviceOptions: { msPerChar: 16 } });

/** Where the player's right and bottom edges are on screen (it keeps to them as its width changes). */
async function edges(page: Page) {
  const b = (await fp(page).boundingBox())!;
  return { right: Math.round(b.x + b.width), bottom: Math.round(b.y + b.height) };
}

test('the mini-player drives the reading: pause, resume, next, previous, speed and stop; it shows the cost', async ({ ext, pages }) => {
  test.setTimeout(90_000);
  await ext.configure();
  pages.put('/long.html', makeArticleHtml(6_000));
  const { page, tabId } = await ext.openTab('long.html');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'playing', { timeout: 30_000 });
  // The title is part 0 and over in a moment: the first paragraph is where the test starts.
  await expect(player(popup)).toHaveAttribute('data-part', '1');
  await expect(fp(page)).toHaveAttribute('data-state', 'playing');
  await expect(fp(page)).toHaveAttribute('data-part', '1');
  await expect(fp(page)).toHaveAttribute('data-parts', (await player(popup).getAttribute('data-parts'))!);

  await page.getByTestId('floating-play-pause').click();
  await expect(player(popup)).toHaveAttribute('data-state', 'paused');
  await expect(fp(page)).toHaveAttribute('data-state', 'paused');
  await page.getByTestId('floating-play-pause').click();
  await expect(player(popup)).toHaveAttribute('data-state', 'playing');

  await page.getByTestId('floating-next').click();
  await expect(player(popup)).toHaveAttribute('data-part', '2');
  await expect(fp(page)).toHaveAttribute('data-part', '2');
  await page.getByTestId('floating-next').click();
  await expect(player(popup)).toHaveAttribute('data-part', '3');
  await page.getByTestId('floating-prev').click();
  await expect(player(popup)).toHaveAttribute('data-part', '2');
  await expect(player(popup)).toHaveAttribute('data-state', 'playing');

  await page.getByTestId('floating-speed').selectOption('1.5');
  await expect(player(popup)).toHaveAttribute('data-rate', '1.5');
  await expect(popup.getByTestId('speed')).toHaveValue('1.5');

  // This reading's cost, the same figure as the popup's.
  await expect.poll(async () => (await page.getByTestId('floating-cost').getAttribute('data-value')) === (await popup.getByTestId('cost').getAttribute('data-value'))).toBe(true);
  expect(await page.getByTestId('floating-cost').getAttribute('data-value')).toMatch(/^\d+\.\d{4}$/);
  expect(Number(await page.getByTestId('floating-cost').getAttribute('data-value'))).toBeGreaterThan(0);

  await page.getByTestId('floating-stop').click();
  await expect(player(popup)).toHaveAttribute('data-state', 'stopped');
  await expect(fp(page)).toHaveCount(0);
});

test('the mini-player is dragged, moved with the keyboard and closed; it comes back where it was put', async ({ ext, pages }) => {
  test.setTimeout(90_000);
  await ext.configure();
  pages.put('/long.html', makeArticleHtml(6_000));
  const { page, tabId } = await ext.openTab('long.html');
  let popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'playing', { timeout: 30_000 });
  await expect(fp(page)).toBeVisible();
  const viewport = page.viewportSize()!;
  const start = await edges(page);
  // Bottom right by default.
  expect(start.right).toBeGreaterThan(viewport.width - 40);
  expect(start.bottom).toBeGreaterThan(viewport.height - 40);

  // Dragged by its handle, 300 px left and 200 px up.
  const grip = (await page.getByTestId('floating-grip').boundingBox())!;
  await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
  await page.mouse.down();
  await page.mouse.move(grip.x + grip.width / 2 - 150, grip.y + grip.height / 2 - 100, { steps: 5 });
  await page.mouse.move(grip.x + grip.width / 2 - 300, grip.y + grip.height / 2 - 200, { steps: 5 });
  await page.mouse.up();
  await expect.poll(async () => (await edges(page)).right).toBe(start.right - 300);
  expect((await edges(page)).bottom).toBe(start.bottom - 200);

  // With the keyboard: the handle takes focus, arrows move it 16 px.
  await page.getByTestId('floating-grip').focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowUp');
  await expect.poll(async () => (await edges(page)).right).toBe(start.right - 316);
  expect((await edges(page)).bottom).toBe(start.bottom - 216);
  // Tab reaches the controls; Space on play/pause pauses the reading.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('floating-play-pause')).toBeFocused();
  await page.keyboard.press('Space');
  await expect(player(popup)).toHaveAttribute('data-state', 'paused');
  await page.keyboard.press('Space');
  await expect(player(popup)).toHaveAttribute('data-state', 'playing');

  // Closed: it goes, the reading goes on.
  await page.getByTestId('floating-close').click();
  await expect(fp(page)).toHaveCount(0);
  const part = Number(await player(popup).getAttribute('data-part'));
  await popup.getByTestId('next').click();
  await expect(player(popup)).toHaveAttribute('data-part', String(part + 1));
  await expect(player(popup)).toHaveAttribute('data-state', 'playing');
  await expect(fp(page)).toHaveCount(0);
  await popup.getByTestId('stop').click();
  await popup.close();

  // The next reading, on another page: it is back, where it was put.
  pages.put('/other.html', makeArticleHtml(3_000, 'Другая статья'));
  const other = await ext.openTab('other.html');
  popup = await ext.openPopup(other.tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'playing', { timeout: 30_000 });
  await expect(fp(other.page)).toBeVisible();
  expect(await edges(other.page)).toEqual({ right: start.right - 316, bottom: start.bottom - 216 });
  // The page left behind has none.
  await expect(fp(page)).toHaveCount(0);
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
  let popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'playing', { timeout: 30_000 });
  await expect(page.getByTestId('floating-play-pause')).toBeVisible();
  const fontSize = await page.getByTestId('floating-cost').evaluate((el) => getComputedStyle(el).fontSize);
  expect(fontSize).toBe('13px');
  // The page's own script clicking the player's buttons does nothing: only the user's input counts.
  await page.evaluate(() => {
    const host = document.querySelector('trysasha-player');
    (host?.shadowRoot?.querySelector('[data-testid="floating-stop"]') as HTMLElement | null)?.click();
  });
  await page.getByTestId('floating-next').click();
  await expect(player(popup)).not.toHaveAttribute('data-part', '0');
  await expect(player(popup)).toHaveAttribute('data-state', 'playing');

  // Turned off in the options: it goes at once, and the next reading has none.
  const options = await ext.openOptions();
  await options.getByTestId('floating-player-option').uncheck();
  await expect(fp(page)).toHaveCount(0);
  await popup.getByTestId('stop').click();
  await popup.close();
  popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'playing', { timeout: 30_000 });
  await expect(player(popup)).toHaveAttribute('data-parts', /[1-9]/);
  // Turned on again, it shows on the reading in progress.
  await expect(fp(page)).toHaveCount(0);
  await options.getByTestId('floating-player-option').check();
  await expect(fp(page)).toHaveAttribute('data-state', 'playing');
});
