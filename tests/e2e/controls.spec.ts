import type { Page } from '@playwright/test';
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { recordedHighlights, recordHighlights } from '../fixtures/highlights.ts';
import { expect, type ExtensionFixtures, menuItemExists, player, test } from './fixtures.ts';

test.use({ serviceOptions: { msPerChar: 2, minMs: 50 } });

const num = async (popup: Page, attr: string) => Number(await player(popup).getAttribute(attr));

/** The text the page's highlight covers now ('' when none): read in the page's own world. */
const highlighted = (page: Page) =>
  page.evaluate(() => {
    const h = (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights.get('trysasha-sentence');
    return h ? [...h].map((r) => r.toString()).join(' ') : '';
  });

test('the parts list jumps to a part; speed and volume apply at once, fetch nothing, and are remembered', async ({
  ext,
  service,
  pages,
  sw,
}) => {
  await ext.configure({ threshold: '1000' });
  pages.put('/long.html', makeArticleHtml(6_000));
  const { tabId } = await ext.openTab('long.html');
  const popup = await ext.openPopup(tabId);
  const p = player(popup);
  await expect(p).toHaveAttribute('data-state', 'playing');
  const items = popup.getByTestId('part-item');
  await expect(items).toHaveCount(await num(popup, 'data-parts'));

  await items.nth(3).click();
  await expect(p).toHaveAttribute('data-part', '3');
  await expect(items.nth(3)).toHaveAttribute('aria-current', 'true');
  await expect(p).toHaveAttribute('data-state', 'playing');
  // Back to part 1: it was fetched before the jump, so it plays from the cache.
  await expect.poll(() => service.speechLog().length).toBeGreaterThanOrEqual(4);
  const fetched = service.speechLog().length;
  await items.nth(1).click();
  await expect(p).toHaveAttribute('data-part', '1');
  await expect.poll(() => num(popup, 'data-position')).toBeGreaterThan(0);
  expect(service.speechLog().filter((e) => e.text === service.speechLog()[1]!.text)).toHaveLength(1);
  expect(service.speechLog().length).toBeLessThanOrEqual(fetched + 1);

  // Speed: the player itself reports the new rate; nothing is requested for it.
  const before = service.speechLog().map((e) => e.text);
  await popup.getByTestId('speed').selectOption('2');
  await popup.getByTestId('volume').fill('0.5');
  await expect(p).toHaveAttribute('data-rate', '2');
  const after = service.speechLog().map((e) => e.text);
  expect(new Set(after).size).toBe(after.length);
  expect(after.length).toBeLessThanOrEqual(before.length + 1);

  // Both changes are kept, however quickly the second followed the first.
  await expect.poll(async () => (await sw.evaluate(() => chrome.storage.local.get('playback'))).playback).toEqual({ rate: 2, volume: 0.5 });
  await popup.getByTestId('stop').click();
  const reopened = await ext.openPopup(tabId);
  await expect(reopened.getByTestId('speed')).toHaveValue('2');
  await expect(reopened.getByTestId('volume')).toHaveValue('0.5');
});

test('the sentence being read is highlighted on the page, follows the audio, and is removed on stop', async ({ ext, service }) => {
  service.configure({ msPerChar: 25 }); // sentences of one to two seconds
  await ext.configure({ threshold: '1000' });
  const { page, tabId } = await ext.openTab('sample-article.html');
  // Every highlight is recorded in the page as it appears (the headline lasts about a second).
  await page.evaluate(recordHighlights, 'article');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'playing');
  // The headline is the first part; then the body's sentences, one after another, each inside the article.
  const texts = async () => (await page.evaluate(recordedHighlights)).map((h) => h.text);
  await expect.poll(async () => (await texts()).some((t) => /^Сегодня голосовые помощники/.test(t))).toBe(true);
  const seen = await texts();
  const at = (t: string | RegExp) => seen.findIndex((s) => (typeof t === 'string' ? s === t : t.test(s)));
  expect(at('Как устроен голос: заметки о синтезе речи')).toBe(0);
  expect(at('Синтез речи давно перестал быть забавой для лабораторий.')).toBeGreaterThan(0);
  expect(at(/^Сегодня голосовые помощники/)).toBeGreaterThan(at('Синтез речи давно перестал быть забавой для лабораторий.'));
  expect((await page.evaluate(recordedHighlights)).every((h) => h.ok)).toBe(true);
  // The page's DOM was not rewritten: the paragraph is one text node as served.
  expect(await page.evaluate(() => document.getElementById('p1')!.childNodes.length)).toBe(1);
  await popup.getByTestId('stop').click();
  await expect.poll(() => highlighted(page)).toBe('');
});

/**
 * A tall page read until the window has followed the sentence (placed a third down the window) more than a
 * window below the top, so going back to the top leaves it out of view.
 */
async function followedDownATallPage({ ext, pages }: Pick<ExtensionFixtures, 'ext' | 'pages'>) {
  await ext.configure({ threshold: '1000' });
  pages.put('/tall.html', makeArticleHtml(3_000, 'Высокая страница').replace('<body>', '<body style="font-size:40px;line-height:3">'));
  const { page, tabId } = await ext.openTab('tall.html');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'playing');
  // The real popup floats over the page; here it is a tab, so the page is brought back to the front.
  await page.bringToFront();
  await expect.poll(() => page.evaluate(() => scrollY - innerHeight), { timeout: 20_000 }).toBeGreaterThan(0);
  return { page, popup };
}

