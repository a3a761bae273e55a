/**
 * Where the listener stopped in each book (runs in the book page): kept in the extension's IndexedDB by the
 * book's id (a hash of its bytes, never its name), the last 50 books. Read when the book is opened again
 * to offer "Continue from …"; the audio of the place is found by the reading's own place, kept by the
 * background for the same start (`reading/resume-place.ts`).
 */
import { createStore, del, entries, get, set, type UseStore } from 'idb-keyval';
import type { BookStart } from './book-reader';

export interface BookPlace {
  /** Where the reading started (the same start finds the background's place for it again). */
  start: Pick<BookStart, 'section' | 'block' | 'chapter'>;
  /** The chapter the listener stopped in (its index in the table of contents). */
  chapter: number;
  /** Seconds into the reading where that chapter began, and where the listener stopped. */
  chapterStart: number;
  position: number;
  at: number;
}

const MAX_BOOKS = 50;

export interface PlaceStore {
  get(id: string): Promise<BookPlace | null>;
  set(id: string, place: BookPlace): Promise<void>;
  forget(id: string): Promise<void>;
}

/** A stored value as a place, or null when it is not one. */
export function placeOf(value: unknown): BookPlace | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const start = v.start as Record<string, unknown> | undefined;
  const int = (x: unknown) => typeof x === 'number' && Number.isInteger(x) && x >= 0;
  if (!start || !int(start.section) || (start.block !== undefined && !int(start.block)) || (start.chapter !== undefined && !int(start.chapter))) return null;
  const seconds = (x: unknown) => typeof x === 'number' && x >= 0 && Number.isFinite(x);
  if (!int(v.chapter) || !seconds(v.position) || !seconds(v.chapterStart) || typeof v.at !== 'number') return null;
  return {
    start: { section: start.section as number, ...(start.block !== undefined ? { block: start.block as number } : {}), ...(start.chapter !== undefined ? { chapter: start.chapter as number } : {}) },
    chapter: v.chapter as number,
    chapterStart: v.chapterStart as number,
    position: v.position as number,
    at: v.at,
  };
}

export function placeStore(store: UseStore = createStore('trysasha-books', 'places')): PlaceStore {
  return {
    async get(id) {
      return placeOf(await get(id, store).catch(() => null));
    },
    async set(id, place) {
      await set(id, place, store);
      const all = (await entries<string, BookPlace>(store)).sort((a, b) => (b[1]?.at ?? 0) - (a[1]?.at ?? 0));
      for (const [key] of all.slice(MAX_BOOKS)) await del(key, store);
    },
    async forget(id) {
      await del(id, store);
    },
  };
}

/** The chapter a block is in: the last one starting at or before it (`starts`: each chapter's section and first block, in the table's order). */
export function chapterAt(starts: readonly { section: number; block: number }[], section: number, index: number): number {
  let found = -1;
  starts.forEach((c, i) => {
    if (!(c.section < section || (c.section === section && c.block <= index))) return;
    const best = found >= 0 ? starts[found]! : null;
    // Entries starting at the same place (a part and its first chapter): the later, the nearer.
    if (!best || c.section > best.section || (c.section === best.section && c.block >= best.block)) found = i;
  });
  return Math.max(found, 0);
}
