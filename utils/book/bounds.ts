/** The book files' bounds (pure; the book page and the background's download of a linked book use them). */

/** The largest book file: an EPUB or AZW3 is read a section at a time, so it may be large (pictures make most of it). */
export const BOOK_MAX_BYTES = 100 * 1024 * 1024;
/** The largest FB2 (alone, or unzipped): it is parsed whole, pictures and all. */
export const FB2_MAX_BYTES = 40 * 1024 * 1024;

/** A link's address that names a book file (the context menu's "Read this book aloud" is shown on these). */
export const BOOK_LINK_PATTERNS = ['epub', 'fb2', 'fb2.zip', 'fbz', 'mobi', 'azw3'].flatMap((ext) => [`*://*/*.${ext}`, `*://*/*.${ext}?*`]);

/** Whether `url` names a book file by its path's ending. */
export function looksLikeBook(url: string): boolean {
  try {
    return /\.(epub|fb2|fb2\.zip|fbz|mobi|azw3)$/i.test(new URL(url).pathname);
  } catch {
    return false;
  }
}
