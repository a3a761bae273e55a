/**
 * Where the listener stopped on the pages read lately (background): coming back to one offers to
 * continue from there; what was received before plays from the audio cache, unpaid. Kept small: the
 * last 50 pages, each a few numbers and the key of the part it stopped in.
 */
import { storage } from 'wxt/utils/storage';

export interface ResumePoint {
  /** The part listened to last, its cache key (the same text, voice and format), and the seconds into it. */
  part: number;
  partKey: string;
  partTime: number;
  /** Seconds of audio played in that reading. */
  position: number;
  at: number;
}

const MAX_PAGES = 50;

export const resumeStorage = storage.defineItem<Record<string, ResumePoint>>('local:resume-points', { fallback: {} });

/** The page's address as a key: without its fragment (a jump within the page is the same page). */
export function pageKey(url: string): string {
  const hash = url.indexOf('#');
  return hash >= 0 ? url.slice(0, hash) : url;
}

/** `points` with `url`'s point set (or removed when null), the oldest dropped past 50. Pure. */
export function withPoint(points: Record<string, ResumePoint>, url: string, point: ResumePoint | null): Record<string, ResumePoint> {
  const next = { ...points };
  delete next[pageKey(url)];
  if (point) next[pageKey(url)] = point;
  const keys = Object.keys(next).sort((a, b) => next[a]!.at - next[b]!.at);
  for (const k of keys.slice(0, Math.max(0, keys.length - MAX_PAGES))) delete next[k];
  return next;
}
