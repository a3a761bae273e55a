/**
 * Books read aloud on the extension's book page (issue 62): an FB2, a zipped FB2, an EPUB 3 and an EPUB 2,
 * each opened from an address or the picker and read from its second chapter to its end — every sentence
 * once and in order, nothing of the first chapter, no note, alt text or page number; and the files it
 * cannot read said so, with nothing sent.
 */
import { readFile } from 'node:fs/promises';
import { mp3Duration } from '../../utils/audio/mp3-frames.ts';
import { billed, letters, inTextOrder, words } from '../fixtures/billed.ts';
import { bookBytes, longBookChapters, longFb2, oneLineSectionsFb2, shortFirstChapterFb2, sizesBound, TEST_BOOKS } from '../fixtures/books.ts';
import { RU } from '../fixtures/books/texts.ts';
import { expect, type ExtensionHelpers, menuItemExists, player, test } from './fixtures.ts';
import type { Page } from 'playwright-core';
import type { PagesServer } from './pages-server.ts';

const readingState = async (ext: ExtensionHelpers) => (await ext.readingView()).state ?? '';

async function openBookAt(ext: ExtensionHelpers, pages: PagesServer, file: string, type: string) {
  pages.putFile(`/books/${file}`, await bookBytes(file), type);
  return ext.openTab(ext.url(`book.html?file=${encodeURIComponent(`${pages.url}/books/${file}`)}`));
}

/** A made-up book of three chapters of ~4,000 characters ("Глава 1" …), opened at its address. */
async function openThreeChapters(ext: ExtensionHelpers, pages: PagesServer) {
  pages.putFile('/books/three.fb2', longFb2(3, 4_000), 'application/x-fictionbook+xml');
  const opened = await ext.openTab(ext.url(`book.html?file=${encodeURIComponent(`${pages.url}/books/three.fb2`)}`));
  const page = opened.page;
  await expect(page.getByTestId('book-title')).toHaveAttribute('data-title', 'Длинная книга');
  return opened;
}

async function readChapter(page: Page, label: string) {
  await page.getByTestId('toc-item').filter({ hasText: label }).first().click();
}

/** The three chapters' book read from its first chapter with the sleep timer at that chapter's end: paused there. */
async function heardChapterOne(ext: ExtensionHelpers, pages: PagesServer) {
  await ext.configure({ threshold: '1000' });
  const { page, tabId } = await openThreeChapters(ext, pages);
  await readChapter(page, 'Глава 1');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'playing');
  await popup.getByTestId('sleep-timer').selectOption('chapter');
  await expect(popup.getByTestId('sleep-left')).toHaveAttribute('data-chapter', 'true');
  await expect(player(popup)).toHaveAttribute('data-state', 'paused', { timeout: 40_000 });
  return { page, popup };
}

for (const book of TEST_BOOKS) {
  test(`${book.file}: read from its second chapter to the end — every sentence once, in order; nothing of the first, no note, alt text or page number`, async ({ ext, service, pages }) => {
    await ext.configure({ threshold: '100' });
    const { page } = await openBookAt(ext, pages, book.file, book.type);
    await expect(page.getByTestId('book-title')).toHaveAttribute('data-title', book.title);
    await expect(page.getByTestId('book-error')).toHaveAttribute('data-code', '');
    // The rest of the book is counted while it plays; the count is held here (test builds' diagnostics).
    await ext.diagnostics('holdAt', 'text:more');
    await readChapter(page, book.second);
    if (sizesBound(book.file)) {
      // Its sections' sizes bound what it can bill, under the threshold: it plays before the rest is counted.
      await expect.poll(() => readingState(ext), { timeout: 30_000 }).toMatch(/^(playing|finished)$/);
    } else {
      // A MOBI's do not: nothing is sent until the rest is counted.
      await expect.poll(() => ext.diagnostics('reached', 'text:more'), { timeout: 30_000 }).toBeGreaterThan(0);
      expect(service.speechLog()).toHaveLength(0);
    }
    await ext.diagnostics('release', 'text:more');
    await expect.poll(() => readingState(ext), { timeout: 30_000 }).toBe('finished');
    expect(words(billed(service))).toEqual(words(book.heard));
    for (const never of book.neverHeard) expect(letters(billed(service))).not.toContain(letters(never));
    // The page followed the reading to the last chapter.
    await expect(page.getByTestId('book-text')).toContainText(book.heard.slice(-12));
  });
}

