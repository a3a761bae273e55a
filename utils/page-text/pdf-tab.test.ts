import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { isPdfBytes, looksLikeLocalBook, looksLikePdf, openLocalBook, openPdfPage, pdfFetchDeps, servesPdf } from './pdf-tab';
import { ReadingError } from '../speech/errors';

describe('looksLikePdf', () => {
  it.each([
    ['https://example.com/paper.pdf', true],
    ['https://example.com/PAPER.PDF?download=1#page=3', true],
    ['file:///home/me/contract.pdf', true],
    ['https://example.com/paper.pdf.html', false],
    ['https://example.com/download?file=paper.pdf', false],
    ['chrome://settings/x.pdf', false],
    [undefined, false],
  ])('%s → %s', (url, yes) => {
    expect(looksLikePdf(url)).toBe(yes);
  });
});

describe('looksLikeLocalBook: a book file open in a tab from this computer', () => {
  it.each([
    ['file:///home/me/books/Чехов.fb2', true],
    ['file:///home/me/books/%D0%A7%D0%B5%D1%85%D0%BE%D0%B2.FB2.ZIP', true],
    ['file:///C:/Books/novel.epub', true],
    ['file:///home/me/a.fbz', true],
    ['file:///home/me/a.mobi', true],
    ['file:///home/me/a.azw3', true],
    ['file:///home/me/a.pdf', false],
    ['file:///home/me/a.epub.txt', false],
    ['https://example.com/a.epub', false],
    [undefined, false],
  ])('%s → %s', (url, yes) => {
    expect(looksLikeLocalBook(url)).toBe(yes);
  });
});

describe('isPdfBytes', () => {
  const bytes = (s: string) => new TextEncoder().encode(s);
  it.each([
    ['%PDF-1.7\n…', true],
    ['\n\n  %PDF-1.4', true], // leading junk is allowed by readers
    ['<!doctype html><title>Not found</title>', false],
    ['', false],
  ])('%j → %s', (s, yes) => {
    expect(isPdfBytes(bytes(s))).toBe(yes);
  });
});

describe('servesPdf', () => {
  const answering = (type: string | null, ok = true) =>
    vi.fn(async () => (ok ? new Response(null, { headers: type ? { 'content-type': type } : {} }) : Promise.reject(new TypeError('Failed to fetch'))));

  it.each([
    ['application/pdf', true],
    ['application/pdf; charset=binary', true],
    ['text/html', false],
    [null, false],
  ])('a HEAD answered %s → %s', async (type, yes) => {
    const f = answering(type);
    expect(await servesPdf('https://example.com/get?id=1', pdfFetchDeps('https://example.com/get?id=1', f as unknown as typeof fetch))).toBe(yes);
    expect(f).toHaveBeenCalledWith('https://example.com/get?id=1', expect.objectContaining({ method: 'HEAD', redirect: 'manual' }));
  });

  it('a failed request, or a URL that is not on the web, is not a PDF (and nothing is asked for the latter)', async () => {
    expect(await servesPdf('https://example.com/x', pdfFetchDeps('https://example.com/x', answering(null, false) as unknown as typeof fetch))).toBe(false);
    const f = answering('application/pdf');
    expect(await servesPdf('file:///x', pdfFetchDeps('file:///x', f as unknown as typeof fetch))).toBe(false);
    expect(f).not.toHaveBeenCalled();
  });
});

describe('openPdfPage with a file on disk', () => {
  beforeEach(() => fakeBrowser.reset());

  it('without "Allow access to file URLs" it fails with file-access, and the tab is left alone', async () => {
    const allowed = vi.fn(async () => false);
    Object.assign(fakeBrowser.extension, { isAllowedFileSchemeAccess: allowed });
    const update = vi.spyOn(fakeBrowser.tabs, 'update');
    await expect(openPdfPage(7, 'file:///home/me/contract.pdf')).rejects.toEqual(new ReadingError('file-access'));
    expect(allowed).toHaveBeenCalled();
    expect(update).not.toHaveBeenCalled();
  });
});

describe('openLocalBook: a book file open in a tab from this computer', () => {
  beforeEach(() => fakeBrowser.reset());

  it('without "Allow access to file URLs" it fails with book-file-access (pick it on the book page), and the tab is left alone', async () => {
    Object.assign(fakeBrowser.extension, { isAllowedFileSchemeAccess: vi.fn(async () => false) });
    const update = vi.spyOn(fakeBrowser.tabs, 'update');
    await expect(openLocalBook(7, 'file:///home/me/book.fb2')).rejects.toEqual(new ReadingError('book-file-access'));
    expect(update).not.toHaveBeenCalled();
  });

  it('with the access, the tab becomes the book page on that file', async () => {
    Object.assign(fakeBrowser.extension, { isAllowedFileSchemeAccess: vi.fn(async () => true) });
    const tab = await fakeBrowser.tabs.create({ url: 'file:///home/me/book.fb2' });
    const update = vi.spyOn(fakeBrowser.tabs, 'update');
    await openLocalBook(tab.id!, 'file:///home/me/Чехов.fb2');
    const url = new URL(update.mock.calls[0]![1]!.url!);
    expect(url.pathname).toBe('/book.html');
    expect(url.searchParams.get('file')).toBe('file:///home/me/Чехов.fb2');
  });
});
