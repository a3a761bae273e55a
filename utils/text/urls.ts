import type { UrlReading } from '../storage/settings';

/** What ends a bare address (a regex class's contents): a space, a bracket or quote of the markup's or text's. */
export const BARE_URL_ENDS = '\\s<>"«»\\u00a0';
/** A bare address in running text: a scheme or www., up to a space or closing punctuation. */
const BARE_URL = new RegExp(`\\b(?:https?:\\/\\/|www\\.)[^${BARE_URL_ENDS}]+[^${BARE_URL_ENDS}.,;:!?)\\]}'’”]`, 'gi');

/**
 * Bare URLs as the listener chose to hear them: `domain` reads "https://www.example.com/a/b?c=1" as
 * "example.com", `out` leaves them out, `read` reads them as written. Nobody wants a path read aloud.
 */
export function readUrls(text: string, how: UrlReading = 'domain'): string {
  if (how === 'read') return text;
  return text.replace(BARE_URL, (url) => {
    if (how === 'out') return '';
    try {
      return new URL(/^www\./i.test(url) ? `https://${url}` : url).hostname.replace(/^www\./, '');
    } catch {
      return '';
    }
  });
}
