/**
 * Tells the reader's own scrolling from anyone else's, by where the page is. The wheel, touch and key
 * events tell most of the user's scrolls, but not in time: with passive listeners the browser moves the
 * page first and hands the event to the page's thread later, and a word mark asked for in between would
 * see the word out of view and pull the page back down (a flaky test showed it: the user at the top, the
 * page at 1,552 px a moment later). So every look at the page first asks: is it where we left it, or on
 * its way to where we sent it? If not, someone else moved it.
 */

/** Pixels of rounding allowed (fractional zoom, sub-pixel scroll positions). */
const SLACK_PX = 2;
/** A scroll of ours still under way after this long was taken over (the user's wheel stops a smooth scroll). */
const OURS_FOR_MS = 2_000;

export class ScrollWatch {
  /** Where the page was left (`from` = `to`), or where our scroll started and where it goes. */
  private from: number | null = null;
  private to = 0;
  private sentAt = 0;

  /** Whether the page moved since the last look by anything but our own scroll. Notes `y` as seen. */
  movedByOther(y: number, now: number): boolean {
    if (this.from === null) {
      this.from = this.to = y;
      return false;
    }
    const low = Math.min(this.from, this.to) - SLACK_PX;
    const high = Math.max(this.from, this.to) + SLACK_PX;
    const moved = y < low || y > high;
    // Arrived (or moved by someone else, or our scroll was given up): from now on the page should stay at y.
    if (moved || Math.abs(y - this.to) <= SLACK_PX || now - this.sentAt > OURS_FOR_MS) this.from = this.to = y;
    // On its way: what was covered is behind it (a smooth scroll does not turn back).
    else this.from = y;
    return moved;
  }

  /** We sent the page from `from` towards `to` (already limited to how far the page can scroll). */
  scrolled(from: number, to: number, now: number): void {
    this.from = from;
    this.to = to;
    this.sentAt = now;
  }

  /** Whether a scroll of ours is on its way (as of the last look): another sent now would be added to it in Firefox. */
  get underWay(): boolean {
    return this.from !== null && this.from !== this.to;
  }

  /** A new page or a new reading: nothing known. */
  forget(): void {
    this.from = null;
  }
}