test('a book of one-line sections on a slow service reads to its end: the player, run dry at every section, is given enough to play on', async ({ ext, service, pages }) => {
  test.setTimeout(60_000);
  // The first byte of every part comes 0.6 s after its request; each part plays for 0.3 s.
  service.configure({ firstByteMs: 600 });
  await ext.configure();
  pages.putFile('/books/short.fb2', oneLineSectionsFb2(10), 'application/x-fictionbook+xml');
  const { page } = await ext.openTab(ext.url(`book.html?file=${encodeURIComponent(`${pages.url}/books/short.fb2`)}`));
  await expect(page.getByTestId('book-title')).toHaveAttribute('data-title', 'Короткие главы');
  await readChapter(page, 'Глава 2');
  await expect.poll(() => readingState(ext), { timeout: 40_000 }).toBe('finished');
  const heard = Array.from({ length: 9 }, (_, i) => `Глава ${i + 2}. Ласточка летела ${i + 2} раз.`).join(' ');
  expect(words(billed(service))).toEqual(words(heard));
});

test("the sleep timer's 'at the end of this chapter': the reading pauses where the next chapter begins, nothing of it bought; play goes on into it", async ({ ext, service, pages }) => {
  test.setTimeout(60_000);
  const { popup } = await heardChapterOne(ext, pages);
  await expect(popup.getByTestId('sleep-left')).toHaveAttribute('data-chapter', 'false');
  // The whole first chapter was heard, and nothing of the second bought.
  const [first] = longBookChapters(3, 4_000);
  expect(words(billed(service))).toEqual(words(`Глава 1. ${first!.join(' ')}`));
  await popup.getByTestId('play-pause').click();
  await expect.poll(() => billed(service), { timeout: 30_000 }).toContain('Глава 2');
});

test("the end of this chapter when the player already holds the next chapter's opening: paused where that chapter begins, resumed from its start", async ({ ext, service, pages }) => {
  test.setTimeout(60_000);
  // Six seconds of the first chapter's second part: time to set the timer while it plays, on a busy machine too.
  service.configure({ msPerChar: 60 });
  await ext.configure({ threshold: '1000' });
  pages.putFile('/books/short-first.fb2', shortFirstChapterFb2(3_000), 'application/x-fictionbook+xml');
  const { page, tabId } = await ext.openTab(ext.url(`book.html?file=${encodeURIComponent(`${pages.url}/books/short-first.fb2`)}`));
  await expect(page.getByTestId('book-title')).toHaveAttribute('data-title', 'Короткая первая глава');
  await readChapter(page, 'Глава 1');
  const popup = await ext.openPopup(tabId);
  // The second chapter's opening bought (and given to the player) while the first chapter plays.
  await expect.poll(() => billed(service), { timeout: 20_000 }).toContain('Глава 2');
  expect(((await ext.readingView()) as { part?: number }).part).toBeLessThan(2);
  await popup.getByTestId('sleep-timer').selectOption('chapter');
  await expect(player(popup)).toHaveAttribute('data-state', 'paused', { timeout: 15_000 });
  // Stopped where the second chapter begins: at most a moment of it played (the player may report the part it stopped before).
  const at = (await ext.readingView()) as { part?: number; partTime?: number };
  expect(at.part === 1 || (at.part === 2 && at.partTime! < 0.2), JSON.stringify(at)).toBe(true);
  const bought = service.speechLog().filter((e) => e.status === 200).length;
  // Resumed: the second chapter from its start, then on into it.
  await popup.getByTestId('play-pause').click();
  await expect.poll(async () => ((await ext.readingView()) as { part?: number }).part!, { timeout: 20_000 }).toBeGreaterThan(2);
  expect(service.speechLog().filter((e) => e.status === 200).length).toBeGreaterThan(bought);
});

