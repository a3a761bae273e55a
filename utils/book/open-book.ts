/**
 * Opens a book file with foliate-js's parsers (runs in the book page): EPUB 2 and 3 and zipped FB2
 * through @zip.js/zip.js (entries read when a section is asked for: a large EPUB is never all in memory),
 * FB2 and MOBI/AZW3 directly. Decides what the parsers do not: a file that is no book (`bad-book`),
 * a locked one (`drm`), one past the bounds (`too-large`).
 */
import type { FoliateBook, LangMap, Contributor } from '@/vendor/foliate-js/book';
import { mobiEncrypted, sniffBook } from './sniff';
import { epubLocked } from './drm';
import { BOOK_MAX_BYTES, FB2_MAX_BYTES } from '../net/bounded-fetch';

export type BookErrorCode = 'bad-book' | 'drm' | 'too-large' | 'no-text';

export class BookError extends Error {
  constructor(readonly code: BookErrorCode) {
    super(code);
  }
}


export type BookFormat = 'epub' | 'fb2' | 'fbz' | 'mobi';

export interface OpenedBook {
  book: FoliateBook;
  format: BookFormat;
  title: string;
  author: string;
  language: string;
}

/** The text of a title or a name in the book's metadata (a string, or one per language). */
export function langText(value: LangMap | null | undefined, prefer = ''): string {
  if (!value) return '';
  if (typeof value === 'string') return value.trim();
  const keys = Object.keys(value);
  const key = keys.find((k) => prefer && k.startsWith(prefer)) ?? keys[0];
  return key ? (value[key] ?? '').trim() : '';
}

/** The book's authors as one line ("Антон Чехов, Ольга Книппер"). */
export function authorsOf(author: Contributor | Contributor[] | undefined, prefer = ''): string {
  const list = author === undefined ? [] : Array.isArray(author) ? author : [author];
  return list
    .map((a) => (typeof a === 'string' ? a.trim() : langText(a.name, prefer)))
    .filter(Boolean)
    .join(', ');
}

async function zipLoader(file: Blob) {
  const { configure, ZipReader, BlobReader, TextWriter, BlobWriter } = await import('@zip.js/zip.js/index-native.js');
  // No web worker (the page's own thread inflates one entry at a time, with the browser's DecompressionStream).
  configure({ useWebWorkers: false });
  const reader = new ZipReader(new BlobReader(file));
  let entries;
  try {
    entries = await reader.getEntries();
  } catch {
    throw new BookError('bad-book');
  }
  const files = entries.filter((e) => !e.directory) as import('@zip.js/zip.js').FileEntry[];
  const map = new Map(files.map((e) => [e.filename, e]));
  return {
    names: files.map((e) => e.filename),
    entry: (name: string) => map.get(name),
    loadText: (name: string) => map.get(name)?.getData(new TextWriter()) ?? null,
    loadBlob: (name: string, type?: string) => map.get(name)?.getData(new BlobWriter(type)) ?? null,
    getSize: (name: string) => map.get(name)?.uncompressedSize ?? 0,
  };
}

async function parse(file: Blob, name: string): Promise<{ book: FoliateBook; format: BookFormat }> {
  if (file.size > BOOK_MAX_BYTES) throw new BookError('too-large');
  const head = new Uint8Array(await file.slice(0, 4096).arrayBuffer());
  const kind = sniffBook(head);
  if (kind === 'kindle-drm') throw new BookError('drm');
  if (kind === 'fb2') {
    if (file.size > FB2_MAX_BYTES) throw new BookError('too-large');
    const { makeFB2 } = await import('@/vendor/foliate-js/fb2.js');
    return { book: await makeFB2(file), format: 'fb2' };
  }
  if (kind === 'mobi') {
    if (mobiEncrypted(new Uint8Array(await file.slice(0, 64 * 1024).arrayBuffer()))) throw new BookError('drm');
    const { MOBI } = await import('@/vendor/foliate-js/mobi.js');
    // Fonts are never shown here: a compressed one is left as it is.
    return { book: await new MOBI({ unzlib: (data) => data }).open(file), format: 'mobi' };
  }
  if (kind !== 'zip') throw new BookError('bad-book');
  const zip = await zipLoader(file);
  if (zip.entry('META-INF/container.xml')) {
    const encryption = zip.entry('META-INF/encryption.xml') ? await zip.loadText('META-INF/encryption.xml') : null;
    if (epubLocked(zip.names, encryption)) throw new BookError('drm');
    const { EPUB } = await import('@/vendor/foliate-js/epub.js');
    return { book: await new EPUB(zip).init(), format: 'epub' };
  }
  const fb2 = zip.names.find((n) => /\.fb2$/i.test(n)) ?? (/\.(fbz|fb2\.zip)$/i.test(name) && zip.names.length === 1 ? zip.names[0] : undefined);
  if (!fb2) throw new BookError('bad-book');
  if (zip.getSize(fb2) > FB2_MAX_BYTES) throw new BookError('too-large');
  const blob = await zip.loadBlob(fb2);
  if (!blob || sniffBook(new Uint8Array(await blob.slice(0, 4096).arrayBuffer())) !== 'fb2') throw new BookError('bad-book');
  const { makeFB2 } = await import('@/vendor/foliate-js/fb2.js');
  return { book: await makeFB2(blob), format: 'fbz' };
}

/** The book in `file` (its name a hint only), or a `BookError`. */
export async function openBook(file: Blob, name = '', uiLanguage = ''): Promise<OpenedBook> {
  let parsed;
  try {
    parsed = await parse(file, name);
  } catch (err) {
    throw err instanceof BookError ? err : new BookError('bad-book');
  }
  const { book, format } = parsed;
  if (!book?.sections?.length) throw new BookError('bad-book');
  const meta = book.metadata ?? {};
  const language = [meta.language].flat()[0] ?? '';
  const prefer = language || uiLanguage;
  const fallback = name.replace(/^.*[\\/]/, '').replace(/\.(epub|fb2|fb2\.zip|fbz|mobi|azw3?|prc)$/i, '');
  return { book, format, title: langText(meta.title, prefer) || fallback, author: authorsOf(meta.author, prefer), language };
}
