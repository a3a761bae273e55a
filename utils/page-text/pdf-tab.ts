/**
 * PDFs in a tab (background): a tab showing a PDF (the browser's viewer, or any URL answering
 * `application/pdf`) is read through the extension's own PDF page, opened in that same tab. The file
 * is fetched here first, with the access the user's click gave to the tab, and handed to the page.
 */
import { browser, type Browser } from 'wxt/browser';
import { sendToPage } from '../messaging/content';
import { untilReady } from './until-ready';
import { putPdf } from '../storage/pdf-files';
import type { ExtractedText } from '../text/extract';
import { ReadingError } from '../speech/errors';
import { fetchChecked, type FetchDeps, localReachable, PDF_MAX_BYTES, readCapped, Unreachable } from '../net/bounded-fetch';
import { readSettings } from '../storage/settings';
import { originPattern } from '../speech/base-url';

export const PDF_PAGE = '/pdf.html';
export const BOOK_PAGE = '/book.html';

/** The extension's own PDF page. */
export function isPdfPage(url: string | undefined): boolean {
  return !!url && url.startsWith(browser.runtime.getURL(PDF_PAGE));
}

/** The extension's own book page. */
export function isBookPage(url: string | undefined): boolean {
  return !!url && url.startsWith(browser.runtime.getURL(BOOK_PAGE));
}

/** The extension's own document pages, which answer for their text themselves: the PDF page and the book page. */
export function isDocPage(url: string | undefined): boolean {
  return isPdfPage(url) || isBookPage(url);
}

/**
 * The address of the document in tab `tabId`, the extension's own pages included: Chromium before 156
 * hides its own pages' addresses from `tabs.get` without the "tabs" permission (the extension's PDF
 * page in a tab has an undefined `url` on 150), but lists them among the extension's contexts.
 */
export async function tabUrl(tab: Pick<Browser.tabs.Tab, 'id' | 'url' | 'pendingUrl'>): Promise<string | undefined> {
  const known = tab.url ?? tab.pendingUrl;
  if (known || tab.id === undefined || import.meta.env.FIREFOX) return known;
  try {
    const contexts = await chrome.runtime.getContexts({ contextTypes: [chrome.runtime.ContextType.TAB] });
    return contexts.find((c) => c.tabId === tab.id && c.frameId === 0)?.documentUrl;
  } catch {
    return undefined;
  }
}

/** The endings of the book files the book page opens (a link's, or one on this computer). */
export const BOOK_EXTENSIONS = ['epub', 'fb2', 'fb2.zip', 'fbz', 'mobi', 'azw3'] as const;

/** Whether `url` is one of `protocols` and its path ends as `ending` says (false for no address, or a bad one). */
function pathEnds(url: string | undefined, protocols: RegExp, ending: RegExp): boolean {
  if (!url) return false;
  try {
    const u = new URL(url);
    return protocols.test(u.protocol) && ending.test(u.pathname);
  } catch {
    return false;
  }
}

/** A URL whose path says PDF (".pdf"), on the web or on disk. */
export function looksLikePdf(url: string | undefined): boolean {
  return pathEnds(url, /^(https?|file):$/, /\.pdf$/i);
}

const BOOK_ENDING = new RegExp(`\\.(${BOOK_EXTENSIONS.map((e) => e.replace('.', '\\.')).join('|')})$`, 'i');

/** Chromium lets an extension read files only when the user allowed it; Firefox never does. */
async function mayReadFiles(): Promise<boolean> {
  return import.meta.env.FIREFOX ? false : browser.extension.isAllowedFileSchemeAccess();
}

/**
 * Where the background may fetch a tab's PDF from: the tab's own site (the click's access to it; the user
 * is looking at it), or another site the extension holds access to, on this machine or the local network only
 * when the speech service is there too. Redirects are checked hop by hop (never from a site into this machine
 * or the local network), with no cookies after the first (`fetchChecked`).
 */
export function pdfFetchDeps(tabUrl: string, fetchImpl: typeof fetch = (url, init) => fetch(url, init)): FetchDeps {
  const origin = new URL(tabUrl).origin;
  return {
    fetch: fetchImpl,
    mayReach: async (url) =>
      url.origin === origin ||
      (localReachable(url, (await readSettings()).baseUrl) && (await browser.permissions.contains({ origins: [originPattern(url.href)] }))),
  };
}

/** Whether a web URL answers with a PDF (asked with HEAD: nothing is downloaded). */
export async function servesPdf(url: string | undefined, deps?: FetchDeps): Promise<boolean> {
  if (!url || !/^https?:/i.test(url)) return false;
  try {
    const res = await fetchChecked(url, { method: 'HEAD', credentials: 'include', signal: AbortSignal.timeout(5_000) }, deps ?? pdfFetchDeps(url));
    void res.body?.cancel().catch(() => undefined);
    return /application\/pdf/i.test(res.headers.get('content-type') ?? '');
  } catch {
    return false;
  }
}

/** Starts with "%PDF-" (within the first kilobyte, where readers look for it). */
export function isPdfBytes(bytes: Uint8Array): boolean {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  return head.includes('%PDF-');
}

/**
 * The file, fetched by the background (with the access the click gave, or the extension's own); null
 * when refused. A file past `PDF_MAX_BYTES` is refused by its Content-Length, or as soon as it passes it.
 */
