/**
 * PDFs read aloud in Firefox: a tab showing a PDF in Firefox's own viewer is read through the
 * extension's PDF page, with the same text, highlight and money rules as in Chromium.
 */
import { billed, highlightOrder, words } from '../fixtures/billed.ts';
import { recordedHighlights, recordHighlights } from '../fixtures/highlights.ts';
import { keptPdfs } from '../fixtures/kept-pdfs.ts';
import { BOOK_PAGES, pdfBytes, TEST_PDFS, type TestPdfName } from '../fixtures/pdfs.ts';
import { click, evaluate } from './firefox.ts';
import { attr, expect, state, test, type FirefoxHelpers } from './fixtures.ts';
import type { Page } from 'puppeteer-core';
import type { PagesServer } from '../e2e/pages-server.ts';


async function openPdfTab(ext: FirefoxHelpers, pages: PagesServer, name: TestPdfName) {
  const path = `/${TEST_PDFS[name].name}`;
  pages.putFile(path, await pdfBytes(name), 'application/pdf');
  return ext.openTab(`${pages.url}${path}`);
}

for (const name of ['article', 'columns'] as const) {
  test(`${name} in Firefox’s viewer: the billed text is the document’s text, without running heads, page numbers or broken words; the highlight follows it`, async ({ ext, service, pages }) => {
    await ext.configure();
    const { page, tabId } = await openPdfTab(ext, pages, name);
    const popup = await ext.openPopup(tabId);
    // The tab now shows the extension's PDF page (puppeteer's page keeps the old URL: ask the page itself).
    await expect.poll(() => evaluate(page, () => location.href).catch(() => ''), { timeout: 30_000 }).toMatch(/\/pdf\.html\?/);
    await expect.poll(() => evaluate(page, () => document.readyState)).toBe('complete');
    // The popup is a tab here, not a popup over the page: the PDF's tab is brought back to the front, where it draws its pages.
    await page.bringToFront();
    await evaluate(page, recordHighlights, '.textLayer');
    await expect.poll(() => state(popup), { timeout: 60_000 }).toBe('finished');
    expect(words(billed(service))).toEqual(words(TEST_PDFS[name].expected.join(' ')));
    expect(await attr(popup, 'chars', 'data-value')).toBe(await attr(popup, 'estimate', 'data-chars'));
    const seen = await evaluate(page, recordedHighlights);
    expect(seen.length).toBeGreaterThan(2);
    expect(seen.every((h) => h.ok)).toBe(true);
    for (const h of highlightOrder(seen, billed(service))) expect(h.at, `highlight "${h.text}" in reading order`).toBeGreaterThanOrEqual(0);
  });
}

test('"read pages X–Y" keeps a page number typed while the bar changes (the page in view), and counts that range', async ({ ext, service, pages }) => {
  await ext.configure({ threshold: '0.01' });
  const { page, tabId } = await openPdfTab(ext, pages, 'article');
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('confirm');
  await click(popup, '[data-testid="stop"]');
  await expect.poll(() => state(popup)).toBe('stopped');
  await page.bringToFront();
  const bar = (name: string) => evaluate(page, (n) => document.querySelector('[data-testid="pdf-toolbar"]')?.getAttribute(n) ?? '', name);
  await expect.poll(() => bar('data-state'), { timeout: 30_000 }).toBe('ready');
  // A wide window (the bar on fewer lines): the read button stays where it is while the page in view and the range's cost change.
  await page.setViewport({ width: 1920, height: 900 });
  const rangeCost = (name: string) => attr(page, 'pdf-range-cost', name);
  await expect.poll(() => rangeCost('data-counting')).toBe('false');
  const readAt = () => evaluate(page, () => JSON.stringify(document.querySelector('[data-testid="pdf-read"]')!.getBoundingClientRect()));
  const before = await readAt();
  await click(page, '[data-testid="pdf-to"]');
  await page.keyboard.down('Control');
  await page.keyboard.press('a');
  await page.keyboard.up('Control');
  await page.keyboard.type('2');
  await evaluate(page, () => document.querySelector('.page[data-page-number="3"]')!.scrollIntoView());
  await expect.poll(() => bar('data-page')).toBe('3');
  expect(await evaluate(page, () => (document.querySelector('[data-testid="pdf-to"]') as HTMLInputElement).value)).toBe('2');
  await page.keyboard.press('Tab');
  await expect.poll(() => rangeCost('data-to')).toBe('2');
  await expect.poll(() => rangeCost('data-counting')).toBe('false');
  expect(await readAt()).toBe(before);
  expect(service.speechLog()).toHaveLength(0);
});

test('a scanned PDF ends in no-text, with nothing sent', async ({ ext, service, pages }) => {
  await ext.configure();
  const { tabId } = await openPdfTab(ext, pages, 'scanned');
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('error');
  expect(await attr(popup, 'error', 'data-code')).toBe('no-text');
  expect(service.speechLog()).toHaveLength(0);
});

