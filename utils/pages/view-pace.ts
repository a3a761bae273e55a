import { IDLE_VIEW, isActive, type ReadingView } from '../reading/state';

/** How long a change held back by `mayWait` waits at most before it is drawn. */
export const HOLD_MS = 250;

/**
 * Whether the popup may draw a new reading view a moment later: while the reading's first part is on
 * its way (`loading`), a change that keeps the state (the part's bill, the balance) waits. The popup
 * shares its renderer's main thread with the player (Chrome's offscreen document, an extension page
 * too), and drawing the bill delayed the first bytes' way into the player. A change of state, or of
 * reading, is drawn at once, and so is whatever waited with it.
 */
export function mayWait(shown: ReadingView | null, next: ReadingView): boolean {
  return shown !== null && shown.id === next.id && shown.state === 'loading' && next.state === 'loading';
}

/** A reading the popup asked the background to start when it opened: when, and for which tab. */
export interface AskedStart {
  sentAt: number;
  tabId: number;
}

/**
 * What the popup draws while the reading it asked for at its opening starts: until the background writes
 * that reading's first view, the view it has is the last reading's (its end: `finished`, `stopped`, an
 * error) or none, and it is drawn as the new reading `extracting` instead, its figures not yet known.
 * An active reading is the one the background kept (it starts nothing then), and a view written since
 * the ask is the new reading's own.
 */
export function startingView(stored: ReadingView | null, asked: AskedStart | null, now: number): ReadingView | null {
  if (!asked || (stored && (isActive(stored.state) || stored.updatedAt >= asked.sentAt))) return stored;
  // The sleep timer outlives a reading (as the background's new view keeps it).
  const sleepAt = stored && stored.sleepAt > now ? stored.sleepAt : 0;
  return { ...IDLE_VIEW, state: 'extracting', tabId: asked.tabId, sleepAt, updatedAt: asked.sentAt };
}