test('a click on a paragraph of the chapter just heard goes back to it within the reading: its audio plays from what was received, nothing bought twice', async ({ ext, service, pages }) => {
  test.setTimeout(90_000);
  const { page, popup } = await heardChapterOne(ext, pages);
  const [first, second] = longBookChapters(3, 4_000);
  const chapterOne = words(`Глава 1. ${first!.join(' ')}`);
  expect(words(billed(service))).toEqual(chapterOne);
  const heard = (await ext.readingView()) as { id?: string; part?: number };
  // Its second paragraph clicked: the same reading, gone back to the part that paragraph begins in, playing.
  await page.getByTestId('book-text').locator('p').filter({ hasText: first![1]!.slice(0, 40) }).first().click();
  await expect.poll(async () => { const v = (await ext.readingView()) as { id?: string; part?: number; state?: string }; return v.id === heard.id && v.state === 'playing' && v.part! < heard.part!; }).toBe(true);
  // Played on to where it was: the first chapter was bought once; past it, only the second chapter's opening.
  await expect.poll(async () => ((await ext.readingView()) as { part?: number }).part!, { timeout: 40_000 }).toBeGreaterThan(heard.part!);
  await popup.getByTestId('play-pause').click();
  await expect(player(popup)).toHaveAttribute('data-state', 'paused');
  const bought = words(billed(service));
  expect(bought.slice(0, chapterOne.length)).toEqual(chapterOne);
  expect(bought.slice(chapterOne.length)).toEqual(words(`Глава 2. ${second!.join(' ')}`).slice(0, bought.length - chapterOne.length));
});

test('Save this chapter as MP3: the chapter being read, whole, its missing parts bought once their cost is shown; nothing of the chapters around it', async ({ ext, service, pages }) => {
  test.setTimeout(60_000);
  service.configure({ msPerChar: 4 });
  await ext.configure({ threshold: '1000' });
  const { page, tabId } = await openThreeChapters(ext, pages);
  await readChapter(page, 'Глава 2');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'playing');
  await popup.getByTestId('play-pause').click();
  await expect(player(popup)).toHaveAttribute('data-state', 'paused');
  await popup.getByTestId('save-chapter').click();
  await expect(popup.getByTestId('save-box')).not.toHaveAttribute('data-missing', '');
  const [download] = await Promise.all([popup.waitForEvent('download'), popup.getByTestId('confirm-save').click()]);
  expect(download.suggestedFilename()).toBe('Длинная книга — Глава 2.mp3');
  const [, second] = longBookChapters(3, 4_000);
  expect(words(billed(service))).toEqual(words(`Глава 2. ${second!.join(' ')}`));
  const chars = (service.speechLog() as Array<{ status: number; billedChars: number }>).filter((e) => e.status === 200).reduce((n, e) => n + e.billedChars, 0);
  expect(mp3Duration(new Uint8Array(await readFile((await download.path())!)))).toBeGreaterThan((chars * 4) / 1000 - 0.5);
  await expect(popup.getByTestId('save-error')).toHaveAttribute('data-code', '');
});

test('a book kept on this computer opens again from its address with nothing picked; the options page shows it and removes it', async ({ ext, pages }) => {
  await ext.configure();
  const book = TEST_BOOKS[2]!;
  const { page } = await openBookAt(ext, pages, book.file, book.type);
  await expect(page.getByTestId('book-title')).toHaveAttribute('data-title', book.title);
  await expect(page.getByTestId('keep-book')).not.toBeChecked();
  await page.getByTestId('keep-book').check();
  await expect(page.getByTestId('keep-book')).toBeChecked();
  // Written before the page is closed (the box is busy until then).
  await expect(page.getByTestId('keep-book')).toHaveAttribute('data-kept', 'true');
  await expect(page.getByTestId('keep-book')).toBeEnabled();
  const id = new URL(page.url()).searchParams.get('book');
  expect(id).toMatch(/^[0-9a-f]{16,}$/);
  await page.close();
  // Opened again by its address alone: the kept file, not the network.
  const again = await ext.openTab(ext.url(`book.html?book=${id}`));
  await expect(again.page.getByTestId('book-title')).toHaveAttribute('data-title', book.title);
  await expect(again.page.getByTestId('keep-book')).toBeChecked();
  await again.page.close();
  const { page: options } = await ext.openTab(ext.url('options.html'));
  await expect(options.getByTestId('kept-books')).toHaveAttribute('data-count', '1');
  expect(Number(await options.getByTestId('kept-books').getAttribute('data-bytes'))).toBe((await bookBytes(book.file)).byteLength);
  await options.getByTestId('clear-kept-books').click();
  await expect(options.getByTestId('kept-books')).toHaveCount(0);
  // Removed: the address opens the page asking for the file.
  const gone = await ext.openTab(ext.url(`book.html?book=${id}`));
  await expect(gone.page.getByTestId('book-bar')).toHaveAttribute('data-state', 'empty');
  await expect(gone.page.getByTestId('book-title')).toHaveAttribute('data-title', '');
});

