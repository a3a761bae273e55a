/**
 * PDFs read aloud: a tab showing a PDF is read through the extension's PDF page, with what a
 * listener wants to hear (no running heads or page numbers, hyphenated words whole, columns in
 * order), a highlight on the text layer, lazily for a long book, and nothing billed for a scan.
 */
import { billed, highlightOrder, words } from '../fixtures/billed.ts';
import { recordedHighlights, recordHighlights } from '../fixtures/highlights.ts';
import { keptPdfs } from '../fixtures/kept-pdfs.ts';
import { BOOK_PAGES, pdfBytes, TEST_PDFS, type TestPdfName } from '../fixtures/pdfs.ts';
import { expect, type ExtensionHelpers, newReadingReaches, player, test } from './fixtures.ts';
import type { Page } from 'playwright-core';
import type { PagesServer } from './pages-server.ts';


/** Serves test PDF `name` (at a path ending in .pdf, or without one, as a download link might be). */
async function servePdf(pages: PagesServer, name: TestPdfName, path = `/${TEST_PDFS[name].name}`) {
  pages.putFile(new URL(path, pages.url).pathname, await pdfBytes(name), 'application/pdf');
  return path;
}

const readingState = async (ext: ExtensionHelpers) => (await ext.readingView()).state ?? '';

async function openPdfTab(ext: ExtensionHelpers, pages: PagesServer, name: TestPdfName, path?: string) {
  const served = await servePdf(pages, name, path);
  return ext.openTab(`${pages.url}${served}`);
}

for (const name of ['article', 'columns'] as const) {
  test(`${name}: the billed text is the document's text, without running heads, page numbers or broken words; the highlight follows it`, async ({ ext, service, pages }) => {
    await ext.configure();
    const { page, tabId } = await openPdfTab(ext, pages, name);
    const popup = await ext.openPopup(tabId);
    // The tab now shows the extension's PDF page (the same tab).
    await expect(page).toHaveURL(/\/pdf\.html\?/);
    await page.evaluate(recordHighlights, '.textLayer');
    await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 60_000 });
    expect(words(billed(service))).toEqual(words(TEST_PDFS[name].expected.join(' ')));
    // What was billed is what the estimate counted.
    await expect(popup.getByTestId('chars')).toHaveAttribute('data-value', (await popup.getByTestId('estimate').getAttribute('data-chars'))!);
    const seen = await page.evaluate(recordedHighlights);
    expect(seen.length).toBeGreaterThan(2);
    // The viewer followed the reading to its last page.
    const pageCount = await page.getByTestId('pdf-toolbar').getAttribute('data-pages');
    await expect(page.getByTestId('pdf-toolbar')).toHaveAttribute('data-page', pageCount!);
    expect(seen.every((h) => h.ok)).toBe(true);
    // The sentences are highlighted in reading order: each painted text is found in order in what was sent
    // (compared by letters: the text layer's runs carry no spaces between them).
    for (const h of highlightOrder(seen, billed(service))) expect(h.at, `highlight "${h.text}" in reading order`).toBeGreaterThanOrEqual(0);
  });
}

test('a URL answering application/pdf without ".pdf" in its path is read the same way, from the keyboard shortcut', async ({ ext, service, pages, sw }) => {
  await ext.configure();
  const { tabId } = await openPdfTab(ext, pages, 'article', '/download?id=7');
  await sw.evaluate(async (tabId) => {
    const handler = (globalThis as { commandHandler?: (name: string, tab: object) => Promise<void> }).commandHandler!;
    await handler('read', await chrome.tabs.get(tabId));
  }, tabId);
  await expect.poll(() => readingState(ext)).not.toBe('');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 60_000 });
  expect(words(billed(service))).toEqual(words(TEST_PDFS.article.expected.join(' ')));
});

test('a scanned PDF with no text layer ends in no-text, with nothing sent', async ({ ext, service, pages }) => {
  await ext.configure();
  const { tabId } = await openPdfTab(ext, pages, 'scanned');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'error', { timeout: 30_000 });
  await expect(popup.getByTestId('error')).toHaveAttribute('data-code', 'no-text');
  expect(service.speechLog()).toHaveLength(0);
});

