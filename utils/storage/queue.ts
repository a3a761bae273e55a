/**
 * The listening queue (background and popup): pages to listen to one after another, kept in
 * storage.local so it outlives a browser restart. Each entry is fetched when its turn comes; `chars`
 * is what it was counted at when added (null: it could not be fetched then). Every string in it is
 * bounded (`bounds.ts`), its address too: that one is kept whole (it is fetched), so a page whose
 * address is longer than QUEUE_URL_MAX is not queued.
 */
import { storage } from 'wxt/utils/storage';
import { boundedItem } from './bounded-item';
import { ID_MAX, QUEUE_URL_MAX, SITE_MAX, storedNumber, storedText, TITLE_MAX } from './bounds';

export interface QueueEntry {
  id: string;
  url: string;
  title: string;
  site: string;
  /** Code points its reading will send, as planned when it was added; null when not known. */
  chars: number | null;
  addedAt: number;
}

export const MAX_QUEUE = 100;

/** Whether a page at `url` may be queued: its address is kept whole, so it must be within QUEUE_URL_MAX. */
export const queueable = (url: string): boolean => url.length <= QUEUE_URL_MAX;

/** An entry as stored: its strings bounded (title and site cut); null when it is not one, or its address is too long to keep. */
export function entryOf(value: unknown): QueueEntry | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const chars = v.chars === null ? null : storedNumber(v.chars, 0);
  const addedAt = storedNumber(v.addedAt);
  if (typeof v.id !== 'string' || v.id.length > ID_MAX || typeof v.url !== 'string' || !queueable(v.url)) return null;
  if ((chars === null && v.chars !== null) || addedAt === null) return null;
  return { id: v.id, url: v.url, title: storedText(v.title, TITLE_MAX) ?? '', site: storedText(v.site, SITE_MAX) ?? '', chars, addedAt };
}

/** The queue as stored: entries that are not one dropped, the rest bounded, the last MAX_QUEUE kept. */
export function queueOf(value: unknown): QueueEntry[] {
  if (!Array.isArray(value)) return [];
  return value.map(entryOf).filter((e) => e !== null).slice(-MAX_QUEUE);
}

export const queueStorage = boundedItem(storage.defineItem<QueueEntry[]>('local:listening-queue', { fallback: [] }), queueOf);

/**
 * `queue` with `entry` at its end; a page already waiting is not added twice (it keeps its place), nor is a page
 * whose address is longer than QUEUE_URL_MAX (it could not be kept whole). Pure.
 */
export function withEntry(queue: readonly QueueEntry[], entry: QueueEntry): QueueEntry[] {
  if (!queueable(entry.url) || queue.some((e) => e.url === entry.url)) return [...queue];
  return [...queue, entry].slice(-MAX_QUEUE);
}

/** `queue` with entry `id` moved by `delta` places (clamped to the ends). Pure. */
export function moved(queue: readonly QueueEntry[], id: string, delta: number): QueueEntry[] {
  const from = queue.findIndex((e) => e.id === id);
  if (from < 0) return [...queue];
  const to = Math.min(queue.length - 1, Math.max(0, from + delta));
  const next = [...queue];
  const [entry] = next.splice(from, 1);
  next.splice(to, 0, entry!);
  return next;
}

export function without(queue: readonly QueueEntry[], id: string): QueueEntry[] {
  return queue.filter((e) => e.id !== id);
}

/** The chars of every entry counted, and how many could not be. Pure. */
export function queueTotal(queue: readonly QueueEntry[]): { chars: number; unknown: number } {
  return queue.reduce((t, e) => (e.chars === null ? { ...t, unknown: t.unknown + 1 } : { ...t, chars: t.chars + e.chars }), { chars: 0, unknown: 0 });
}

/** While the queue plays: the reading its current entry is in (session storage: a restarted browser does not resume playing by itself). */
export interface QueueRun {
  entryId: string;
  readingId: string;
}

/** A run as stored, or null when it is not one (its ids are the extension's own: short strings). */
export function queueRunOf(value: unknown): QueueRun | null {
  if (!value || typeof value !== 'object') return null;
  const { entryId, readingId } = value as Record<string, unknown>;
  if (typeof entryId !== 'string' || typeof readingId !== 'string' || entryId.length > ID_MAX || readingId.length > ID_MAX) return null;
  return { entryId, readingId };
}

export const queueRunStorage = boundedItem(storage.defineItem<QueueRun | null>('session:queue-run', { fallback: null }), queueRunOf);
