/**
 * Books read aloud on the extension's book page, in Firefox (issue 62): the same books and the same
 * checks as in Chromium (tests/e2e/books.spec.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mp3Duration } from '../../utils/audio/mp3-frames.ts';
import { billed, letters, inTextOrder, words } from '../fixtures/billed.ts';
import { bookBytes, longBookChapters, longFb2, oneLineSectionsFb2, shortFirstChapterFb2, sizesBound, TEST_BOOKS } from '../fixtures/books.ts';
import { RU } from '../fixtures/books/texts.ts';
import { click, evaluate } from './firefox.ts';
import { attr, contextMenu, expect, state, test, type FirefoxHelpers } from './fixtures.ts';
import type { Page } from 'puppeteer-core';
import type { PagesServer } from '../e2e/pages-server.ts';

const readingState = async (ext: FirefoxHelpers) => (await ext.readingView()).state ?? '';

async function openBookAt(ext: FirefoxHelpers, pages: PagesServer, file: string, type: string) {
  pages.putFile(`/books/${file}`, await bookBytes(file), type);
  return ext.openTab(ext.url(`book.html?file=${encodeURIComponent(`${pages.url}/books/${file}`)}`));
}

/** Clicks the table of contents' entry labelled `label`. */
/** A made-up book of three chapters of ~4,000 characters ("Глава 1" …), opened at its address. */
async function openThreeChapters(ext: FirefoxHelpers, pages: PagesServer) {
  pages.putFile('/books/three.fb2', longFb2(3, 4_000), 'application/x-fictionbook+xml');
  const opened = await ext.openTab(ext.url(`book.html?file=${encodeURIComponent(`${pages.url}/books/three.fb2`)}`));
  const page = opened.page;
  await expect.poll(() => attr(page, 'book-title', 'data-title')).toBe('Длинная книга');
  return opened;
}

async function readChapter(page: Page, label: string) {
  const index = await evaluate(page, (l: string) => [...document.querySelectorAll('[data-testid="toc-item"]')].find((b) => b.textContent?.includes(l))?.getAttribute('data-index') ?? '', label);
  expect(index).not.toBe('');
  await click(page, `[data-testid="toc-item"][data-index="${index}"]`);
}

