/**
 * "Read this book aloud" on a link to a book file (background): the file is fetched here, with the access
 * the click gave to the tab's site (or the extension's own), under the PDFs' redirect rules and the books'
 * size bound, kept for the book page, and the book page opened on it in a tab beside the link's.
 */
import { browser, type Browser } from 'wxt/browser';
import { BOOK_MAX_BYTES, fetchChecked, readCapped } from '../net/bounded-fetch';
import { putPdf } from '../storage/pdf-files';
import { BOOK_EXTENSIONS, BOOK_PAGE, pdfFetchDeps } from './pdf-tab';
import { ignore } from '../log';

/** A link's address that names a book file (the context menu's "Read this book aloud" is shown on these). */
export const BOOK_LINK_PATTERNS = BOOK_EXTENSIONS.flatMap((ext) => [`*://*/*.${ext}`, `*://*/*.${ext}?*`]);

/** Opens the book page on the book at `linkUrl`, a link on `tab`'s page. */
export async function openBookLink(linkUrl: string, tab: Browser.tabs.Tab): Promise<void> {
  const params = new URLSearchParams({ file: linkUrl });
  // Not fetched here (another site without access, an error): the book page tries, and says what went wrong.
  const bytes = await (async () => {
    if (!tab.url || !/^https?:/i.test(linkUrl)) return null;
    const res = await fetchChecked(linkUrl, { credentials: 'include', signal: AbortSignal.timeout(60_000) }, pdfFetchDeps(tab.url));
    return res.ok ? (await readCapped(res, BOOK_MAX_BYTES)).buffer as ArrayBuffer : null;
  })().catch((err: unknown) => {
    // Past the bound, or a redirect where the extension does not go: the page is opened to say so.
    const code = (err as { code?: string }).code;
    if (code === 'too-large' || code === 'redirect-refused') params.set('error', code);
    else ignore('fetching a linked book')(err);
    return null;
  });
  if (bytes) params.set('id', await putPdf(linkUrl, bytes));
  await browser.tabs.create({ url: `${browser.runtime.getURL(BOOK_PAGE)}?${params}`, index: (tab.index ?? 0) + 1, openerTabId: tab.id });
}
