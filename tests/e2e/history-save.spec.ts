import { formatRubPlain } from '../../utils/money/money.ts';
import { readFile } from 'node:fs/promises';
import { mp3Duration } from '../../utils/audio/mp3-frames.ts';
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { expect, player, test } from './fixtures.ts';

test.use({ serviceOptions: { msPerChar: 1.5, minMs: 50 } });

const plain = formatRubPlain;

test('the options page lists every paid request with per-day totals, exports CSV and clears on demand', async ({ ext, service }) => {
  await ext.configure();
  const { tabId } = await ext.openTab('sample-article.html');
  await expect(player(await ext.openPopup(tabId))).toHaveAttribute('data-state', 'finished');
  const paid = service.speechLog().filter((e) => e.status === 200);

  const options = await ext.openOptions();
  const rows = options.getByTestId('history-row');
  await expect(rows).toHaveCount(paid.length);
  for (const e of paid) {
    const row = options.locator(`[data-testid="history-row"][data-request-id="${e.id}"]`);
    await expect(row).toHaveAttribute('data-chars', String(e.billedChars));
    await expect(row).toHaveAttribute('data-value', plain(BigInt(e.costUnits)));
    await expect(row).toContainText('Как устроен голос');
  }
  const day = options.getByTestId('history-day');
  await expect(day).toHaveCount(1);
  await expect(day).toHaveAttribute('data-chars', String(paid.reduce((n, e) => n + e.billedChars, 0)));
  await expect(day).toHaveAttribute('data-value', plain(paid.reduce((n, e) => n + BigInt(e.costUnits), 0n)));
  // And per month, what the monthly spending limit counts.
  const month = options.getByTestId('history-month');
  await expect(month).toHaveCount(1);
  await expect(month).toHaveAttribute('data-month', (await day.getAttribute('data-date'))!.slice(0, 7));
  await expect(month).toHaveAttribute('data-value', plain(paid.reduce((n, e) => n + BigInt(e.costUnits), 0n)));

  const [download] = await Promise.all([options.waitForEvent('download'), options.getByTestId('export-csv').click()]);
  expect(download.suggestedFilename()).toMatch(/^trysasha-usage-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await download.path())!, 'utf8');
  const lines = csv.trim().split('\r\n');
  // Every field quoted: Excel in a Russian locale splits on ";", which a title may hold.
  expect(lines[0]).toBe('"time","title","characters","cost_rub","request_id"');
  expect(lines).toHaveLength(paid.length + 1);
  for (const e of paid) expect(csv).toContain(`,"${e.billedChars}","${plain(BigInt(e.costUnits))}","${e.id}"`);

  await options.getByTestId('clear-history').click();
  await expect(rows).toHaveCount(0);
  await expect(options.getByTestId('history')).toHaveAttribute('data-count', '0');
});

test('save as MP3: parts not fetched yet are fetched only after their cost is shown and confirmed', async ({ ext, service, pages }) => {
  service.configure({ msPerChar: 4 });
  await ext.configure({ threshold: '1000' });
  // The second part pauses mid-body for 3 s (well inside the client's stall limit): the stop lands while it
  // arrives. It is paid for, so it finishes into the cache and is not counted missing.
  service.addFault({ match: { nth: 2 }, kind: 'stall', afterBytes: 2_000, stallMs: 3_000 });
  pages.put('/long.html', makeArticleHtml(6_000));
  const { tabId } = await ext.openTab('long.html');
  const popup = await ext.openPopup(tabId);
  const p = player(popup);
  await expect.poll(() => service.speechLog().length >= 2 && service.inFlight('vk_live_test_key') > 0).toBe(true);
  await popup.getByTestId('stop').click();
  await expect(p).toHaveAttribute('data-state', 'stopped');
  const parts = Number(await p.getAttribute('data-parts'));
  const fetched = service.speechLog().length;

  await popup.getByTestId('save-mp3').click();
  const box = popup.getByTestId('save-box');
  await expect(box).toHaveAttribute('data-missing', String(parts - fetched));
  const price = 15n; // ten-thousandths of a ruble per character at 1500 ₽ per million
  const expectedMissing = (Number(await popup.getByTestId('estimate').getAttribute('data-chars')) -
    service.speechLog().reduce((n, e) => n + e.billedChars, 0));
  await expect(box).toHaveAttribute('data-value', plain(BigInt(expectedMissing) * price));
  expect(service.speechLog()).toHaveLength(fetched); // nothing fetched before the confirmation

  const [download] = await Promise.all([popup.waitForEvent('download'), popup.getByTestId('confirm-save').click()]);
  expect(download.suggestedFilename()).toBe('Длинная статья.mp3');
  const bytes = new Uint8Array(await readFile((await download.path())!));
  expect(service.speechLog()).toHaveLength(parts);
  expect(new Set(service.speechLog().map((e) => e.text)).size).toBe(parts);
  // The file holds every part: its length is the whole reading's audio (4 ms a character).
  const chars = service.speechLog().reduce((n, e) => n + e.billedChars, 0);
  expect(mp3Duration(bytes)).toBeGreaterThan((chars * 4) / 1000 - 0.5);
  // The fetched parts were paid for in this reading.
  await expect(popup.getByTestId('chars')).toHaveAttribute('data-value', String(chars));

  // Saving again costs nothing: everything is in the cache.
  const [again] = await Promise.all([popup.waitForEvent('download'), popup.getByTestId('save-mp3').click()]);
  expect((await readFile((await again.path())!)).length).toBe(bytes.length);
  expect(service.speechLog()).toHaveLength(parts);
});

