/**
 * Where the listener stopped on the pages read lately (background): coming back to one offers to
 * continue from there; what was received before plays from the audio cache, unpaid. Kept small: the
 * last 50 pages, each a few numbers, found by the hash of the page's address, with the hash of the part's
 * cache key it stopped in (a page's address and text may be megabytes long: `bounds.ts`).
 */
import { storage } from 'wxt/utils/storage';
import { boundedItem } from './bounded-item';
import { hashOf, isHash, storedNumber } from './bounds';

export interface ResumePoint {
  /** The part listened to last, its cache key (the same text, voice and format), and the seconds into it. */
  part: number;
  /** As stored: the key's hash (`hashOf`); as a reading makes it, the key itself. Compared by `samePart`. */
  partKey: string;
  partTime: number;
  /** Seconds of audio played in that reading. */
  position: number;
  at: number;
}

const MAX_PAGES = 50;

/** The page's address as a key: the hash of its address without its fragment (a jump within the page is the same page). */
export function pageKey(url: string): string {
  const hash = url.indexOf('#');
  return hashOf(hash >= 0 ? url.slice(0, hash) : url);
}

/** Whether a stored point's `partKey` is that of the part whose cache key is `key` (a stored key is its hash; an older point's, the key). */
export function samePart(key: string, partKey: string): boolean {
  return key === partKey || (isHash(partKey) && hashOf(key) === partKey);
}

/** A point as stored, or null when it is not one (numbers that are not, a key that is no string). */
function pointOf(value: unknown): ResumePoint | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const part = storedNumber(v.part, 0);
  const partTime = storedNumber(v.partTime, 0);
  const position = storedNumber(v.position, 0);
  const at = storedNumber(v.at);
  if (part === null || !Number.isInteger(part) || partTime === null || position === null || at === null || typeof v.partKey !== 'string') return null;
  return { part, partKey: isHash(v.partKey) ? v.partKey : hashOf(v.partKey), partTime, position, at };
}

/**
 * The points as stored: each keyed by its page's hash, with its part's key hashed (an earlier version kept the
 * address and the key whole: they are hashed as read), anything that is not a point dropped, the newest 50 kept.
 */
export function resumePointsOf(value: unknown): Record<string, ResumePoint> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const points: Record<string, ResumePoint> = {};
  for (const [k, v] of Object.entries(value)) {
    const point = pointOf(v);
    // An earlier version's key is the address without its fragment already.
    const key = isHash(k) ? k : hashOf(k);
    if (point && !(points[key] && points[key].at > point.at)) points[key] = point;
  }
  const keys = Object.keys(points).sort((a, b) => points[a]!.at - points[b]!.at);
  for (const k of keys.slice(0, Math.max(0, keys.length - MAX_PAGES))) delete points[k];
  return points;
}

export const resumeStorage = boundedItem(storage.defineItem<Record<string, ResumePoint>>('local:resume-points', { fallback: {} }), resumePointsOf);

/** `points` with `url`'s point set (or removed when null), the oldest dropped past 50. Pure. */
export function withPoint(points: Record<string, ResumePoint>, url: string, point: ResumePoint | null): Record<string, ResumePoint> {
  const next = { ...points };
  const key = pageKey(url);
  delete next[key];
  if (point) next[key] = { ...point, partKey: isHash(point.partKey) ? point.partKey : hashOf(point.partKey) };
  const keys = Object.keys(next).sort((a, b) => next[a]!.at - next[b]!.at);
  for (const k of keys.slice(0, Math.max(0, keys.length - MAX_PAGES))) delete next[k];
  return next;
}