test(`a ${BOOK_PAGES}-page book starts speaking before every page is counted; the estimate then grows to the whole book`, async ({ ext, service, pages }) => {
  await ext.configure({ threshold: '1' });
  const { page, tabId } = await openPdfTab(ext, pages, 'book');
  const popup = await ext.openPopup(tabId);
  // The first pages already pass the threshold: it asks while the rest is still being counted, with nothing sent.
  await expect(player(popup)).toHaveAttribute('data-state', 'confirm', { timeout: 60_000 });
  // One look at both: while counting, the parts planned are the first pages' only.
  const atConfirm = await popup.evaluate(() => ({
    counting: document.querySelector('[data-testid="estimate"]')!.getAttribute('data-counting'),
    parts: Number(document.querySelector('[data-testid="player"]')!.getAttribute('data-parts')),
  }));
  expect(atConfirm.counting).toBe('true');
  expect(service.speechLog()).toHaveLength(0);
  await popup.getByTestId('confirm-read').click();
  await expect(player(popup)).toHaveAttribute('data-state', /loading|playing/);
  const book = TEST_PDFS.book.expected;
  // The first words sent are the book's first words.
  await expect.poll(() => billed(service).length, { timeout: 30_000 }).toBeGreaterThan(0);
  const first = words(billed(service)).slice(0, 8);
  expect(words(book.join(' ')).slice(0, first.length)).toEqual(first);

  // The estimate counts the whole book in the end, each page's running head and number left out.
  await expect(popup.getByTestId('estimate')).toHaveAttribute('data-counting', 'false', { timeout: 60_000 });
  const chars = Number(await popup.getByTestId('estimate').getAttribute('data-chars'));
  const bookChars = [...book.join(' ')].length;
  expect(Math.abs(chars - bookChars)).toBeLessThan(BOOK_PAGES); // at most a space per page apart
  expect(Number(await player(popup).getAttribute('data-parts'))).toBeGreaterThan(atConfirm.parts);
  await popup.getByTestId('stop').click();
  await expect(player(popup)).toHaveAttribute('data-state', 'stopped');
  await expect(page.getByTestId('pdf-toolbar')).toHaveAttribute('data-pages', String(BOOK_PAGES));
});

test('over the threshold the PDF asks first, with nothing sent; "read pages X–Y" reads only those pages, at the cost it showed', async ({ ext, service, pages }) => {
  await ext.configure({ threshold: '0.01' });
  const { page, tabId } = await openPdfTab(ext, pages, 'article');
  let popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'confirm', { timeout: 30_000 });
  expect(service.speechLog()).toHaveLength(0);
  await popup.getByTestId('stop').click();
  await expect(player(popup)).toHaveAttribute('data-state', 'stopped');
  await popup.close();

  await expect(page.getByTestId('pdf-toolbar')).toHaveAttribute('data-state', 'ready');
  // A wide window (the bar on fewer lines): the read button stays where it is while the page in view and the range's cost change.
  await page.setViewportSize({ width: 1920, height: 900 });
  await expect(page.getByTestId('pdf-range-cost')).toHaveAttribute('data-counting', 'false');
  const readAt = await page.getByTestId('pdf-read').boundingBox();
  await page.getByTestId('pdf-from').fill('2');
  await page.getByTestId('pdf-from').press('Tab');
  // Typed, not yet left, while the bar changes (the page in view): what was typed stays.
  await page.getByTestId('pdf-to').fill('2');
  await page.locator('.page[data-page-number="3"]').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('pdf-toolbar')).toHaveAttribute('data-page', '3');
  await expect(page.getByTestId('pdf-to')).toHaveValue('2');
  await page.getByTestId('pdf-to').press('Tab');
  const cost = page.getByTestId('pdf-range-cost');
  await expect(cost).toHaveAttribute('data-to', '2');
  await expect(cost).toHaveAttribute('data-counting', 'false');
  const shownChars = await cost.getAttribute('data-chars');
  expect(await page.getByTestId('pdf-read').boundingBox()).toEqual(readAt);
  await page.getByTestId('pdf-read').click();
  // The PDF page started the reading: the popup opened now shows it (and starts none of its own).
  await expect.poll(() => readingState(ext)).toBe('confirm');
  popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'confirm', { timeout: 30_000 });
  await expect(popup.getByTestId('estimate')).toHaveAttribute('data-chars', shownChars!);
  await popup.getByTestId('confirm-read').click();
  await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 60_000 });
  const page2 = TEST_PDFS.article.expected.slice(4, 6).join(' ');
  expect(words(billed(service))).toEqual(words(page2));
  await expect(popup.getByTestId('chars')).toHaveAttribute('data-value', shownChars!);
});

