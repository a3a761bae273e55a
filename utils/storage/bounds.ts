/**
 * How long anything the extension stores may be, when a page can make it as long as it likes (its address,
 * its title, its site's name). storage.local holds 10 MB in all: five readings of pages with 2 MB addresses
 * filled it, and then every history write failed (issue 45). An address is kept as a hash where it is only
 * matched (the same page again), and cut where it is only shown. Pure: the background, the pages and the
 * tests use it alike, with no browser API.
 */
import { boundTitle, TITLE_MAX } from '../text/title';

export { TITLE_MAX };

/** An address kept only to be shown is cut to this many characters (browsers' address bars show fewer). */
export const URL_SHOWN_MAX = 2_048;
/**
 * A queued page is fetched by its address when its turn comes, so that address is kept whole, never cut:
 * an address longer than this is refused when added (real articles' addresses are far shorter).
 */
export const QUEUE_URL_MAX = 8_192;
/** A site's name as stored (a host name has at most 253 characters; the reader keeps 100 of a site's name). */
export const SITE_MAX = 100;
/** Strings the extension or the service made (entry ids, request ids, reading ids): a longer one is not one of ours. */
export const ID_MAX = 200;
/** A money amount as stored ("0.0630"): a longer one is not one the service sent. */
export const MONEY_MAX = 32;
/** The hash an address (or a part's text) is matched by: FNV-1a 64, as 16 hex digits. */
export const HASH_CHARS = 16;

const HASH_PATTERN = /^[0-9a-f]{16}$/;

/** Whether `value` is a hash as `hashOf` makes it (else an older value, kept whole, to be hashed when read). */
export const isHash = (value: string): boolean => HASH_PATTERN.test(value);

const encoder = new TextEncoder();
/** Long strings hashed lately: a long address is hashed again every few seconds while its page is read. */
const lately = new Map<string, string>();
const LATELY_FROM = 1_024;
const LATELY_KEPT = 4;

/**
 * FNV-1a 64 of `value`'s UTF-8, as 16 hex digits: synchronous (the background decides on it inside a click),
 * the same in every context; slow for a 2 MB address, which is then kept for the next time. Not a secret's hash: it only tells
 * stored places apart, and what is found by it is checked again (a resume point by its part's text).
 */
export function hashOf(value: string): string {
  const known = value.length >= LATELY_FROM ? lately.get(value) : undefined;
  if (known) return known;
  // 64 bits as four 16-bit limbs (h0 lowest): every product stays well inside a double's exact integers.
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  const bytes = encoder.encode(value);
  for (let i = 0; i < bytes.length; i++) {
    h0 ^= bytes[i]!;
    // × 0x100000001b3 = × 0x1b3, plus the value shifted 40 bits up (into the two top limbs).
    const t0 = h0 * 0x1b3;
    let t1 = h1 * 0x1b3;
    let t2 = h2 * 0x1b3 + (h0 << 8);
    const t3 = h3 * 0x1b3 + (h1 << 8);
    t1 += t0 >>> 16;
    h0 = t0 & 0xffff;
    t2 += t1 >>> 16;
    h1 = t1 & 0xffff;
    h3 = (t3 + (t2 >>> 16)) & 0xffff;
    h2 = t2 & 0xffff;
  }
  const hash = [h3, h2, h1, h0].map((h) => h.toString(16).padStart(4, '0')).join('');
  if (value.length >= LATELY_FROM) {
    lately.set(value, hash);
    if (lately.size > LATELY_KEPT) lately.delete(lately.keys().next().value!);
  }
  return hash;
}

/** SHA-256 of `value`'s UTF-8, as 64 hex digits: where the match guards something (which file a page is handed) and waiting is fine. */
export async function sha256Of(value: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(value)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** `text` cut to `max` characters, with an ellipsis (never half a surrogate pair); shorter text unchanged. */
export function boundText(text: string, max: number): string {
  return boundTitle(text, max);
}

/** An address as stored: its hash, to find the same page again, and its start, to show. */
export interface BoundUrl {
  hash: string;
  shown: string;
}

export function boundUrl(url: string): BoundUrl {
  return { hash: hashOf(url), shown: boundText(url, URL_SHOWN_MAX) };
}

/** A string read back from storage, bounded: cut to `max` when longer; null when it is not a string at all. */
export function storedText(value: unknown, max: number): string | null {
  return typeof value === 'string' ? boundText(value, max) : null;
}

/** A number read back from storage: null unless finite and at least `min`. */
export function storedNumber(value: unknown, min = -Infinity): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= min ? value : null;
}

/**
 * A record of hashes by short keys as stored (the background's tab record: each tab's address hash): values
 * that are not a hash dropped (an earlier version kept the address whole), keys longer than ID_MAX dropped,
 * the last `kept` entries kept.
 */
export function hashesOf(value: unknown, kept: number): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const entries = Object.entries(value).filter((e): e is [string, string] => e[0].length <= ID_MAX && typeof e[1] === 'string' && isHash(e[1]));
  return Object.fromEntries(entries.slice(-kept));
}
