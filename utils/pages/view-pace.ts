import type { ReadingView } from '../reading/state';

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
