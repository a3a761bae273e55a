/**
 * Click-to-read in Firefox: with the option on, a ▶ at the start of the paragraph under the pointer
 * starts reading exactly there. The option asks for access to pages; a test cannot answer Firefox's
 * prompt, so it writes the option as the options page does after a grant (the loopback pages used
 * here are granted by the manifest).
 */
import { makeSentences } from '../fixtures/make-article.ts';
import { evaluate } from './firefox.ts';
import { type Ext, expect, type FirefoxHelpers, test } from './fixtures.ts';

const paragraphs = makeSentences(4_000);
const html = `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Статья по клику</title>
<style>body { max-width: 40em; margin: 0 auto; padding: 0 3em; font: 16px/1.5 serif; }</style></head>
<body><article><h1>Статья по клику</h1>${paragraphs.map((p) => `<p>${p.join(' ')}</p>`).join('\n')}</article></body></html>`;

/** Click-to-read on, as the options page writes it after a grant; the extension page the test evaluates in. */
async function turnOn(ext: FirefoxHelpers) {
  const helper = await ext.extensionPage();
  await evaluate(helper, () => (globalThis as unknown as Ext).browser.storage.local.set({ 'page-options': { floatingPlayer: true, clickToRead: true } }));
  await expect
    .poll(() => evaluate(helper, async () => (await (globalThis as unknown as Ext).browser.scripting.getRegisteredContentScripts()).map((s) => s.id)))
    .toEqual(['click-to-read']);
  return helper;
}

/** The click page opened, and the ▶ shown at its fourth paragraph (the script is injected once the page is idle: hovered until it shows). */
async function playShown(ext: FirefoxHelpers, pages: { put(p: string, h: string): void }) {
  pages.put('/click.html', html);
  const { page, tabId } = await ext.openTab('click.html');
  const third = await page.$('article p:nth-of-type(4)');
  // In a closed shadow root: seen from the extension's world.
  const play = () => ext.control(tabId, 'trysasha-click', 'click-to-read');
  await expect
    .poll(async () => {
      await page.mouse.move(5, 5);
      await third!.hover();
      const seen = await play();
      return seen && !seen.hidden ? seen.attrs['data-block'] : '';
    })
    .not.toBe('');
  return { page, play };
}

test('a ▶ at the start of the paragraph under the pointer starts reading exactly there', async ({ ext, service, pages }) => {
  test.setTimeout(60_000);
  await ext.configure();
  const helper = await turnOn(ext);
  const { page, play } = await playShown(ext, pages);
  expect(service.speechLog()).toEqual([]);
  // The user's own click on it, once it has been still for half a second.
  await expect.poll(async () => (await play())?.attrs['data-settled']).toBe('true');
  const at = (await play())!.box;
  await page.mouse.click(at.x + at.width / 2, at.y + at.height / 2);
  await expect.poll(() => service.speechLog().length, { timeout: 30_000 }).toBeGreaterThan(0);
  expect(service.speechLog()[0]!.text.startsWith(paragraphs[3]![0]!.slice(0, 30))).toBe(true);
  expect(service.speechLog().map((e) => e.text).join(' ')).not.toContain(paragraphs[2]![0]!);

  await evaluate(helper, () => (globalThis as unknown as Ext).browser.storage.local.set({ 'page-options': { floatingPlayer: true, clickToRead: false } }));
  await expect.poll(() => evaluate(helper, async () => (await (globalThis as unknown as Ext).browser.scripting.getRegisteredContentScripts()).length)).toBe(0);
});

test('"Read from here" starts at the paragraph the user right-clicked, not where a page\'s script says', async ({ ext, service }) => {
  await ext.configure({ threshold: '1000' });
  const { page, tabId } = await ext.openTab('sample-article.html');
  // A first reading puts the page script in, which then notes where the user right-clicks.
  await ext.menuClick(tabId, 'Первое чтение.');
  await expect.poll(() => service.speechLog().length).toBe(1);
  await page.click('#p6', { button: 'right' });
  await page.keyboard.press('Escape');
  // The page's own script sends a contextmenu of its own, further down: not the user's, not followed.
  await evaluate(page, () => void document.querySelector('#p7')!.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true })));
  await ext.menuClick(tabId, '', 'read-from-here');
  const fromHere = (await ext.readingView()).id;
  await expect.poll(async () => { const v = await ext.readingView(); return v.id === fromHere && v.state; }, { timeout: 30_000 }).toBe('finished');
  const texts = service.speechLog().slice(1).map((e) => e.text);
  expect(texts[0]).toMatch(/^Платные сервисы берут деньги/);
  expect(texts.join(' ')).toContain('Если связь оборвалась');
});

test('a ▶ the page draws over starts nothing; uncovered and still, it starts the reading', async ({ ext, service, pages }) => {
  test.setTimeout(60_000);
  await ext.configure();
  await turnOn(ext);
  const { page, play } = await playShown(ext, pages);
  await expect.poll(async () => (await play())?.attrs['data-settled']).toBe('true');
  const at = (await play())!.box;
  // A box of the page's own over the ▶ (after it in <html>, on top), that lets the click through: the user sees the page's box.
  await evaluate(
    page,
    (x: number, y: number, w: number, h: number) => {
      const over = document.createElement('div');
      over.id = 'over';
      over.style.cssText = `position: fixed; left: ${x - 4}px; top: ${y - 4}px; width: ${w + 8}px; height: ${h + 8}px; background: #fff; pointer-events: none; z-index: 2147483647`;
      document.documentElement.append(over);
    },
    at.x,
    at.y,
    at.width,
    at.height,
  );
  await expect.poll(async () => (await play())?.attrs['data-settled']).toBe('false');
  await page.mouse.click(at.x + at.width / 2, at.y + at.height / 2);
  // A click taken hides the ▶ at once: it is still there, and nothing was asked for.
  expect((await play())?.hidden).toBe(false);
  expect(service.speechLog()).toEqual([]);

  await evaluate(page, () => document.getElementById('over')!.remove());
  await expect.poll(async () => (await play())?.attrs['data-settled']).toBe('true');
  await page.mouse.click(at.x + at.width / 2, at.y + at.height / 2);
  await expect.poll(() => service.speechLog().length, { timeout: 30_000 }).toBeGreaterThan(0);
  expect(service.speechLog()[0]!.text.startsWith(paragraphs[3]![0]!.slice(0, 30))).toBe(true);
});