test('the reading starts from the page in view, or from the text selected on the page; pages can be dark', async ({ ext, service, pages }) => {
  await ext.configure();
  const { page, tabId } = await openPdfTab(ext, pages, 'article');
  let popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', /loading|playing|finished/, { timeout: 30_000 });
  await popup.getByTestId('stop').click();
  await popup.close();

  // Page 3 in view: only what is on it and after it is read.
  await page.locator('.page[data-page-number="3"]').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('pdf-toolbar')).toHaveAttribute('data-page', '3');
  await expect(page.getByTestId('pdf-page-cost')).toHaveAttribute('data-counting', 'false');
  const page3Chars = await page.getByTestId('pdf-page-cost').getAttribute('data-chars');
  service.resetLog();
  popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 30_000 });
  expect(words(billed(service))).toEqual(words(TEST_PDFS.article.expected[6]!));
  await expect(popup.getByTestId('chars')).toHaveAttribute('data-value', page3Chars!);
  await popup.close();

  // A selection on the text layer: only it is read.
  await page.locator('.page[data-page-number="1"]').scrollIntoViewIfNeeded();
  const selected = await page.evaluate(() => {
    const spans = [...document.querySelectorAll('.page[data-page-number="1"] .textLayer span[role="presentation"]')];
    const first = spans.find((s) => s.textContent?.startsWith('Речевой'))!;
    const range = document.createRange();
    range.selectNodeContents(first);
    getSelection()!.removeAllRanges();
    getSelection()!.addRange(range);
    return getSelection()!.toString();
  });
  expect(selected.length).toBeGreaterThan(10);
  service.resetLog();
  // The page's last reading finished too: the new one is waited for, not a state the popup may show first.
  const before = (await ext.readingView()).id;
  popup = await ext.openPopup(tabId);
  await newReadingReaches(ext, before);
  await expect(player(popup)).toHaveAttribute('data-state', 'finished');
  expect(words(billed(service))).toEqual(words(selected));
  expect((await ext.readingView()).source).toBe('selection');

  // Dark pages: the drawing is inverted, the choice is kept.
  await page.getByTestId('pdf-theme').click();
  await expect(page.getByTestId('pdf-theme')).toHaveAttribute('data-theme', 'dark');
  // Waited for: the page's canvas may be drawn again (and its style applied) a moment after the switch.
  await expect.poll(() => page.locator('.page[data-page-number="1"] .canvasWrapper').evaluate((el) => getComputedStyle(el).filter)).toContain('invert');
  await page.reload();
  await expect(page.getByTestId('pdf-theme')).toHaveAttribute('data-theme', 'dark');
});

test('in the browser’s own PDF viewer, "Read selection aloud" reads the selection and leaves the viewer in place', async ({ ext, service, pages }) => {
  await ext.configure();
  const { page, tabId } = await openPdfTab(ext, pages, 'article');
  await ext.menuClick(tabId, 'Речевой синтез превращает письменный текст в звучащую речь.');
  // Watched in the worker: a popup opened after this short reading has ended would start one of its own.
  await expect.poll(() => readingState(ext), { timeout: 30_000 }).toBe('finished');
  expect(billed(service)).toBe('Речевой синтез превращает письменный текст в звучащую речь.');
  expect(page.url()).toMatch(/article\.pdf$/);
});

