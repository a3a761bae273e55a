import { toUnicode } from 'punycode/punycode.es6.js';

/** How bare URLs in the text are read (`readUrls`): reduced to their domain, left out, or read as written (a setting). */
export type UrlReading = 'domain' | 'out' | 'read';

/** What ends a bare address (a regex class's contents): a space, a bracket or quote of the markup's or text's. */
const BARE_URL_ENDS = '\\s<>"«»\\u00a0';
/** A bare address in running text: a scheme or www., up to a space or closing punctuation. */
const BARE_URL = new RegExp(`\\b(?:https?:\\/\\/|www\\.)[^${BARE_URL_ENDS}]+[^${BARE_URL_ENDS}.,;:!?)\\]}'’”]`, 'gi');

/**
 * Bare URLs as the listener chose to hear them: `domain` reads "https://www.example.com/a/b?c=1" as
 * "example.com", `out` leaves them out, `read` reads them as written. Nobody wants a path read aloud.
 */
export function readUrls(text: string, how: UrlReading = 'domain'): string {
  if (how === 'read') return text;
  return text.replace(BARE_URL, (url) => (how === 'out' ? '' : siteOf(url)));
}

/**
 * The site of a bare address as the page writes it: no scheme, user, port, path or "www.", in lower case;
 * '' when it has no letter or digit. Not `new URL(…).hostname`: that is the host as sent on the wire
 * ("госуслуги.рф" becomes "xn--c1aubj.xn--p1ai" in every browser, and Chromium's "*" is "%2A"),
 * which nobody wants to hear, or to pay for.
 */
function siteOf(url: string): string {
  const authority = url.replace(/^https?:\/\//i, '').split(/[/?#\\]/, 1)[0] ?? '';
  const host = authority
    .slice(authority.lastIndexOf('@') + 1)
    .replace(/:\d*$/, '')
    .toLowerCase()
    .replace(/^www\./, '');
  return /[\p{L}\p{N}]/u.test(host) ? host : '';
}

/**
 * A host as people read it: the browser keeps "госуслуги.рф" as "xn--c1aapkosapc.xn--p1ai" (the page's
 * `location.hostname`), which is how a site would show in the media controls and the queue.
 */
export function siteName(host: string): string {
  try {
    return toUnicode(host);
  } catch {
    return host;
  }
}
