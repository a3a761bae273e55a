/**
 * Whether a tab still shows the page a reading came from (background): the mini-player and the
 * sentence highlight go only there, never to the next site the tab went on to.
 */
import { browser } from 'wxt/browser';
import { isPdfPage, tabUrl } from './pdf-tab';

const withoutHash = (url: string) => url.split('#')[0] ?? url;

/**
 * Pure: whether the tab's address `now` is the reading's page `pageUrl` (a jump within the page, `#…`,
 * is the same page). An address the extension may no longer see (the tab went to a site it has no
 * access to) is another page. The extension's own PDF page stands for the PDF it shows (`file=`).
 * A reading whose page is not known (`''`) is on no page: its title, cost and sentences go nowhere.
 */
export function samePage(now: string | undefined, pageUrl: string, pdfPage: (url: string) => boolean = isPdfPage): boolean {
  if (!pageUrl) return false;
  if (!now) return false;
  if (pdfPage(now)) return new URL(now).searchParams.get('file') === pageUrl;
  return withoutHash(now) === withoutHash(pageUrl);
}

/**
 * Each tab's address as last looked up: a highlight is sent every sentence, and the address only changes when
 * the tab loads something (then it is looked up again). Watched from the first question on.
 */
const addresses = new Map<number, Promise<string | undefined>>();
let watching = false;

function addressOf(tabId: number): Promise<string | undefined> {
  if (!watching) {
    watching = true;
    browser.tabs.onUpdated.addListener((id, change) => {
      if (change.status === 'loading' || change.url !== undefined) addresses.delete(id);
    });
    browser.tabs.onRemoved.addListener((id) => addresses.delete(id));
  }
  let known = addresses.get(tabId);
  if (!known) {
    known = browser.tabs.get(tabId).then(tabUrl);
    addresses.set(tabId, known);
    // A tab that is gone (or not yet there) is asked again next time.
    known.catch(() => addresses.delete(tabId));
  }
  return known;
}

export async function showsPage(tabId: number, pageUrl: string): Promise<boolean> {
  try {
    return samePage(await addressOf(tabId), pageUrl);
  } catch {
    // The tab is gone.
    return false;
  }
}
