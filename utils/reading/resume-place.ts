/**
 * Where the listener stopped on a page: kept while a reading plays (on each new part, every few seconds,
 * and to the second on pause and stop), and offered when the page is read again with the same text.
 */
import { ignore } from '../log';
import { samePart, type ResumePoint } from '../storage/resume';
import type { ReaderDeps } from './deps';
import type { ReadingRun } from './run';
import type { ReadingView } from './state';

/** A place this early in a page is not worth offering; a place is kept every this many seconds. */
const RESUME_MIN_SECONDS = 5;
const RESUME_EVERY_SECONDS = 3;

/**
 * The offer for `point`, when it is the same text read the same way (its part's cache key, stored as its
 * hash) and worth offering.
 */
export function resumeOfferOf(run: ReadingRun, point: ResumePoint | null): ReadingView['resumeOffer'] {
  if (!point || point.position < RESUME_MIN_SECONDS || point.part >= run.parts.length || !samePart(run.key(point.part), point.partKey)) return null;
  return { part: point.part, partTime: point.partTime, position: point.position };
}

/** Keeps where the listener is on this page (when it moved on a part or by some seconds; `now`: in any case). */
export function keepPlace(run: ReadingRun, view: ReadingView, deps: Pick<ReaderDeps, 'saveResume' | 'now'>, now = false): void {
  if (!run.url || !run.parts[view.part] || (!now && Math.abs(view.position - run.keptAt) < RESUME_EVERY_SECONDS)) return;
  run.keptPlace(view.position);
  const point = { part: view.part, partKey: run.key(view.part), partTime: view.partTime, position: view.position, at: deps.now() };
  void deps.saveResume(run.url, point).catch(ignore('keeping the place on the page'));
}
