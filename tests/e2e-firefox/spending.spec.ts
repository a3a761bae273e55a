/**
 * Every ruble through one gate (Firefox): caps that hold after the usage history is cleared, a page's
 * script that cannot answer "read it?", a Save as MP3 confirmation that buys only for its own reading and
 * never for a PDF still being counted, and a page that grew after its size was checked.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mp3Duration } from '../../utils/audio/mp3-frames.ts';
import { growArticle } from '../fixtures/grow-article.ts';
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { pdfBytes, TEST_PDFS } from '../fixtures/pdfs.ts';
import { click, evaluate } from './firefox.ts';
import { attr, expect, state, test, type Ext } from './fixtures.ts';

test('a spending cap still holds after the usage history is cleared: the next reading that would pass it asks first', async ({ ext, service, pages }) => {
  // About 0.52 ₽ and 0.49 ₽ at 1,500 ₽ a million: together past the 0.80 ₽ daily cap.
  pages.put('/first.html', makeArticleHtml(340, 'Первая'));
  pages.put('/second.html', makeArticleHtml(320, 'Вторая'));
  await ext.configure({ threshold: '100', dailyCap: '0.80' });
  const first = await ext.openTab('first.html');
  const popup = await ext.openPopup(first.tabId);
  await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('finished');
  expect(Number(await attr(popup, 'cost', 'data-value'))).toBeGreaterThan(0.4);
  await popup.close();

  const options = await ext.openOptions();
  await expect.poll(() => attr(options, 'history', 'data-count')).not.toBe('0');
  await click(options, '[data-testid="clear-history"]');
  await expect.poll(() => attr(options, 'history', 'data-count')).toBe('0');

  const billed = service.speechLog().length;
  const second = await ext.openTab('second.html');
  const again = await ext.openPopup(second.tabId);
  await expect.poll(() => state(again)).toBe('confirm');
  expect(await attr(again, 'confirm-reason', 'data-reason')).toBe('budget');
  expect(service.speechLog()).toHaveLength(billed);
});

test("the page's own script cannot answer \"read it?\": a confirm sent through the mini-player's channel is refused", async ({ ext, service, pages }) => {
  pages.put('/long.html', makeArticleHtml(4_000));
  await ext.configure({ threshold: '1' });
  const { tabId } = await ext.openTab('long.html');
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup)).toBe('confirm');
  // Run in the extension's content-script world, as a compromised page process would send.
  const answers = await evaluate(
    await ext.extensionPage(),
    async (tabId: number) => {
      const { browser } = globalThis as unknown as Ext;
      const send = (type: string, data: unknown) =>
        `browser.runtime.sendMessage(Object.assign(${JSON.stringify({ id: 1, type, data })}, { timestamp: Date.now() })).then((r) => JSON.stringify(r), (e) => 'refused: ' + e)`;
      const out: string[] = [];
      for (const [type, data] of [['floatingCommand', { command: 'confirm' }], ['fetchForSave', { readingId: '', upTo: 99, maxRub: '1000' }], ['removeKey', null]] as const) {
        const [result] = (await browser.tabs.executeScript(tabId, { code: send(type, data) })) as unknown as string[];
        out.push(String(result));
      }
      return out;
    },
    tabId,
  );
  for (const answer of answers) expect(answer).toContain('refused');
  expect(await state(popup)).toBe('confirm');
  expect(service.speechLog()).toHaveLength(0);
});

test('a Save as MP3 confirmation left open after another reading began buys nothing', async ({ ext, service, pages }) => {
  // 15 ₽ at 1,500 ₽ a million: 10,000 characters. The first reading (about 9,000) starts at once and has parts
  // left to buy when it is stopped, however far it got (its title is one short part); the second asks first.
  await ext.configure({ threshold: '15' });
  pages.put('/one.html', makeArticleHtml(9_000, 'Первая'));
  pages.put('/two.html', makeArticleHtml(12_000, 'Вторая'));
  const one = await ext.openTab('one.html');
  const popup = await ext.openPopup(one.tabId);
  await expect.poll(() => service.speechLog().length).toBeGreaterThan(0);
  await click(popup, '[data-testid="stop"]');
  await expect.poll(() => state(popup)).toBe('stopped');
  await click(popup, '[data-testid="save-mp3"]');
  await expect.poll(() => attr(popup, 'save-box', 'data-missing')).not.toBe('');
  const billed = service.speechLog().length;

  // Another reading starts (it asks first) while the confirmation stays open.
  const two = await ext.openTab('two.html');
  const other = await ext.openPopup(two.tabId);
  await expect.poll(() => state(other)).toBe('confirm');
  await click(popup, '[data-testid="confirm-save"]');
  await expect.poll(() => attr(popup, 'save-error', 'data-code')).toBe('save-changed');
  expect(service.speechLog()).toHaveLength(billed);
  expect(await state(other)).toBe('confirm');
});

test('a page that grows after its size was checked (an article read title first) asks before the rest is bought, with the whole estimate', async ({ ext, service, pages }) => {
  // 1 ₽ at 1,500 ₽ a million: 666 characters; about 300 when its facts are read, about 3,000 afterwards.
  await ext.configure({ threshold: '1' });
  pages.put('/grows.html', makeArticleHtml(300, 'Статья, которая растёт'));
  const { page, tabId } = await ext.openTab('grows.html');
  // The background waits (test builds' diagnostics) between reading the page's facts and putting its script in.
  await ext.diagnostics('holdAt', 'extract:script');
  await evaluate(
    await ext.extensionPage(),
    async (tabId: number) => {
      const { browser } = globalThis as unknown as Ext;
      const bg = (await browser.runtime.getBackgroundPage()) as unknown as { commandHandler(c: string, t: object): Promise<void> };
      // Not waited for: the start waits on the hold.
      void bg.commandHandler('read', await browser.tabs.get(tabId));
    },
    tabId,
  );
  await expect.poll(() => ext.diagnostics('reached', 'extract:script')).toBeGreaterThan(0);
  await evaluate(page, growArticle);
  await ext.diagnostics('release', 'extract:script');

  const popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('confirm');
  expect(await attr(popup, 'confirm-reason', 'data-reason')).toBe('threshold');
  const estimate = Number(await attr(popup, 'estimate', 'data-chars'));
  expect(estimate).toBeGreaterThan(2_500);
  const paidChars = () => (service.speechLog() as Array<{ status: number; billedChars: number }>).filter((e) => e.status === 200).reduce((n, e) => n + e.billedChars, 0);
  expect(paidChars()).toBeLessThanOrEqual(666);
  await click(popup, '[data-testid="confirm-read"]');
  await expect.poll(() => state(popup), { timeout: 60_000 }).toBe('finished');
  expect(paidChars()).toBe(estimate);
});

test('Save as MP3 on a PDF still being counted is refused: its cost is not known, and nothing is bought for it', async ({ ext, service, pages }) => {
  await ext.configure({ threshold: '1' });
  pages.putFile(`/${TEST_PDFS.book.name}`, await pdfBytes('book'), 'application/pdf');
  // The book stays counted for as long as the test needs (test builds' diagnostics hold the background's next request for pages).
  await ext.diagnostics('holdAt', 'text:more');
  const { tabId } = await ext.openTab(`${pages.url}/${TEST_PDFS.book.name}`);
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup), { timeout: 60_000 }).toBe('confirm');
  await click(popup, '[data-testid="confirm-read"]');
  await expect.poll(() => state(popup)).toMatch(/loading|playing/);
  expect(await attr(popup, 'estimate', 'data-counting')).toBe('true');
  await expect.poll(() => evaluate(popup, () => (document.querySelector('[data-testid="save-mp3"]') as HTMLButtonElement).disabled)).toBe(false);
  await click(popup, '[data-testid="save-mp3"]');
  await expect.poll(() => attr(popup, 'save-error', 'data-code')).toBe('still-counting');
  expect(await evaluate(popup, () => document.querySelectorAll('[data-testid="confirm-save"]').length)).toBe(0);
  // Nothing was bought twice, and the reading still counts (no confirmation was taken from the refused save).
  const texts = (service.speechLog() as Array<{ text: string }>).map((e) => e.text);
  expect(new Set(texts).size).toBe(texts.length);
  expect(await attr(popup, 'estimate', 'data-counting')).toBe('true');
  await ext.diagnostics('release', 'text:more');
  await click(popup, '[data-testid="stop"]');
});

test('a save longer than the audio cache keeps every part for the file, which comes out whole; saving again buys nothing', async ({ ext, firefox, service, pages }) => {
  test.setTimeout(90_000);
  service.configure({ msPerChar: 4 });
  await ext.configure({ threshold: '1000' });
  pages.put('/long.html', makeArticleHtml(6_000, 'Длинная статья'));
  const { tabId } = await ext.openTab('long.html');
  const popup = await ext.openPopup(tabId);
  const ok = () => (service.speechLog() as Array<{ status: number; text: string; billedChars: number }>).filter((e) => e.status === 200);
  await expect.poll(() => ok().length).toBeGreaterThanOrEqual(2);
  await click(popup, '[data-testid="stop"]');
  await expect.poll(() => state(popup)).toBe('stopped');
  // The cache holds a third of the reading's audio (6,000 characters at 4 ms and 48 kbit/s: about 144 KB), as
  // 64 MiB is about an hour: before, the save evicted its first parts while buying the last.
  await evaluate(await ext.extensionPage(), async () => {
    const bg = (await (globalThis as unknown as Ext).browser.runtime.getBackgroundPage()) as unknown as { tuned: Record<string, number> };
    bg.tuned = { 'audio-cache-bytes': 60_000 };
  });
  const parts = Number(await attr(popup, 'player', 'data-parts'));
  const files = () => (existsSync(firefox.downloadsDir) ? readdirSync(firefox.downloadsDir).filter((f) => f.endsWith('.mp3')).sort() : []);

  await click(popup, '[data-testid="save-mp3"]');
  await expect.poll(() => attr(popup, 'save-box', 'data-missing')).not.toBe('');
  await click(popup, '[data-testid="confirm-save"]');
  await expect.poll(files, { timeout: 30_000 }).toHaveLength(1);
  expect(await attr(popup, 'save-error', 'data-code')).toBe('');
  const paid = ok();
  expect(new Set(paid.map((e) => e.text)).size).toBe(parts);
  expect(paid).toHaveLength(parts);
  const chars = paid.reduce((n, e) => n + e.billedChars, 0);
  const file = join(firefox.downloadsDir, files()[0]!);
  await expect.poll(() => mp3Duration(new Uint8Array(readFileSync(file)))).toBeGreaterThan((chars * 4) / 1000 - 0.5);

  // Again: every part is still there, nothing is bought, and the file is the same.
  await click(popup, '[data-testid="save-mp3"]');
  await expect.poll(files, { timeout: 30_000 }).toHaveLength(2);
  await expect.poll(() => files().map((f) => readFileSync(join(firefox.downloadsDir, f)).length)).toEqual([readFileSync(file).length, readFileSync(file).length]);
  expect(ok()).toHaveLength(paid.length);
});
