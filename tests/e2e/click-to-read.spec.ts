/**
 * Click-to-read: with the option on, a ▶ appears at the start of the block under the pointer and
 * reading starts exactly there; "Read aloud from here" is exact on a page not read before.
 *
 * The option asks the browser for access to pages; a test cannot answer that prompt, so it writes the
 * option as the options page does after a grant. The pages here are on loopback, which the manifest
 * grants, so the registered script runs on them as it would on a site the user allowed.
 */
import type { Page, Worker } from 'playwright-core';
import { makeSentences } from '../fixtures/make-article.ts';
import { expect, player, test } from './fixtures.ts';

const paragraphs = makeSentences(4_000);
const html = `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Статья по клику</title>
<style>body { max-width: 40em; margin: 0 auto; padding: 0 3em; font: 16px/1.5 serif; }</style></head>
<body><nav>Главная · Разделы</nav><article><h1>Статья по клику</h1>${paragraphs.map((p) => `<p>${p.join(' ')}</p>`).join('\n')}</article>
<footer>Подвал сайта</footer></body></html>`;

async function turnOn(ext: { openOptions(): Promise<Page> }, sw: Worker) {
  const options = await ext.openOptions();
  await options.evaluate(() => chrome.storage.local.set({ 'page-options': { floatingPlayer: true, clickToRead: true } }));
  await expect.poll(() => sw.evaluate(async () => (await chrome.scripting.getRegisteredContentScripts()).map((s) => s.id))).toEqual(['click-to-read']);
  // The checkbox shows it.
  await expect(options.getByTestId('click-to-read-option')).toBeChecked();
  return options;
}

test('a ▶ at the start of the paragraph under the pointer starts reading exactly there', async ({ ext, sw, service, pages }) => {
  test.setTimeout(60_000);
  await ext.configure();
  const options = await turnOn(ext, sw);
  pages.put('/click.html', html);
  const { page, tabId } = await ext.openTab('click.html');
  // Nothing is read or sent until a ▶ is clicked. The ▶ is in a closed shadow root: seen from the extension's world.
  const third = page.locator('article p').nth(3);
  await third.hover();
  const play = () => ext.control(tabId, 'trysasha-click', 'click-to-read');
  await expect.poll(async () => (await play())?.hidden).toBe(false);
  // At the start of that paragraph: left of its first line.
  const p = (await third.boundingBox())!;
  const b = (await play())!.box;
  expect(b.x + b.width).toBeLessThanOrEqual(p.x + 2);
  expect(Math.abs(b.y + b.height / 2 - (p.y + 12))).toBeLessThan(16);
  expect(service.speechLog()).toEqual([]);

  // Another paragraph under the pointer: the ▶ follows it.
  await page.locator('article p').nth(1).hover();
  const second = (await page.locator('article p').nth(1).boundingBox())!;
  await expect.poll(async () => Math.abs((await play())!.box.y - second.y) < 20).toBe(true);
  await third.hover();
  await expect.poll(async () => Math.abs((await play())!.box.y - p.y) < 20).toBe(true);
  // The user's own click on it, with the real mouse, once it has been still for half a second.
  await expect.poll(async () => (await play())?.attrs['data-settled']).toBe('true');
  const at = (await play())!.box;
  await page.mouse.click(at.x + at.width / 2, at.y + at.height / 2);
  await expect.poll(() => service.speechLog().length, { timeout: 30_000 }).toBeGreaterThan(0);
  // The first text sent is that paragraph's first sentence; nothing before it is read.
  expect(service.speechLog()[0]!.text.startsWith(paragraphs[3]![0]!.slice(0, 30))).toBe(true);
  const sent = service.speechLog().map((e) => e.text).join(' ');
  expect(sent).not.toContain(paragraphs[2]![0]!);
  expect(sent).not.toContain('Статья по клику');

  // Switched off: no ▶ on the next page.
  await options.getByTestId('click-to-read-option').uncheck();
  await expect.poll(() => sw.evaluate(async () => (await chrome.scripting.getRegisteredContentScripts()).length)).toBe(0);
  pages.put('/plain.html', html);
  const plain = await ext.openTab('plain.html');
  await plain.page.locator('article p').nth(2).hover();
  await plain.page.locator('article p').nth(3).hover();
  expect(await plain.page.locator('trysasha-click').count()).toBe(0);
});


