import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { isPdfBytes, looksLikePdf, openPdfPage, pdfFetchDeps, servesPdf } from './pdf-tab';
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