test('auto-scroll follows the sentence until the user scrolls away', async ({ ext, pages }) => {
  const { page, popup } = await followedDownATallPage({ ext, pages });
  // The user scrolls back to the top: the reader stops pulling the page.
  await page.mouse.move(100, 100);
  await expect
    .poll(async () => {
      await page.mouse.wheel(0, -2_000);
      return page.evaluate(() => scrollY);
    })
    .toBe(0);
  const position = async () => Number(await player(popup).getAttribute('data-position'));
  const left = await position();
  // Several sentences later the page is still where the user left it.
  await expect.poll(position).toBeGreaterThan(left + 2);
  expect(await page.evaluate(() => scrollY)).toBe(0);
});

test('dragging the scrollbar away (no wheel, no key) also stops the page being pulled back', async ({ ext, pages }) => {
  const { page, popup } = await followedDownATallPage({ ext, pages });
  // A scrollbar's drag moves the page with no event the reader hears of but the scroll itself.
  // (A smooth scroll of the reader's may move it a frame further before it stops: a few pixels.)
  await page.evaluate(() => scrollTo({ top: 0, behavior: 'instant' }));
  const position = async () => Number(await player(popup).getAttribute('data-position'));
  const left = await position();
  await expect.poll(position).toBeGreaterThan(left + 2);
  // Several sentences later the page is still about where the user left it, the reading far below.
  expect(await page.evaluate(() => scrollY < innerHeight / 4)).toBe(true);
});

test('"Read from here" starts at the paragraph the user right-clicked, not where a page\'s script says', async ({ ext, service, sw }) => {
  await ext.configure({ threshold: '1000' });
  const { page, tabId } = await ext.openTab('sample-article.html');
  // The menu item exists.
  await expect.poll(() => menuItemExists(sw, 'read-from-here')).toBe(true);
  // A first reading injects the page script, which then notes where the user right-clicks.
  await ext.menuClick(tabId, 'Первое чтение.');
  await expect.poll(() => service.speechLog().length).toBe(1);
  await page.locator('#p6').click({ button: 'right' });
  await page.keyboard.press('Escape');
  // The page's own script sends a contextmenu of its own, further down: not the user's, not followed.
  await page.evaluate(() => document.querySelector('#p7')!.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true })));
  await ext.menuClick(tabId, '', 'read-from-here');
  // Watched in the background's view, not a popup: this reading lasts under a second, and a popup
  // opened after its end would start the whole article (as opening it over a page does).
  const fromHere = (await ext.readingView()).id;
  await expect.poll(async () => { const v = await ext.readingView(); return v.id === fromHere && v.state; }, { timeout: 30_000 }).toBe('finished');
  const texts = service.speechLog().slice(1).map((e) => e.text);
  expect(texts[0]).toMatch(/^Платные сервисы берут деньги/);
  expect(texts.join(' ')).not.toContain('Синтез речи давно');
  expect(texts.join(' ')).toContain('Это кажется мелочью');
});

test('keyboard shortcuts are declared, listed in the popup, and drive the reading', async ({ ext, service, pages }) => {
  await ext.configure({ threshold: '1000' });
  pages.put('/long.html', makeArticleHtml(5_000));
  const { page, tabId } = await ext.openTab('long.html');
  await page.bringToFront();
  const popup = await ext.openPopup(tabId);
  await popup.getByTestId('shortcuts').locator('summary').click();
  const shortcuts = popup.getByTestId('shortcut');
  await expect(shortcuts).toHaveCount(5);
  await expect(popup.locator('[data-command="read"]')).toHaveAttribute('data-shortcut', 'Alt+R');
  await expect(popup.locator('[data-command="toggle-pause"]')).toHaveAttribute('data-shortcut', 'Alt+P');
  await expect(popup.locator('[data-command="previous"]')).toHaveAttribute('data-shortcut', '');

  const press = async (command: string) => {
    const sw = await ext.serviceWorker();
    await sw.evaluate(async ([command, tabId]) => {
      const tab = await chrome.tabs.get(tabId as number);
      await (globalThis as unknown as { commandHandler: (c: string, t: object) => Promise<void> }).commandHandler(command as string, tab);
    }, [command, tabId]);
  };
  const p = player(popup);
  await expect(p).toHaveAttribute('data-state', 'playing');
  await press('toggle-pause');
  await expect(p).toHaveAttribute('data-state', 'paused');
  await press('toggle-pause');
  await expect(p).toHaveAttribute('data-state', 'playing');
  const part = async () => Number(await p.getAttribute('data-part'));
  const from = await part();
  await press('next');
  await expect.poll(part).toBeGreaterThan(from);
  const reached = await part();
  await press('previous');
  await expect.poll(part).toBe(reached - 1);
  await press('stop');
  await expect(p).toHaveAttribute('data-state', 'stopped');
  const count = service.speechLog().length;
  await press('read');
  await expect(p).toHaveAttribute('data-state', 'playing');
  expect(service.speechLog().length).toBe(count); // read again from the cache
});