test('a ▶ left in a page after click-to-read is turned off starts nothing', async ({ ext, sw, service, pages }) => {
  await ext.configure();
  const options = await turnOn(ext, sw);
  pages.put('/click.html', html);
  const { page, tabId } = await ext.openTab('click.html');
  const play = () => ext.control(tabId, 'trysasha-click', 'click-to-read');
  await page.locator('article p').nth(3).hover();
  await expect.poll(async () => (await play())?.attrs['data-settled']).toBe('true');
  // Turned off: the script stays in this page until it is loaded again, its ▶ too.
  await options.getByTestId('click-to-read-option').uncheck();
  await expect.poll(() => sw.evaluate(async () => (await chrome.scripting.getRegisteredContentScripts()).length)).toBe(0);
  await sw.evaluate(() => void ((globalThis as unknown as { readingTrace: unknown[] }).readingTrace = []));
  await page.bringToFront();
  await page.locator('article p').nth(3).hover();
  await expect.poll(async () => (await play())?.attrs['data-settled']).toBe('true');
  const at = (await play())!.box;
  await page.mouse.click(at.x + at.width / 2, at.y + at.height / 2);
  // The background refused it (marked in test builds): no reading began, nothing was sent.
  await expect
    .poll(() => sw.evaluate(() => ((globalThis as unknown as { readingTrace: [string, number][] }).readingTrace ?? []).some(([l]) => l === 'page-start:refused')))
    .toBe(true);
  expect((await ext.readingView()).id).toBeUndefined();
  expect(service.speechLog()).toEqual([]);
});

test('a ▶ the page draws over starts nothing; uncovered and still, it starts the reading', async ({ ext, sw, service, pages }) => {
  test.setTimeout(60_000);
  await ext.configure();
  await turnOn(ext, sw);
  pages.put('/click.html', html);
  const { page, tabId } = await ext.openTab('click.html');
  const play = () => ext.control(tabId, 'trysasha-click', 'click-to-read');
  await page.locator('article p').nth(3).hover();
  await expect.poll(async () => (await play())?.attrs['data-settled']).toBe('true');
  const at = (await play())!.box;
  // A box of the page's own over the ▶ (after it in <html>, on top), that lets the click through: the user sees the page's box.
  await page.evaluate((b) => {
    const over = document.createElement('div');
    over.id = 'over';
    over.style.cssText = `position: fixed; left: ${b.x - 4}px; top: ${b.y - 4}px; width: ${b.width + 8}px; height: ${b.height + 8}px; background: #fff; pointer-events: none; z-index: 2147483647`;
    document.documentElement.append(over);
  }, at);
  await expect.poll(async () => (await play())?.attrs['data-settled']).toBe('false');
  await page.mouse.click(at.x + at.width / 2, at.y + at.height / 2);
  // A click taken hides the ▶ at once: it is still there, and nothing was asked for.
  expect((await play())?.hidden).toBe(false);
  expect(service.speechLog()).toEqual([]);

  await page.evaluate(() => document.getElementById('over')!.remove());
  await expect.poll(async () => (await play())?.attrs['data-settled']).toBe('true');
  await page.mouse.click(at.x + at.width / 2, at.y + at.height / 2);
  await expect.poll(() => service.speechLog().length, { timeout: 30_000 }).toBeGreaterThan(0);
  expect(service.speechLog()[0]!.text.startsWith(paragraphs[3]![0]!.slice(0, 30))).toBe(true);
});

test('"Read aloud from here" starts at the paragraph right-clicked, on a page not read before', async ({ ext, sw, service, pages }) => {
  test.setTimeout(60_000);
  await ext.configure();
  await turnOn(ext, sw);
  pages.put('/menu.html', html);
  const { page, tabId } = await ext.openTab('menu.html');
  // Scrolled to the top: without knowing the block right-clicked, "from here" would start in view (the title).
  await page.locator('article p').nth(4).click({ button: 'right' });
  await ext.menuClick(tabId, '', 'read-from-here');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', /playing|loading/, { timeout: 30_000 });
  await expect.poll(() => service.speechLog().length, { timeout: 30_000 }).toBeGreaterThan(0);
  expect(service.speechLog()[0]!.text.startsWith(paragraphs[4]![0]!.slice(0, 30))).toBe(true);
});
