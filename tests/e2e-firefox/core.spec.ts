import type { Page } from 'puppeteer-core';
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { partItemShown, scrollPartsToEnd } from '../fixtures/parts-list.ts';
import { settled } from '../fixtures/settled.ts';
import { attr, expect, state, test, type Ext } from './fixtures.ts';
import { click, evaluate } from './firefox.ts';

const num = async (popup: Page, name: string) => Number(await attr(popup, 'player', name));
type Entry = { status: number; text: string };
const paidTexts = (service: { speechLog(): unknown[] }) => (service.speechLog() as Entry[]).filter((e) => e.status === 200).map((e) => e.text);

test.describe('quick jumps', () => {
  // Synthesis at twice real time: a part streams for a while, so jumps meet requests still in flight.
  test.use({ serviceOptions: { realtimeFactor: 2, msPerChar: 20, minMs: 50, firstByteMs: 100 } });

  test('five quick presses of "next" at max_concurrency 2: never more than 2 requests in flight, no part paid twice, no error', async ({
    ext,
    service,
    pages,
  }) => {
    await ext.configure({ threshold: '1000' });
    pages.put('/long.html', makeArticleHtml(20_000));
    const { tabId } = await ext.openTab('long.html');
    const popup = await ext.openPopup(tabId);
    await expect.poll(() => state(popup)).toBe('playing');
    // Paused first, so the reading cannot move on by itself between reading the part and the presses.
    await click(popup, '[data-testid="play-pause"]');
    await expect.poll(() => state(popup)).toBe('paused');
    const from = await settled(() => num(popup, 'data-part'));
    for (let i = 0; i < 5; i++) await click(popup, '[data-testid="next"]');
    await expect.poll(() => num(popup, 'data-part')).toBe(from + 5);
    await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('playing');
    const at = await num(popup, 'data-position');
    await expect.poll(() => num(popup, 'data-position')).toBeGreaterThan(at + 1);
    expect(service.maxInFlightSeen).toBeLessThanOrEqual(2);
    expect((service.speechLog() as Entry[]).filter((e) => e.status === 429)).toHaveLength(0);
    const paid = paidTexts(service);
    expect(new Set(paid).size).toBe(paid.length);
    expect(await attr(popup, 'error', 'data-code')).toBe('');
    await click(popup, '[data-testid="stop"]');
    await expect.poll(() => state(popup)).toBe('stopped');
  });
});

test('a page of 3,000,000 characters shows its estimate, plays, and jumps to its last part', async ({ ext, service, pages }) => {
  test.setTimeout(150_000);
  service.configure({ msPerChar: 0.5, minMs: 50 });
  await ext.configure();
  pages.put('/book.html', makeArticleHtml(3_000_000, 'Целая книга'));
  const { tabId } = await ext.openTab('book.html');
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup), { timeout: 90_000 }).toBe('confirm');
  expect(Number(await attr(popup, 'estimate', 'data-chars'))).toBeGreaterThan(3_000_000);
  const parts = await num(popup, 'data-parts');
  expect(parts).toBeGreaterThan(1_400);
  expect(service.speechLog()).toHaveLength(0);
  await click(popup, '[data-testid="confirm-read"]');
  await expect.poll(() => state(popup)).toBe('playing');
  await expect.poll(() => evaluate(popup, () => document.querySelectorAll('[data-testid="part-item"]').length)).toBe(parts);
  // A long list starts folded; unfolded, it shows the part being read.
  await click(popup, 'details:has([data-testid="parts"]) > summary');
  await expect.poll(async () => evaluate(popup, partItemShown, await num(popup, 'data-part'))).toBe(true);
  // Scrolled to its end to pick the last part, it stays there while the reading moves on.
  await evaluate(popup, scrollPartsToEnd);
  const from = await num(popup, 'data-part');
  await expect.poll(() => num(popup, 'data-part')).toBeGreaterThan(from);
  expect(await evaluate(popup, partItemShown, parts - 1)).toBe(true);
  // Folded and unfolded again, it shows the part being read once more.
  await click(popup, 'details:has([data-testid="parts"]) > summary');
  await click(popup, 'details:has([data-testid="parts"]) > summary');
  await expect.poll(async () => evaluate(popup, partItemShown, await num(popup, 'data-part'))).toBe(true);
  expect(await evaluate(popup, partItemShown, parts - 1)).toBe(false);
  await evaluate(popup, scrollPartsToEnd);
  await click(popup, `[data-testid="part-item"][data-index="${parts - 1}"]`);
  await expect.poll(() => num(popup, 'data-part')).toBe(parts - 1);
  await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('finished');
  expect(await attr(popup, 'error', 'data-code')).toBe('');
  expect(paidTexts(service).at(-1)).toMatch(/[.!?…]$/);
});

test('a cache that refuses every write does not stop the reading: it plays to the end, each part paid once', async ({ ext, service, pages }) => {
  service.configure({ msPerChar: 1, minMs: 50 });
  await ext.configure({ threshold: '1000' });
  // The cache lives in the background page: its IndexedDB writes fail there as on a full disk.
  await evaluate(await ext.extensionPage(), async () => {
    const bg = (await (globalThis as unknown as Ext).browser.runtime.getBackgroundPage()) as unknown as typeof globalThis;
    const proto = bg.IDBObjectStore.prototype;
    const put = proto.put;
    proto.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      if (this.transaction.db.name === 'trysasha-audio') throw new bg.DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return put.apply(this, args);
    };
  });
  pages.put('/long.html', makeArticleHtml(6_000));
  const { tabId } = await ext.openTab('long.html');
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup), { timeout: 40_000 }).toBe('finished');
  expect(await attr(popup, 'error', 'data-code')).toBe('');
  const paid = (service.speechLog() as Entry[]).map((e) => e.text);
  expect(paid).toHaveLength(await num(popup, 'data-parts'));
  expect(new Set(paid).size).toBe(paid.length);
});
