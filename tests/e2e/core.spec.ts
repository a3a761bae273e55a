import type { Page, Worker } from '@playwright/test';
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { partItemShown, scrollPartsToEnd } from '../fixtures/parts-list.ts';
import { settled } from '../fixtures/settled.ts';
import { expect, player, test } from './fixtures.ts';

const num = async (popup: Page, attr: string) => Number(await player(popup).getAttribute(attr));

/** Makes every write to the audio cache's IndexedDB fail as a full disk would (in the worker, where the cache lives). */
export const breakAudioCache = (sw: Worker) =>
  sw.evaluate(() => {
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      if (this.transaction.db.name === 'trysasha-audio') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return put.apply(this, args);
    };
  });

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
    const p = player(popup);
    await expect(p).toHaveAttribute('data-state', 'playing');
    const next = popup.getByTestId('next');
    // Paused first, so the reading cannot move on by itself between reading the part and the presses.
    await popup.getByTestId('play-pause').click();
    await expect(p).toHaveAttribute('data-state', 'paused');
    const from = await settled(() => num(popup, 'data-part'));
    for (let i = 0; i < 5; i++) await next.click();
    await expect.poll(() => num(popup, 'data-part')).toBe(from + 5);
    await expect(p).toHaveAttribute('data-state', 'playing', { timeout: 30_000 });
    // It plays on from there: the position moves.
    const at = await num(popup, 'data-position');
    await expect.poll(() => num(popup, 'data-position')).toBeGreaterThan(at + 1);
    expect(service.maxInFlightSeen).toBeLessThanOrEqual(2);
    expect(service.speechLog().filter((e) => e.status === 429)).toHaveLength(0);
    const paid = service.speechLog().filter((e) => e.status === 200).map((e) => e.text);
    expect(new Set(paid).size).toBe(paid.length);
    await expect(popup.getByTestId('error')).toHaveAttribute('data-code', '');
    await popup.getByTestId('stop').click();
    await expect(p).toHaveAttribute('data-state', 'stopped');
  });
});

test('a page of 3,000,000 characters shows its estimate, plays, and jumps to its last part', async ({ ext, service, pages }) => {
  test.setTimeout(150_000);
  service.configure({ msPerChar: 0.5, minMs: 50 });
  await ext.configure();
  pages.put('/book.html', makeArticleHtml(3_000_000, 'Целая книга'));
  const { tabId } = await ext.openTab('book.html');
  const popup = await ext.openPopup(tabId);
  const p = player(popup);
  const started = Date.now();
  await expect(p).toHaveAttribute('data-state', 'confirm', { timeout: 90_000 });
  console.log(`3,000,000 characters: estimate shown after ${Date.now() - started} ms`);
  expect(Number(await popup.getByTestId('estimate').getAttribute('data-chars'))).toBeGreaterThan(3_000_000);
  const parts = await num(popup, 'data-parts');
  expect(parts).toBeGreaterThan(1_400);
  expect(service.speechLog()).toHaveLength(0);
  await popup.getByTestId('confirm-read').click();
  await expect(p).toHaveAttribute('data-state', 'playing');
  await expect(popup.getByTestId('part-item')).toHaveCount(parts);
  // A long list starts folded; unfolded, it shows the part being read.
  await popup.locator('details:has([data-testid="parts"]) > summary').click();
  await expect.poll(async () => popup.evaluate(partItemShown, await num(popup, 'data-part'))).toBe(true);
  // Scrolled to its end to pick the last part, it stays there while the reading moves on.
  await popup.evaluate(scrollPartsToEnd);
  const from = await num(popup, 'data-part');
  await expect.poll(() => num(popup, 'data-part')).toBeGreaterThan(from);
  expect(await popup.evaluate(partItemShown, parts - 1)).toBe(true);
  // Folded and unfolded again, it shows the part being read once more.
  const summary = popup.locator('details:has([data-testid="parts"]) > summary');
  await summary.click();
  await summary.click();
  await expect.poll(async () => popup.evaluate(partItemShown, await num(popup, 'data-part'))).toBe(true);
  expect(await popup.evaluate(partItemShown, parts - 1)).toBe(false);
  await popup.evaluate(scrollPartsToEnd);
  await popup.getByTestId('part-item').last().click();
  await expect(p).toHaveAttribute('data-part', String(parts - 1));
  await expect(p).toHaveAttribute('data-state', 'finished', { timeout: 30_000 });
  const last = service.speechLog().at(-1)!;
  expect(last.status).toBe(200);
  expect(last.text).toMatch(/[.!?…]$/);
  await expect(popup.getByTestId('error')).toHaveAttribute('data-code', '');
});

test('a cache that refuses every write does not stop the reading: it plays to the end, each part paid once', async ({ ext, service, pages, sw }) => {
  service.configure({ msPerChar: 1, minMs: 50 });
  await ext.configure({ threshold: '1000' });
  await breakAudioCache(sw);
  pages.put('/long.html', makeArticleHtml(6_000));
  const { tabId } = await ext.openTab('long.html');
  const popup = await ext.openPopup(tabId);
  const p = player(popup);
  await expect(p).toHaveAttribute('data-state', 'finished', { timeout: 40_000 });
  await expect(popup.getByTestId('error')).toHaveAttribute('data-code', '');
  const paid = service.speechLog().map((e) => e.text);
  expect(paid).toHaveLength(await num(popup, 'data-parts'));
  expect(new Set(paid).size).toBe(paid.length);
  // Nothing reached the cache, so it really was refusing.
  expect(await sw.evaluate(() => new Promise((ok) => {
    const open = indexedDB.open('trysasha-audio');
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.length) return ok(0);
      const count = db.transaction(db.objectStoreNames[0]!).objectStore(db.objectStoreNames[0]!).count();
      count.onsuccess = () => ok(count.result);
    };
  }))).toBe(0);
});
