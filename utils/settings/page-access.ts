/**
 * Click-to-read's access to pages (options page): asked for when it is switched on, given up when it
 * is switched off.
 */

/** The pages click-to-read runs on: the ones the user visits (asked for when it is switched on). */
export const PAGE_ORIGINS = ['https://*/*', 'http://*/*'];

/**
 * The sites' access to ask for again after click-to-read's is given up: Chrome's `permissions.remove` of
 * a pattern takes every narrower grant with it (a service address, a queued page's site). `required`:
 * the manifest's own, which stay.
 */
export function narrowerGrants(granted: readonly string[], required: readonly string[], pageOrigins: readonly string[] = PAGE_ORIGINS): string[] {
  return granted.filter((o) => !pageOrigins.includes(o) && !required.includes(o) && /^https?:\/\//.test(o));
}