test('save as MP3 right after a stop on the last part, still arriving: nothing to buy, the file waits for it and holds every part', async ({ ext, service, pages }) => {
  await ext.configure({ threshold: '1000' });
  // The second and last part pauses mid-body for 3 s: the stop and the save land while it arrives.
  service.addFault({ match: { nth: 2 }, kind: 'stall', afterBytes: 2_000, stallMs: 3_000 });
  pages.put('/two.html', makeArticleHtml(1_500));
  const { tabId } = await ext.openTab('two.html');
  const popup = await ext.openPopup(tabId);
  const p = player(popup);
  await expect(p).toHaveAttribute('data-parts', '2');
  await expect.poll(() => service.speechLog().length === 2 && service.inFlight('vk_live_test_key') === 1).toBe(true);
  await popup.getByTestId('stop').click();
  await expect(p).toHaveAttribute('data-state', 'stopped');

  // Nothing to pay for, so no cost to confirm: the file is made once the arriving part is in.
  const [download] = await Promise.all([popup.waitForEvent('download', { timeout: 20_000 }), popup.getByTestId('save-mp3').click()]);
  const bytes = new Uint8Array(await readFile((await download.path())!));
  expect(service.speechLog()).toHaveLength(2);
  expect(service.speechLog().filter((e) => e.aborted)).toEqual([]);
  const chars = service.speechLog().reduce((n, e) => n + e.billedChars, 0);
  expect(mp3Duration(bytes)).toBeGreaterThan((chars * 1.5) / 1000 - 0.5);
});

test('a save longer than the audio cache keeps every part for the file, which comes out whole; saving again buys nothing', async ({ ext, sw, service, pages }) => {
  test.setTimeout(90_000);
  service.configure({ msPerChar: 4 });
  await ext.configure({ threshold: '1000' });
  pages.put('/long.html', makeArticleHtml(6_000));
  const { tabId } = await ext.openTab('long.html');
  const popup = await ext.openPopup(tabId);
  const p = player(popup);
  await expect.poll(() => service.speechLog().filter((e) => e.status === 200).length).toBeGreaterThanOrEqual(2);
  await popup.getByTestId('stop').click();
  await expect(p).toHaveAttribute('data-state', 'stopped');
  // The cache holds a third of the reading's audio (6,000 characters at 4 ms and 48 kbit/s: about 144 KB), as
  // 64 MiB is about an hour: before, the save evicted its first parts while buying the last.
  await sw.evaluate(() => void ((globalThis as unknown as { tuned: Record<string, number> }).tuned = { 'audio-cache-bytes': 60_000 }));
  const parts = Number(await p.getAttribute('data-parts'));

  await popup.getByTestId('save-mp3').click();
  await expect(popup.getByTestId('save-box')).not.toHaveAttribute('data-missing', '');
  const [download] = await Promise.all([popup.waitForEvent('download'), popup.getByTestId('confirm-save').click()]);
  const bytes = new Uint8Array(await readFile((await download.path())!));
  await expect(popup.getByTestId('save-error')).toHaveAttribute('data-code', '');
  const paid = service.speechLog().filter((e) => e.status === 200);
  expect(new Set(paid.map((e) => e.text)).size).toBe(parts);
  expect(paid).toHaveLength(parts);
  const chars = paid.reduce((n, e) => n + e.billedChars, 0);
  expect(mp3Duration(bytes)).toBeGreaterThan((chars * 4) / 1000 - 0.5);

  // Again: every part is still there, nothing is bought, and the file is the same.
  const [again] = await Promise.all([popup.waitForEvent('download'), popup.getByTestId('save-mp3').click()]);
  expect((await readFile((await again.path())!)).length).toBe(bytes.length);
  expect(service.speechLog().filter((e) => e.status === 200)).toHaveLength(paid.length);
});
