/**
 * What kind of book a file is, from its first bytes (pure; runs in the book page). The name is only a hint
 * the bytes never contradict: a zip is an EPUB when it has `META-INF/container.xml`, a zipped FB2 when it
 * holds an `.fb2` (decided once its entries are listed, `open-book.ts`).
 */
export type BookKind = 'zip' | 'fb2' | 'mobi' | 'kindle-drm' | 'kindle-other' | 'unknown';

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/** The kind of file whose first bytes (at least 4 KB when the file has them) are `head`. */
export function sniffBook(head: Uint8Array): BookKind {
  if (head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return 'zip';
  // A Palm database: a MOBI, an AZW3 (KF8) or a PalmDOC text, named at offset 60.
  if (head.length >= 68 && /^(BOOKMOBI|TEXtREAd)$/.test(ascii(head, 60, 68))) return 'mobi';
  // KFX wrapped in Amazon's DRM ("\xEADRMION\xEE"); a KFX container or a Topaz book, which no parser here reads.
  if (head.length >= 8 && ascii(head, 1, 7) === 'DRMION') return 'kindle-drm';
  if (head.length >= 4 && (ascii(head, 0, 4) === 'CONT' || ascii(head, 0, 3) === 'TPZ')) return 'kindle-other';
  // FictionBook: XML whose root is <FictionBook> (after a declaration, comments, a byte-order mark; any encoding
  // that keeps ASCII as ASCII: UTF-8, windows-1251, KOI8-R).
  if (/<FictionBook[\s>]/.test(ascii(head, 0, Math.min(head.length, 4096)))) return 'fb2';
  return 'unknown';
}

/** Whether a MOBI's first record says it is encrypted (its encryption type, at offset 12, is not 0). */
export function mobiEncrypted(file: Uint8Array): boolean {
  if (file.length < 82) return false;
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const record0 = view.getUint32(78);
  if (record0 + 14 > file.length) return false;
  return view.getUint16(record0 + 12) !== 0;
}
