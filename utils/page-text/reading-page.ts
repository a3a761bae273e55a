/**
 * Whether an address is the page a reading came from (pure): the mini-player and the sentence highlight go
 * only there, never to the next site the tab went on to (`showsPage` in `tab-channel.ts` asks it).
 */
import { isBookPage, isPdfPage } from './pdf-tab';

const withoutHash = (url: string) => url.split('#')[0] ?? url;

/**
 * Pure: whether the tab's address `now` is the reading's page `pageUrl` (a jump within the page, `#…`,
 * is the same page). An address the extension may no longer see (the tab went to a site it has no
 * access to) is another page. The extension's own PDF page stands for the PDF it shows (`file=`), the book
 * page for the book it shows (`book=`, the book's id).
 * A reading whose page is not known (`''`) is on no page: its title, cost and sentences go nowhere.
 */
export function samePage(now: string | undefined, pageUrl: string, pdfPage: (url: string) => boolean = isPdfPage, bookPage: (url: string) => boolean = isBookPage): boolean {
  if (!pageUrl) return false;
  if (!now) return false;
  if (pdfPage(now)) return new URL(now).searchParams.get('file') === pageUrl;
  // The book page stands for the book it shows (its `book` id), wherever the book came from.
  if (bookPage(now)) return bookPage(pageUrl) && new URL(now).searchParams.get('book') === new URL(pageUrl).searchParams.get('book');
  return withoutHash(now) === withoutHash(pageUrl);
}