test('a book picked from the computer is read the same, and a click on a paragraph reads from there', async ({ ext, service, context }) => {
  await ext.configure();
  // The book page is reached from the popup's "Open a book…" (over a blank tab: nothing there to read).
  const { tabId: someTab } = await ext.openTab('about:blank');
  const popup = await ext.openPopup(someTab);
  const opened = context.waitForEvent('page', (p) => p.url().endsWith('/book.html'));
  await popup.getByTestId('open-book').click();
  const page = await opened;
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
  const paragraph = RU.chapters[2]!.blocks[0]!;
  expect(words(inTextOrder(again, paragraph).join(' '))).toEqual(words(paragraph));
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

test('stopped in a chapter, the book opened again offers "continue from" that chapter and second, and goes on there with nothing paid twice', async ({ ext, service, pages }) => {
  test.setTimeout(90_000);
  // The whole book costs more than the usual threshold: read without asking (asking is tested with the PDFs).
  await ext.configure({ threshold: '100' });
  pages.putFile('/books/long.fb2', longFb2(3, 6_000), 'application/x-fictionbook+xml');
  const address = ext.url(`book.html?file=${encodeURIComponent(`${pages.url}/books/long.fb2`)}`);
  let { page, tabId } = await ext.openTab(address);
  await expect(page.getByTestId('book-title')).toHaveAttribute('data-title', 'Длинная книга');
  await readChapter(page, 'Глава 2');
  let popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'playing', { timeout: 30_000 });
  await popup.getByTestId('next').click();
  await expect.poll(async () => Number(await player(popup).getAttribute('data-position')), { timeout: 30_000 }).toBeGreaterThan(6);
  await popup.getByTestId('stop').click();
  await expect(player(popup)).toHaveAttribute('data-state', 'stopped');
  const stopPart = (await player(popup).getAttribute('data-part'))!;
  await popup.close();
  await page.close();
  const paid = new Set(service.speechLog().filter((e) => e.status === 200).map((e) => e.text));
  const before = service.speechLog().length;

  ({ page, tabId } = await ext.openTab(address));
  const offer = page.getByTestId('resume-offer');
  await expect(offer).toHaveAttribute('data-chapter', (await page.getByTestId('toc-item').filter({ hasText: 'Глава 2' }).getAttribute('data-index')) ?? '-');
  expect(Number(await offer.getAttribute('data-position'))).toBeGreaterThan(5);
  await offer.click();
  popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-part', stopPart, { timeout: 30_000 });
  await expect(player(popup)).toHaveAttribute('data-state', 'playing');
  // Nothing received before was paid for again.
  expect(service.speechLog().slice(before).filter((e) => paid.has(e.text))).toEqual([]);
});

test('"Read this book aloud" on a link to a book opens it on the book page beside the link’s tab, fetched by the background', async ({ ext, sw, context, pages, service }) => {
  await ext.configure();
  const book = TEST_BOOKS[2]!;
  pages.putFile(`/books/${book.file}`, await bookBytes(book.file), book.type);
  pages.put('/library.html', `<!doctype html><html lang="en"><body><h1>Library</h1><p><a href="/books/${book.file}">${book.title}</a></p></body></html>`);
  const { tabId } = await ext.openTab('library.html');
  expect(await menuItemExists(sw, 'read-book')).toBe(true);
  const opened = context.waitForEvent('page', (p) => p.url().includes('/book.html?'));
  await sw.evaluate(
    async ({ tabId, linkUrl }) => {
      const tab = await chrome.tabs.get(tabId);
      (globalThis as unknown as { contextMenuClick(i: object, t: object): void }).contextMenuClick({ menuItemId: 'read-book', editable: false, pageUrl: tab.url, linkUrl }, tab);
    },
    { tabId, linkUrl: `${pages.url}/books/${book.file}` },
  );
  const page = await opened;
  // The background's copy, not the page's own download: the page's address names it.
  await expect(page).toHaveURL(/[?&]id=/);
  await expect(page.getByTestId('book-title')).toHaveAttribute('data-title', book.title);
  await expect(page.getByTestId('book-toc')).toHaveAttribute('data-count', '3');
  expect(service.speechLog()).toHaveLength(0);
});
