/**
 * When a reading that is starting is under way, for what opens beside it: the toolbar's popup opens then,
 * and the popup opened by the listener loads its bundle then (its page shares the player's renderer in
 * Chrome, and its bundle's load and first drawing held the reading's first request and first bytes).
 */
import type { ReadingStateName } from '../messaging/views';
import type { ViewListener } from './context';

/** The clock it waits on (a test passes its own). */
export interface Timers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

/**
 * Resolves once the reading after the view `before` (its id, read before the reading's start) has a view
 * in none of the `starting` states and that view is written, or after `capMs`, whichever comes first.
 */
export function underWay(
  onView: (listener: ViewListener) => () => void,
  before: string,
  starting: readonly ReadingStateName[],
  capMs: number,
  timers: Timers = globalThis,
): Promise<void> {
  return new Promise((resolve) => {
    const done = (written: Promise<void>) => {
      stop();
      timers.clearTimeout(timer);
      void written.catch(() => undefined).then(() => resolve());
    };
    const stop = onView((view, written) => {
      if (view.id !== before && !starting.includes(view.state)) done(written);
    });
    const timer = timers.setTimeout(() => done(Promise.resolve()), capMs);
  });
}
