/**
 * Books the listener asked to keep (runs in the book page and the options page): each book's file in the
 * extension's IndexedDB under the book's id (a hash of its bytes), so `book.html?book=ID` opens it again without
 * the file being picked. Kept only when asked ("Keep this book on this computer"), within KEPT_BOOKS_MAX_BYTES
 * together: keeping one past the bound lets the longest unopened go first; one book larger than the bound is
 * refused. The options page shows what is kept and clears it.
 */
import { clear, createStore, del, entries, get, set, type UseStore } from 'idb-keyval';

/** All kept books together, at most (a few novels with pictures; the browser's own quota is far larger). */
export const KEPT_BOOKS_MAX_BYTES = 300 * 2 ** 20;

export interface KeptBook {
  /** The file's name as it was opened (shown only on this computer, never sent). */
  name: string;
  title: string;
  file: Blob;
  /** Last opened or kept (epoch ms): the oldest goes first past the bound. */
  at: number;
}

export interface KeptSummary {
  count: number;
  bytes: number;
}

export interface KeptBooks {
  get(id: string): Promise<KeptBook | null>;
  has(id: string): Promise<boolean>;
  /** Keeps the book ('too-large': it alone passes the bound, nothing kept). */
  keep(id: string, book: Omit<KeptBook, 'at'>, now?: number): Promise<'kept' | 'too-large'>;
  forget(id: string): Promise<void>;
  summary(): Promise<KeptSummary>;
  clear(): Promise<void>;
}

const isKept = (v: unknown): v is KeptBook =>
  !!v && typeof v === 'object' && (v as KeptBook).file instanceof Blob && typeof (v as KeptBook).name === 'string' && typeof (v as KeptBook).at === 'number';

export function keptBooks(store: UseStore = createStore('trysasha-kept-books', 'files'), max = KEPT_BOOKS_MAX_BYTES): KeptBooks {
  const all = async () => (await entries<string, unknown>(store)).filter((e): e is [string, KeptBook] => isKept(e[1]));
  return {
    async get(id) {
      const v = await get<unknown>(id, store).catch(() => null);
      if (!isKept(v)) return null;
      // Opened again: the last to go past the bound.
      await set(id, { ...v, at: Date.now() }, store).catch(() => undefined);
      return v;
    },
    async has(id) {
      return isKept(await get<unknown>(id, store).catch(() => null));
    },
    async keep(id, book, now = Date.now()) {
      if (book.file.size > max) return 'too-large';
      await set(id, { ...book, at: now }, store);
      const others = (await all()).filter(([key]) => key !== id).sort((a, b) => b[1].at - a[1].at);
      let total = book.file.size;
      for (const [key, kept] of others) {
        total += kept.file.size;
        if (total > max) await del(key, store);
      }
      return 'kept';
    },
    async forget(id) {
      await del(id, store);
    },
    async summary() {
      const books = await all();
      return { count: books.length, bytes: books.reduce((n, [, b]) => n + b.file.size, 0) };
    },
    async clear() {
      await clear(store);
    },
  };
}