test(`a ${BOOK_PAGES}-page book asks after its first pages and speaks at once when agreed, while the rest is counted`, async ({ ext, service, pages }) => {
  await ext.configure({ threshold: '1' });
  const { tabId } = await openPdfTab(ext, pages, 'book');
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup), { timeout: 60_000 }).toBe('confirm');
  expect(await attr(popup, 'estimate', 'data-counting')).toBe('true');
  expect(service.speechLog()).toHaveLength(0);
  await click(popup, '[data-testid="confirm-read"]');
  await expect.poll(() => billed(service).length, { timeout: 60_000 }).toBeGreaterThan(0);
  const first = words(billed(service)).slice(0, 8);
  expect(words(TEST_PDFS.book.expected.join(' ')).slice(0, first.length)).toEqual(first);
  await expect.poll(() => attr(popup, 'estimate', 'data-counting'), { timeout: 60_000 }).toBe('false');
  const chars = Number(await attr(popup, 'estimate', 'data-chars'));
  expect(Math.abs(chars - [...TEST_PDFS.book.expected.join(' ')].length)).toBeLessThan(BOOK_PAGES);
  await click(popup, '[data-testid="stop"]');
  await expect.poll(() => state(popup)).toBe('stopped');
});

test('in Firefox’s own PDF viewer, "Read selection aloud" reads the selection and leaves the viewer in place', async ({ ext, service, pages }) => {
  await ext.configure();
  const { tabId } = await openPdfTab(ext, pages, 'article');
  await ext.menuClick(tabId, 'Речевой синтез превращает письменный текст в звучащую речь.');
  // Watched in the background: a popup opened after this short reading has ended would start one of its own.
  await expect.poll(async () => (await ext.readingView()).state, { timeout: 30_000 }).toBe('finished');
  expect(billed(service)).toBe('Речевой синтез превращает письменный текст в звучащую речь.');
  const url = await evaluate(await ext.extensionPage(), async (id: number) => (await (globalThis as unknown as { browser: typeof chrome }).browser.tabs.get(id)).url ?? '', tabId);
  expect(url).not.toMatch(/pdf\.html/);
});

test('a PDF whose rest cannot be counted (its page reloaded while counting) says so: what was counted is read, and the reading ends incomplete', async ({ ext, service, pages }) => {
  await ext.configure({ threshold: '1' });
  // The background holds its next request for pages (test builds' diagnostics) until the PDF page has reloaded.
  await ext.diagnostics('holdAt', 'text:more');
  const { page, tabId } = await openPdfTab(ext, pages, 'book');
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup), { timeout: 60_000 }).toBe('confirm');
  expect(await attr(popup, 'estimate', 'data-counting')).toBe('true');
  await expect.poll(() => ext.diagnostics('reached', 'text:more')).toBeGreaterThan(0);
  const counted = await attr(popup, 'estimate', 'data-chars');
  await evaluate(page, () => location.reload());
  await expect.poll(() => evaluate(page, () => document.querySelector('[data-testid="pdf-toolbar"]')?.getAttribute('data-pages') ?? '').catch(() => ''), { timeout: 30_000 }).toBe(String(BOOK_PAGES));
  await ext.diagnostics('release', 'text:more');
  // Said at once, while it still asks: the rest could not be read.
  await expect.poll(() => attr(popup, 'notice', 'data-code')).toBe('incomplete');
  expect(await attr(popup, 'estimate', 'data-counting')).toBe('false');
  await click(popup, '[data-testid="confirm-read"]');
  await expect.poll(() => state(popup), { timeout: 60_000 }).toBe('finished');
  expect(await attr(popup, 'notice', 'data-code')).toBe('incomplete');
  const read = words(billed(service));
  expect(read.length).toBeGreaterThan(0);
  expect(words(TEST_PDFS.book.expected.join(' ')).slice(0, read.length)).toEqual(read);
  expect(await attr(popup, 'chars', 'data-value')).toBe(counted);
});

for (const [how, press, done] of [
  ['removing the key', 'remove-key', (o: Page) => evaluate(o, () => document.querySelectorAll('[data-testid="key-mask"]').length === 0)],
  ['clearing the history', 'clear-history', (o: Page) => evaluate(o, () => document.querySelector('[data-testid="history"]')?.getAttribute('data-count') === '0')],
] as const) {
  test(`${how} removes the PDFs kept for the PDF page too`, async ({ ext, pages }) => {
    await ext.configure();
    const { tabId } = await openPdfTab(ext, pages, 'article');
    const popup = await ext.openPopup(tabId);
    await expect.poll(() => state(popup), { timeout: 60_000 }).toBe('finished');
    const options = await ext.openOptions();
    const kept = () => evaluate(options, keptPdfs);
    expect(await kept()).toBeGreaterThan(0);
    await click(options, `[data-testid="${press}"]`);
    await expect.poll(() => done(options)).toBe(true);
    await expect.poll(kept).toBe(0);
  });
}

test('a PDF whose site cannot be reached for a while: the reading waits for the network, then reads it (issue 58)', async ({ ext, service, pages }) => {
  await ext.configure();
  const { tabId } = await openPdfTab(ext, pages, 'article');
  // The tab shows the file; then its site is gone for 6 s.
  pages.unreachable(`/${TEST_PDFS.article.name}`, 6);
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => attr(popup, 'player', 'data-wait')).toBe('network');
  expect(await state(popup)).toBe('extracting');
  // Back by itself: the file is read.
  await expect.poll(() => state(popup), { timeout: 60_000 }).toBe('finished');
  expect(pages.cut(`/${TEST_PDFS.article.name}`)).toBeGreaterThan(0);
  expect(words(billed(service))).toEqual(words(TEST_PDFS.article.expected.join(' ')));
});
