/**
 * The floating mini-player's side in the background: what of the reading it shows (never the key or
 * the balance), sent to the content script of the tab being read when that changes, and taken away
 * from a tab when the reading there ends or moves on. The page's own side is `utils/content/`.
 */
import { isActive, type ReadingView } from './state';
import type { FloatingPlace } from '../storage/page-options';
import type { FloatingView } from '../messaging/views';

/**
 * The mini-player's view of a reading, or null where it is not shown: no tab, before a reading, while
 * its text is being found (the page is busy with that, and the player's script would slow it), after
 * it stopped or finished. (`FloatingLink` also waits for the first audio before showing it.)
 */
export function floatingViewOf(view: ReadingView): FloatingView | null {
  if (view.tabId === null || !view.id || view.state === 'extracting') return null;
  if (!isActive(view.state) && view.state !== 'error') return null;
  return {
    readingId: view.id,
    state: view.state,
    title: view.title,
    part: view.part,
    parts: view.parts,
    costRub: view.costRub,
    rate: view.rate,
    error: view.error?.code ?? '',
    wait: isActive(view.state) ? (view.wait ?? '') : '',
    waitSince: isActive(view.state) && view.wait ? view.waitSince : 0,
  };
}

const sameView = (a: FloatingView | null, b: FloatingView | null) =>
  a === b || (!!a && !!b && (Object.keys(a) as (keyof FloatingView)[]).every((k) => a[k] === b[k]));

export interface FloatingDeps {
  /** Shows (view) or takes away (null) the mini-player in a tab; best effort (a page reloaded since has no script). */
  send(tabId: number, view: FloatingView | null, place: FloatingPlace | null): Promise<unknown>;
  enabled(): boolean;
  place(): FloatingPlace | null;
}

/**
 * Follows the reading's view: tells the tab being read when what its mini-player shows changes
 * (not on every progress report), and takes the player away from a tab the reading left.
 */
export class FloatingLink {
  private tabId: number | null = null;
  private shown: FloatingView | null = null;

  constructor(private readonly deps: FloatingDeps) {}

  onView(view: ReadingView): void {
    let next = this.deps.enabled() ? floatingViewOf(view) : null;
    // It first shows once the audio plays (or the reading asks first): its script's injection must not
    // slow the first audio (in Firefox it did, measurably). Once shown, it follows every state.
    if (next && next.state === 'loading' && this.shown?.readingId !== next.readingId) next = null;
    const tabId = next ? view.tabId : null;
    // The reading left that tab (it stopped, finished, or another tab is read now).
    if (this.tabId !== null && this.tabId !== tabId) this.post(this.tabId, null);
    if (tabId !== null && (tabId !== this.tabId || !sameView(next, this.shown))) this.post(tabId, next);
    this.tabId = tabId;
    this.shown = next;
  }

  /** The options page switched the mini-player off: it goes at once. */
  refresh(view: ReadingView): void {
    this.shown = null;
    this.onView(view);
  }

  /** One at a time, in order: the first may wait for the player's script to be injected, and a later view must not overtake it. */
  private post(tabId: number, view: FloatingView | null): void {
    const place = this.deps.place();
    this.sending = this.sending.then(() => this.deps.send(tabId, view, place)).catch(() => undefined);
  }

  private sending: Promise<unknown> = Promise.resolve();

  /** Resolves once everything posted so far has been sent. */
  settled(): Promise<unknown> {
    return this.sending;
  }
}