async function fetchHere(url: string): Promise<ArrayBuffer | 'unreachable' | null> {
  try {
    const res = await fetchChecked(url, { credentials: 'include', signal: AbortSignal.timeout(60_000) }, pdfFetchDeps(url));
    return res.ok ? (await readCapped(res, PDF_MAX_BYTES)).buffer as ArrayBuffer : null;
  } catch (err) {
    // Too big, or a redirect where the background may not go: said so (the tab's page is not asked instead).
    if (err instanceof ReadingError && (err.code === 'too-large' || err.code === 'redirect-refused' || err.code === 'permission-denied')) throw err;
    // No answer at all: the network, or a site that refused the background (the tab's page is asked next).
    return err instanceof Unreachable ? 'unreachable' : null;
  }
}

/**
 * The file, fetched by the tab's own page (same origin: its cookies, and no cross-origin rule in the
 * way) when the background could not get it. Chromium's viewer lets the click's access run this;
 * Firefox's does not (null).
 */
async function fetchInTab(tabId: number): Promise<ArrayBuffer | null> {
  try {
    const [result] = await browser.scripting.executeScript({
      target: { tabId },
      args: [PDF_MAX_BYTES],
      func: async (maxBytes: number) => {
        // The tab shows the document at its address: a redirect now would lead elsewhere.
        const res = await fetch(location.href, { credentials: 'include', redirect: 'error' });
        if (!res.ok || !res.body) return null;
        // The same bound as the background's, counted as the file comes (this runs in the page: no imports).
        if (Number(res.headers.get('Content-Length')) > maxBytes) return 'too-large';
        const reader = res.body.getReader();
        const parts: Uint8Array[] = [];
        let total = 0;
        for (let r = await reader.read(); !r.done; r = await reader.read()) {
          total += r.value.byteLength;
          if (total > maxBytes) {
            void reader.cancel();
            return 'too-large';
          }
          parts.push(r.value);
        }
        const bytes = new Uint8Array(total);
        parts.reduce((at, p) => (bytes.set(p, at), at + p.byteLength), 0);
        // Results cross as JSON: the bytes as base64.
        let binary = '';
        for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
        return btoa(binary);
      },
    });
    const base64 = result?.result;
    if (base64 === 'too-large') throw new ReadingError('too-large');
    if (typeof base64 !== 'string') return null;
    const binary = atob(base64);
    const out = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
    return out.buffer;
  } catch (err) {
    if (err instanceof ReadingError) throw err;
    return null;
  }
}

/** Fetches the PDF at `url` and opens the extension's PDF page on it in tab `tabId`. */
export async function openPdfPage(tabId: number, url: string): Promise<void> {
  const params = new URLSearchParams({ file: url });
  if (url.startsWith('file:')) {
    if (!(await mayReadFiles())) throw new ReadingError('file-access');
  } else {
    // The background's answer may be a login page (a 200 of HTML): then the tab's own page is asked.
    const here = await fetchHere(url);
    const bytes = here instanceof ArrayBuffer && isPdfBytes(new Uint8Array(here)) ? here : await fetchInTab(tabId);
    // Neither the background nor the tab's page reached the site: the reading waits for the network (issue 58).
    if (!bytes && here === 'unreachable') throw new Unreachable();
    if (!bytes) throw new ReadingError(here ? 'bad-pdf' : 'network');
    if (!isPdfBytes(new Uint8Array(bytes))) throw new ReadingError('bad-pdf');
    params.set('id', await putPdf(url, bytes));
  }
  await browser.tabs.update(tabId, { url: `${browser.runtime.getURL(PDF_PAGE)}?${params}` });
}

/** A book file open in a tab from this computer (`file://…/x.fb2`, `.epub`, `.fbz`, `.fb2.zip`, `.mobi`, `.azw3`). */
export function looksLikeLocalBook(url: string | undefined): boolean {
  return pathEnds(url, /^file:$/, BOOK_ENDING);
}

/**
 * Opens the book page on a book file shown in tab `tabId` from this computer: it reads the file itself (Chromium,
 * with "Allow access to file URLs"). Without that access (Firefox never has it) the listener is told to pick the
 * file on the book page; nothing is sent.
 */
export async function openLocalBook(tabId: number, url: string): Promise<void> {
  if (!(await mayReadFiles())) throw new ReadingError('book-file-access');
  await browser.tabs.update(tabId, { url: `${browser.runtime.getURL(BOOK_PAGE)}?${new URLSearchParams({ file: url })}` });
}

/** Codes the PDF page and the book page fail with (their errors arrive as messages). */
const PAGE_CODES = new Set(['bad-pdf', 'bad-book', 'drm', 'file-access', 'book-file-access', 'network', 'no-text', 'too-large', 'redirect-refused']);

/** Asks the PDF page (or the book page) in tab `tabId` for its text, waiting for the page to be there (it was just opened). */
export async function askPdfPage(tabId: number, timeoutMs = 20_000): Promise<ExtractedText> {
  try {
    // The page being replaced (the browser's viewer) may still answer: only the PDF page's answer counts.
    return await untilReady(() => sendToPage('extract', { mode: 'normal' }, tabId), { awaited: (text) => text.docPage === true, withinMs: timeoutMs, every: 50 });
  } catch (err) {
    const code = err instanceof Error ? err.message : '';
    throw PAGE_CODES.has(code) ? new ReadingError(code) : err;
  }
}