test('a PDF the site gives only to its own page is fetched in the tab, and read the same way', async ({ ext, service, pages }) => {
  await ext.configure();
  pages.putFile('/members/paper.pdf', await pdfBytes('article'), 'application/pdf', { pageOnly: true });
  const { tabId } = await ext.openTab(`${pages.url}/members/paper.pdf`);
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 60_000 });
  expect(words(billed(service))).toEqual(words(TEST_PDFS.article.expected.join(' ')));
});

test('a PDF whose rest cannot be counted (its page reloaded while counting) says so: what was counted is read, and the reading ends incomplete, never as if whole', async ({ ext, service, pages }) => {
  await ext.configure({ threshold: '1' });
  // The background holds its next request for pages (test builds' diagnostics) until the PDF page has reloaded.
  await ext.diagnostics('holdAt', 'text:more');
  const { page, tabId } = await openPdfTab(ext, pages, 'book');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'confirm', { timeout: 60_000 });
  await expect(popup.getByTestId('estimate')).toHaveAttribute('data-counting', 'true');
  await expect.poll(() => ext.diagnostics('reached', 'text:more')).toBeGreaterThan(0);
  const counted = await popup.getByTestId('estimate').getAttribute('data-chars');
  await page.reload();
  await expect(page.getByTestId('pdf-toolbar')).toHaveAttribute('data-pages', String(BOOK_PAGES));
  await ext.diagnostics('release', 'text:more');
  // Said at once, while it still asks: the rest could not be read.
  await expect(popup.getByTestId('notice')).toHaveAttribute('data-code', 'incomplete');
  await expect(popup.getByTestId('estimate')).toHaveAttribute('data-counting', 'false');
  await popup.getByTestId('confirm-read').click();
  await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 60_000 });
  await expect(popup.getByTestId('notice')).toHaveAttribute('data-code', 'incomplete');
  // What was read is the book's first pages, as counted before the reload, and nothing more.
  const read = words(billed(service));
  expect(read.length).toBeGreaterThan(0);
  expect(words(TEST_PDFS.book.expected.join(' ')).slice(0, read.length)).toEqual(read);
  await expect(popup.getByTestId('chars')).toHaveAttribute('data-value', counted!);
});

for (const [how, press, done] of [
  ['removing the key', 'remove-key', (o: Page) => expect(o.getByTestId('key-mask')).toHaveCount(0)],
  ['clearing the history', 'clear-history', (o: Page) => expect(o.getByTestId('history')).toHaveAttribute('data-count', '0')],
] as const) {
  test(`${how} removes the PDFs kept for the PDF page too`, async ({ ext, pages }) => {
    await ext.configure();
    const { tabId } = await openPdfTab(ext, pages, 'article');
    const popup = await ext.openPopup(tabId);
    await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 60_000 });
    const options = await ext.openOptions();
    const kept = () => options.evaluate(keptPdfs);
    expect(await kept()).toBeGreaterThan(0);
    await options.getByTestId(press).click();
    await done(options);
    await expect.poll(kept).toBe(0);
  });
}

test('a PDF whose site cannot be reached for a while: the reading waits for the network, then reads it (issue 58)', async ({ ext, service, pages }) => {
  await ext.configure();
  const { tabId } = await openPdfTab(ext, pages, 'article');
  // The tab shows the file; then its site is gone for 6 s, for the background's download and the tab's own alike.
  pages.unreachable(`/${TEST_PDFS.article.name}`, 6);
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-wait', 'network');
  await expect(player(popup)).toHaveAttribute('data-state', 'extracting');
  // Back by itself: the file is read.
  await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 60_000 });
  expect(pages.cut(`/${TEST_PDFS.article.name}`)).toBeGreaterThan(0);
  expect(words(billed(service))).toEqual(words(TEST_PDFS.article.expected.join(' ')));
});