/** The three chapters' book read from its first chapter with the sleep timer at that chapter's end: paused there. */
async function heardChapterOne(ext: FirefoxHelpers, pages: PagesServer) {
  await ext.configure({ threshold: '1000' });
  const { page, tabId } = await openThreeChapters(ext, pages);
  await readChapter(page, 'Глава 1');
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('playing');
  await expect.poll(() => evaluate(popup, () => [...(document.querySelector('[data-testid="sleep-timer"]') as HTMLSelectElement).options].map((o) => o.value))).toContain('chapter');
  await evaluate(popup, () => {
    const select = document.querySelector('[data-testid="sleep-timer"]') as HTMLSelectElement;
    select.value = 'chapter';
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await expect.poll(() => attr(popup, 'sleep-left', 'data-chapter')).toBe('true');
  await expect.poll(() => state(popup), { timeout: 40_000 }).toBe('paused');
  return { page, popup };
}

const bookText = (page: Page) => evaluate(page, () => document.querySelector('[data-testid="book-text"]')?.textContent ?? '');

for (const book of TEST_BOOKS) {
  test(`${book.file}: read from its second chapter to the end — every sentence once, in order; nothing of the first, no note, alt text or page number`, async ({ ext, service, pages }) => {
    await ext.configure({ threshold: '100' });
    const { page } = await openBookAt(ext, pages, book.file, book.type);
    await expect.poll(() => attr(page, 'book-title', 'data-title')).toBe(book.title);
    expect(await attr(page, 'book-error', 'data-code')).toBe('');
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
    await expect.poll(() => bookText(page)).toContain(book.heard.slice(-12));
  });
}

test('a book of one-line sections on a slow service reads to its end: the player, run dry at every section, is given enough to play on', async ({ ext, service, pages }) => {
  test.setTimeout(60_000);
  // The first byte of every part comes 0.6 s after its request; each part plays for 0.3 s.
  service.configure({ firstByteMs: 600 });
  await ext.configure();
  pages.putFile('/books/short.fb2', oneLineSectionsFb2(10), 'application/x-fictionbook+xml');
  const { page } = await ext.openTab(ext.url(`book.html?file=${encodeURIComponent(`${pages.url}/books/short.fb2`)}`));
  await expect.poll(() => attr(page, 'book-title', 'data-title')).toBe('Короткие главы');
  await readChapter(page, 'Глава 2');
  await expect.poll(() => readingState(ext), { timeout: 40_000 }).toBe('finished');
  const heard = Array.from({ length: 9 }, (_, i) => `Глава ${i + 2}. Ласточка летела ${i + 2} раз.`).join(' ');
  expect(words(billed(service))).toEqual(words(heard));
});

test("the sleep timer's 'at the end of this chapter': the reading pauses where the next chapter begins, nothing of it bought; play goes on into it", async ({ ext, service, pages }) => {
  test.setTimeout(60_000);
  const { popup } = await heardChapterOne(ext, pages);
  expect(await attr(popup, 'sleep-left', 'data-chapter')).toBe('false');
  // The whole first chapter was heard, and nothing of the second bought.
  const [first] = longBookChapters(3, 4_000);
  expect(words(billed(service))).toEqual(words(`Глава 1. ${first!.join(' ')}`));
  await click(popup, '[data-testid="play-pause"]');
  await expect.poll(() => billed(service), { timeout: 30_000 }).toContain('Глава 2');
});

test("the end of this chapter when the player already holds the next chapter's opening: paused where that chapter begins, resumed from its start", async ({ ext, service, pages }) => {
  test.setTimeout(60_000);
  // Six seconds of the first chapter's second part: time to set the timer while it plays, on a busy machine too.
  service.configure({ msPerChar: 60 });
  await ext.configure({ threshold: '1000' });
  pages.putFile('/books/short-first.fb2', shortFirstChapterFb2(3_000), 'application/x-fictionbook+xml');
  const { page, tabId } = await ext.openTab(ext.url(`book.html?file=${encodeURIComponent(`${pages.url}/books/short-first.fb2`)}`));
  await expect.poll(() => attr(page, 'book-title', 'data-title')).toBe('Короткая первая глава');
  await readChapter(page, 'Глава 1');
  const popup = await ext.openPopup(tabId);
  type Seen = { part?: number; partTime?: number };
  // The second chapter's opening bought (and given to the player) while the first chapter plays.
  await expect.poll(() => billed(service), { timeout: 20_000 }).toContain('Глава 2');
  expect(((await ext.readingView()) as Seen).part).toBeLessThan(2);
  await evaluate(popup, () => {
    const select = document.querySelector('[data-testid="sleep-timer"]') as HTMLSelectElement;
    select.value = 'chapter';
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await expect.poll(() => state(popup), { timeout: 15_000 }).toBe('paused');
  // Stopped where the second chapter begins: at most a moment of it played (the player may report the part it stopped before).
  const at = (await ext.readingView()) as Seen;
  expect(at.part === 1 || (at.part === 2 && at.partTime! < 0.2), JSON.stringify(at)).toBe(true);
  const bought = service.speechLog().filter((e) => e.status === 200).length;
  // Resumed: the second chapter from its start, then on into it.
  await click(popup, '[data-testid="play-pause"]');
  await expect.poll(async () => ((await ext.readingView()) as Seen).part!, { timeout: 20_000 }).toBeGreaterThan(2);
  expect(service.speechLog().filter((e) => e.status === 200).length).toBeGreaterThan(bought);
});

test('a click on a paragraph of the chapter just heard goes back to it within the reading: its audio plays from what was received, nothing bought twice', async ({ ext, service, pages }) => {
  test.setTimeout(90_000);
  const { page, popup } = await heardChapterOne(ext, pages);
  const [first, second] = longBookChapters(3, 4_000);
  const chapterOne = words(`Глава 1. ${first!.join(' ')}`);
  expect(words(billed(service))).toEqual(chapterOne);
  type Seen = { id?: string; part?: number; state?: string };
  const heard = (await ext.readingView()) as Seen;
  // Its second paragraph clicked: the same reading, gone back to the part that paragraph begins in, playing.
  await evaluate(page, (start: string) => {
    const p = [...document.querySelectorAll('[data-testid="book-text"] p')].find((el) => el.textContent?.startsWith(start));
    p?.setAttribute('data-clicked', '');
    p?.scrollIntoView();
  }, first![1]!.slice(0, 40));
  await click(page, '[data-testid="book-text"] p[data-clicked]');
  await expect.poll(async () => { const v = (await ext.readingView()) as Seen; return v.id === heard.id && v.state === 'playing' && v.part! < heard.part!; }).toBe(true);
  // Played on to where it was: the first chapter was bought once; past it, only the second chapter's opening.
  await expect.poll(async () => ((await ext.readingView()) as Seen).part!, { timeout: 40_000 }).toBeGreaterThan(heard.part!);
  await click(popup, '[data-testid="play-pause"]');
  await expect.poll(() => state(popup)).toBe('paused');
  const bought = words(billed(service));
  expect(bought.slice(0, chapterOne.length)).toEqual(chapterOne);
  expect(bought.slice(chapterOne.length)).toEqual(words(`Глава 2. ${second!.join(' ')}`).slice(0, bought.length - chapterOne.length));
});

test('Save this chapter as MP3: the chapter being read, whole, its missing parts bought once their cost is shown; nothing of the chapters around it', async ({ ext, firefox, service, pages }) => {
  test.setTimeout(60_000);
  service.configure({ msPerChar: 4 });
  await ext.configure({ threshold: '1000' });
  const { page, tabId } = await openThreeChapters(ext, pages);
  await readChapter(page, 'Глава 2');
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('playing');
  await click(popup, '[data-testid="play-pause"]');
  await expect.poll(() => state(popup)).toBe('paused');
  const files = () => (existsSync(firefox.downloadsDir) ? readdirSync(firefox.downloadsDir).filter((f) => f.endsWith('.mp3')) : []);
  await click(popup, '[data-testid="save-chapter"]');
  await expect.poll(() => attr(popup, 'save-box', 'data-missing')).not.toBe('');
  await click(popup, '[data-testid="confirm-save"]');
  await expect.poll(files, { timeout: 30_000 }).toEqual(['Длинная книга — Глава 2.mp3']);
  const [, second] = longBookChapters(3, 4_000);
  expect(words(billed(service))).toEqual(words(`Глава 2. ${second!.join(' ')}`));
  const chars = (service.speechLog() as Array<{ status: number; billedChars: number }>).filter((e) => e.status === 200).reduce((n, e) => n + e.billedChars, 0);
  await expect.poll(() => mp3Duration(new Uint8Array(readFileSync(join(firefox.downloadsDir, files()[0]!))))).toBeGreaterThan((chars * 4) / 1000 - 0.5);
  expect(await attr(popup, 'save-error', 'data-code')).toBe('');
});

test('a book kept on this computer opens again from its address with nothing picked; the options page shows it and removes it', async ({ ext, pages }) => {
  await ext.configure();
  const book = TEST_BOOKS[2]!;
  const { page } = await openBookAt(ext, pages, book.file, book.type);
  await expect.poll(() => attr(page, 'book-title', 'data-title')).toBe(book.title);
  const checked = (p: Page) => evaluate(p, () => (document.querySelector('[data-testid="keep-book"]') as HTMLInputElement | null)?.checked ?? null);
  expect(await checked(page)).toBe(false);
  await click(page, '[data-testid="keep-book"]');
  await expect.poll(() => checked(page)).toBe(true);
  // Written before the page is closed (the box is busy until then).
  await expect.poll(() => attr(page, 'keep-book', 'data-kept')).toBe('true');
  const id = new URL(page.url()).searchParams.get('book');
  expect(id).toMatch(/^[0-9a-f]{16,}$/);
  await page.close();
  // Opened again by its address alone: the kept file, not the network.
  const again = await ext.openTab(ext.url(`book.html?book=${id}`));
  await expect.poll(() => attr(again.page, 'book-title', 'data-title')).toBe(book.title);
  await expect.poll(() => checked(again.page)).toBe(true);
  await again.page.close();
  const { page: options } = await ext.openTab(ext.url('options.html'));
  await expect.poll(() => attr(options, 'kept-books', 'data-count')).toBe('1');
  expect(Number(await attr(options, 'kept-books', 'data-bytes'))).toBe((await bookBytes(book.file)).byteLength);
  await click(options, '[data-testid="clear-kept-books"]');
  await expect.poll(() => evaluate(options, () => document.querySelectorAll('[data-testid="kept-books"]').length)).toBe(0);
  const gone = await ext.openTab(ext.url(`book.html?book=${id}`));
  await expect.poll(() => attr(gone.page, 'book-bar', 'data-state')).toBe('empty');
  expect(await attr(gone.page, 'book-title', 'data-title')).toBe('');
});

test('a book picked from the computer is read the same, and a click on a paragraph reads from there', async ({ ext, service }) => {
  await ext.configure();
  const { page } = await ext.openTab(ext.url('book.html'));
  const book = TEST_BOOKS[0]!;
  const input = await page.waitForSelector('input[data-testid="book-file"]');
  await input!.uploadFile(join(import.meta.dirname, '../fixtures/books', book.file));
  await expect.poll(() => attr(page, 'book-title', 'data-title')).toBe(book.title);
  await readChapter(page, 'Апчхи');
  await expect.poll(() => readingState(ext), { timeout: 30_000 }).toBe('finished');
  const before = service.speechLog().length;
  await expect.poll(() => bookText(page)).toContain('Чихнул');
  const firstReading = (await ext.readingView()).id;
  await click(page, '[data-testid="book-text"] p:last-of-type');
  await expect.poll(async () => (await ext.readingView()).id).not.toBe(firstReading);
  await expect.poll(() => readingState(ext), { timeout: 30_000 }).toBe('finished');
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
    await expect.poll(() => attr(page, 'book-error', 'data-code')).toBe(code);
    expect(await attr(page, 'book-title', 'data-title')).toBe('');
    expect(service.speechLog()).toHaveLength(0);
  });
}

test('a book past the size bound: too-large as soon as its size is known, with nothing sent', async ({ ext, service, pages }) => {
  await ext.configure();
  pages.putHuge('/books/huge.epub', { type: 'application/epub+zip', size: 101 * 1024 * 1024, head: 'PK\x03\x04', declareLength: true });
  const { page } = await ext.openTab(ext.url(`book.html?file=${encodeURIComponent(`${pages.url}/books/huge.epub`)}`));
  await expect.poll(() => attr(page, 'book-error', 'data-code')).toBe('too-large');
  expect(service.speechLog()).toHaveLength(0);
});

test('stopped in a chapter, the book opened again offers "continue from" that chapter and second, and goes on there with nothing paid twice', async ({ ext, service, pages }) => {
  test.setTimeout(90_000);
  await ext.configure({ threshold: '100' });
  pages.putFile('/books/long.fb2', longFb2(3, 6_000), 'application/x-fictionbook+xml');
  const address = ext.url(`book.html?file=${encodeURIComponent(`${pages.url}/books/long.fb2`)}`);
  let { page, tabId } = await ext.openTab(address);
  await expect.poll(() => attr(page, 'book-title', 'data-title')).toBe('Длинная книга');
  await readChapter(page, 'Глава 2');
  let popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('playing');
  await click(popup, '[data-testid="next"]');
  await expect.poll(async () => Number(await attr(popup, 'player', 'data-position')), { timeout: 30_000 }).toBeGreaterThan(6);
  await click(popup, '[data-testid="stop"]');
  await expect.poll(() => state(popup)).toBe('stopped');
  const stopPart = await attr(popup, 'player', 'data-part');
  await popup.close();
  await page.close();
  const paid = new Set(service.speechLog().filter((e) => e.status === 200).map((e) => e.text));
  const before = service.speechLog().length;

  ({ page, tabId } = await ext.openTab(address));
  // The contents read once the book is open (before, the index was looked up in a page still loading).
  await expect.poll(() => attr(page, 'book-title', 'data-title')).toBe('Длинная книга');
  const chapterTwo = await evaluate(page, () => [...document.querySelectorAll('[data-testid="toc-item"]')].find((b) => b.textContent?.includes('Глава 2'))?.getAttribute('data-index') ?? '-');
  await expect.poll(() => attr(page, 'resume-offer', 'data-chapter')).toBe(chapterTwo);
  expect(Number(await attr(page, 'resume-offer', 'data-position'))).toBeGreaterThan(5);
  await click(page, '[data-testid="resume-offer"]');
  popup = await ext.openPopup(tabId);
  await expect.poll(() => attr(popup, 'player', 'data-part'), { timeout: 30_000 }).toBe(stopPart);
  // The part is shown as soon as it is gone to; playing once its audio is there (CI once read `loading` between).
  await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('playing');
  expect(service.speechLog().slice(before).filter((e) => paid.has(e.text))).toEqual([]);
});

test('"Read this book aloud" on a link to a book opens it on the book page beside the link’s tab, fetched by the background', async ({ ext, firefox, pages, service }) => {
  await ext.configure();
  const book = TEST_BOOKS[2]!;
  pages.putFile(`/books/${book.file}`, await bookBytes(book.file), book.type);
  pages.put('/library.html', `<!doctype html><html lang="en"><body><h1>Library</h1><p><a href="/books/${book.file}">${book.title}</a></p></body></html>`);
  const { tabId } = await ext.openTab('library.html');
  await contextMenu(ext, tabId, { menuItemId: 'read-book', linkUrl: `${pages.url}/books/${book.file}` });
  const bookPage = async () => {
    for (const p of await firefox.browser.pages()) if ((await evaluate(p, () => location.href).catch(() => '')).includes('/book.html?')) return p;
    return null;
  };
  await expect.poll(async () => !!(await bookPage()), { timeout: 15_000 }).toBe(true);
  const page = (await bookPage())!;
  // The background's copy, not the page's own download: the page's address names it.
  expect(await evaluate(page, () => location.href)).toMatch(/[?&]id=/);
  await expect.poll(() => attr(page, 'book-title', 'data-title')).toBe(book.title);
  expect(await attr(page, 'book-toc', 'data-count')).toBe('3');
  expect(service.speechLog()).toHaveLength(0);
});
