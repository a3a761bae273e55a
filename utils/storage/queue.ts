/**
 * The listening queue (background and popup): pages to listen to one after another, kept in
 * storage.local so it outlives a browser restart. Each entry is fetched when its turn comes; `chars`
 * is what it was counted at when added (null: it could not be fetched then).
 */
import { storage } from 'wxt/utils/storage';

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

export const queueStorage = storage.defineItem<QueueEntry[]>('local:listening-queue', { fallback: [] });

/** `queue` with `entry` at its end; a page already waiting is not added twice (it keeps its place). Pure. */
export function withEntry(queue: readonly QueueEntry[], entry: QueueEntry): QueueEntry[] {
  if (queue.some((e) => e.url === entry.url)) return [...queue];
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

export const queueRunStorage = storage.defineItem<QueueRun | null>('session:queue-run', { fallback: null });
