/**
 * Books read aloud on the extension's book page (issue 62): an FB2, a zipped FB2, an EPUB 3 and an EPUB 2,
 * each opened from an address or the picker and read from its second chapter to its end — every sentence
 * once and in order, nothing of the first chapter, no note, alt text or page number; and the files it
 * cannot read said so, with nothing sent.
 */
import { billed, letters, words } from '../fixtures/billed.ts';
import { bookBytes, TEST_BOOKS } from '../fixtures/books.ts';
import { RU } from '../fixtures/books/texts.ts';
import { expect, type ExtensionHelpers, test } from './fixtures.ts';
import type { Page } from 'playwright-core';
import type { PagesServer } from './pages-server.ts';

const readingState = async (ext: ExtensionHelpers) => (await ext.readingView()).state ?? '';

async function openBookAt(ext: ExtensionHelpers, pages: PagesServer, file: string, type: string) {
  pages.putFile(`/books/${file}`, await bookBytes(file), type);
  return ext.openTab(ext.url(`book.html?file=${encodeURIComponent(`${pages.url}/books/${file}`)}`));
}

async function readChapter(page: Page, label: string) {
  await page.getByTestId('toc-item').filter({ hasText: label }).first().click();
}

for (const book of TEST_BOOKS) {
  test(`${book.file}: read from its second chapter to the end — every sentence once, in order; nothing of the first, no note, alt text or page number`, async ({ ext, service, pages }) => {
    await ext.configure();
    const { page } = await openBookAt(ext, pages, book.file, book.type);
    await expect(page.getByTestId('book-title')).toHaveAttribute('data-title', book.title);
    await expect(page.getByTestId('book-error')).toHaveAttribute('data-code', '');
    await readChapter(page, book.second);
    await expect.poll(() => readingState(ext), { timeout: 30_000 }).toBe('finished');
    expect(words(billed(service))).toEqual(words(book.heard));
    for (const never of book.neverHeard) expect(letters(billed(service))).not.toContain(letters(never));
    // The page followed the reading to the last chapter.
    await expect(page.getByTestId('book-text')).toContainText(book.heard.slice(-12));
  });
}

test('a book picked from the computer is read the same, and a click on a paragraph reads from there', async ({ ext, service }) => {
  await ext.configure();
  const { page } = await ext.openTab(ext.url('book.html'));
  await expect(page.getByTestId('book-title')).toHaveAttribute('data-title', '');
  const book = TEST_BOOKS[0]!;
  await page.getByTestId('book-file').setInputFiles({ name: book.file, mimeType: book.type, buffer: Buffer.from(await bookBytes(book.file)) });
  await expect(page.getByTestId('book-title')).toHaveAttribute('data-title', book.title);
  // The book's last chapter shown, its only paragraph clicked: that paragraph alone is read.
  await readChapter(page, 'Апчхи');
  await expect.poll(() => readingState(ext), { timeout: 30_000 }).toBe('finished');
  const before = service.speechLog().length;
  const last = page.getByTestId('book-text').locator('p').last();
  await expect(last).toContainText('Чихнул');
  const firstReading = (await ext.readingView()).id;
  await last.click();
  await expect.poll(async () => (await ext.readingView()).id).not.toBe(firstReading);
  await expect.poll(() => readingState(ext), { timeout: 30_000 }).toBe('finished');
  // That paragraph, and nothing before it.
  const again = (service.speechLog() as { text: string }[]).slice(before).map((e) => e.text);
  expect(words(again.join(' '))).toEqual(words(RU.chapters[2]!.blocks[0]!));
});

for (const [file, code] of [
  ['not-a-book.epub', 'bad-book'],
  ['locked.epub', 'drm'],
] as const) {
  test(`${file}: ${code}, with nothing sent`, async ({ ext, service, pages }) => {
    await ext.configure();
    const { page } = await openBookAt(ext, pages, file, 'application/epub+zip');
    await expect(page.getByTestId('book-error')).toHaveAttribute('data-code', code);
    await expect(page.getByTestId('book-title')).toHaveAttribute('data-title', '');
    expect(service.speechLog()).toHaveLength(0);
  });
}

test('a book past the size bound: too-large as soon as its size is known, with nothing sent', async ({ ext, service, pages }) => {
  await ext.configure();
  pages.putHuge('/books/huge.epub', { type: 'application/epub+zip', size: 101 * 1024 * 1024, head: 'PK\x03\x04', declareLength: true });
  await ext.openTab(ext.url(`book.html?file=${encodeURIComponent(`${pages.url}/books/huge.epub`)}`)).then(async ({ page }) => {
    await expect(page.getByTestId('book-error')).toHaveAttribute('data-code', 'too-large');
  });
  expect(service.speechLog()).toHaveLength(0);
});
