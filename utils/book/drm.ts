/**
 * Whether an EPUB is locked by DRM (pure; runs in the book page). foliate-js reads what is not locked and
 * says nothing of what is: a book under Adobe's, Readium LCP's or Apple's DRM has these files, or an
 * `encryption.xml` that encrypts more than fonts (fonts are only obfuscated, which any reader undoes).
 */

/** The files a locked EPUB carries besides `encryption.xml`: Adobe ADEPT, Readium LCP, Apple FairPlay. */
const LOCK_FILES = ['META-INF/rights.xml', 'META-INF/license.lcpl', 'META-INF/sinf.xml'];

/** Font obfuscation (IDPF's and Adobe's): not DRM. */
const FONT_OBFUSCATION = new Set(['http://www.idpf.org/2008/embedding', 'http://ns.adobe.com/pdf/enc#RC']);

/** Whether the EPUB whose zip entries are `names` and whose `META-INF/encryption.xml` is `encryption` (null: none) is locked. */
export function epubLocked(names: readonly string[], encryption: string | null): boolean {
  if (names.some((n) => LOCK_FILES.includes(n))) return true;
  if (!encryption) return false;
  const algorithms = [...encryption.matchAll(/<(?:\w+:)?EncryptionMethod\b[^>]*\bAlgorithm\s*=\s*["']([^"']*)["']/g)].map((m) => m[1]!.trim());
  return algorithms.some((a) => !FONT_OBFUSCATION.has(a));
}
