import { ScrollWatch } from './scroll-watch';
import { buildIndex, findSentence, findWord, type TextIndex, type TextSlice, tokenRange, type WordPlace } from './text-index';

/**
 * Marks the sentence being read on the live page with the CSS Custom Highlight API (the page's
 * DOM is never rewritten). The sentence is looked for only in the live text of its own block,
 * recorded when the text was extracted; within it, text is matched loosely (case, diacritics,
 * punctuation and spacing ignored), because what was sent to the service is folded and normalized.
 */
export const HIGHLIGHT_NAME = 'trysasha-sentence';
/** The word being said, a stronger mark inside the sentence's (issue 48). */
export const WORD_HIGHLIGHT_NAME = 'trysasha-word';

/**
 * The marks' colours on web pages, the same in a light page and a dark one: dark text on a pale band for the
 * sentence, on a deeper amber for the word (text contrast 14.9:1 and 8.6:1; the word against the band 1.9:1 —
 * `highlight.test.ts` computes them).
 */
export const MARK_COLOURS = {
  text: '#111111',
  sentence: '#fde68a',
  word: '#f59e0b',
} as const;

/** The marks' style sheet, put into each page read (and the sample's page). */
export const HIGHLIGHT_CSS =
  `::highlight(${HIGHLIGHT_NAME}) { background-color: ${MARK_COLOURS.sentence}; color: ${MARK_COLOURS.text}; }\n` +
  `::highlight(${WORD_HIGHLIGHT_NAME}) { background-color: ${MARK_COLOURS.word}; color: ${MARK_COLOURS.text}; }`;

/** The CSS Custom Highlight API is there (Chrome 105+, Firefox 140+). */
function canHighlight(): boolean {
  return typeof CSS !== 'undefined' && 'highlights' in CSS && typeof Highlight === 'function';
}

/** How long after the user's last scroll the reading may be followed again. */
const SETTLED_MS = 1_000;

/**
 * Follows the reading on the page: highlights the current sentence inside its own block and keeps it
 * in view, until the user scrolls away (then it waits until the sentence is on screen again).
 */

export class PageHighlighter {
  private indexed: { slices: readonly TextSlice[]; index: TextIndex } | null = null;
  private cursor = 0;
  /** The token after the sentence highlighted last. */
  private after = 0;
  private autoScroll = true;
  /** When the user last scrolled (ms, `performance.now()`). */
  private scrolledAt = -Infinity;
  /** Whether a sentence is marked on the page (by this highlighter). */
  private marked = false;
  /** The sentence marked last, where it was found: the words said in it are marked without looking again. */
  private shown: { sentence: string; found: NonNullable<ReturnType<typeof findSentence>> } | null = null;
  /** Whether the page was moved by someone other than this highlighter (before its event arrived). */
  private readonly watch = new ScrollWatch();

  constructor(
    private readonly doc: Document = document,
    /** The element that scrolls the text (the PDF viewer's); the window when none is given. */
    private readonly scroller: Element | null = null,
    /** A word split by a tag is one word (web pages); pdf.js sets each run in a span of its own, apart from the next. */
    private readonly joinAcrossTags = true,
  ) {
    doc.addEventListener('wheel', () => this.userScrolled(), { passive: true });
    doc.addEventListener('touchmove', () => this.userScrolled(), { passive: true });
    doc.addEventListener('keydown', (e) => {
      if (['PageDown', 'PageUp', 'ArrowDown', 'ArrowUp', 'Home', 'End', ' '].includes(e.key)) this.userScrolled();
    });
  }

  private userScrolled(): void {
    this.autoScroll = false;
    this.scrolledAt = performance.now();
  }

  /** Whether the reading is followed on screen (false once the user scrolled away, until they come back). */
  get following(): boolean {
    return this.autoScroll;
  }

  /**
   * Marks `sentence` in the block whose live text is `slices`, and `word` in it when given (else no word is
   * marked); false when the block has no place on the page.
   */
  show(slices: readonly TextSlice[], sentence: string, word?: WordPlace): boolean {
    if (this.indexed?.slices !== slices) {
      this.indexed = { slices, index: buildIndex(slices, this.joinAcrossTags) };
      this.cursor = 0;
      this.after = 0;
      this.shown = null;
    }
    const index = this.indexed.index;
    // The next word of the sentence marked already: found where it was (the words come a few a second).
    const same = this.shown?.sentence === sentence && this.shown.found.range.startContainer.isConnected ? this.shown.found : null;
    const found = same ?? findSentence(index, sentence, this.cursor, this.after);
    if (!found) return false;
    this.shown = { sentence, found };
    this.cursor = found.startToken;
    this.after = found.endToken + 1;
    const place = word && findWord(index, sentence, word, found.startToken, found.endToken);
    const wordRange = place ? tokenRange(index, place.first, place.last) : null;
    // The page moved, and not by us: the user's scroll, whose event may not have come yet.
    const y = this.scrollTop();
    if (this.watch.movedByOther(y, performance.now())) this.userScrolled();
    // The user came back to where the reading is, and stayed: follow it again. Not while they are still
    // scrolling (a wheel's smooth scroll passing over the sentence on its way up is not coming back).
    if (!this.autoScroll && this.inView(found.range) && performance.now() - this.scrolledAt > SETTLED_MS) this.autoScroll = true;
    if (canHighlight()) {
      if (!same) CSS.highlights.set(HIGHLIGHT_NAME, new Highlight(found.range));
      if (wordRange) {
        const mark = new Highlight(wordRange);
        // Drawn over the sentence's band.
        mark.priority = 1;
        CSS.highlights.set(WORD_HIGHLIGHT_NAME, mark);
      } else if (this.marked) {
        CSS.highlights.delete(WORD_HIGHLIGHT_NAME);
      }
      this.marked = true;
    }
    // The view follows the word (a long sentence runs past the screen's edge), else the sentence.
    const followed = wordRange ?? found.range;
    if (this.autoScroll && !this.watch.underWay && !this.inView(followed)) {
      const rect = followed.getBoundingClientRect();
      const view = this.viewport();
      const top = rect.top - view.top - (view.bottom - view.top) / 3;
      this.watch.scrolled(y, Math.min(Math.max(0, y + top), this.scrollLimit()), performance.now());
      (this.scroller ?? this.doc.defaultView)?.scrollBy({ top, behavior: this.scrollBehavior() });
    }
    return true;
  }

  private scrollTop(): number {
    return this.scroller ? this.scroller.scrollTop : (this.doc.defaultView?.scrollY ?? 0);
  }

  /** How far down the text can be scrolled. */
  private scrollLimit(): number {
    const box = this.scroller ?? this.doc.scrollingElement ?? this.doc.documentElement;
    return Math.max(0, box.scrollHeight - box.clientHeight);
  }

  /** Smooth, unless the user asked their system for less motion: then the view jumps. */
  private scrollBehavior(): ScrollBehavior {
    return this.doc.defaultView?.matchMedia?.('(prefers-reduced-motion: reduce)').matches ? 'instant' : 'smooth';
  }

  clear(): void {
    // The registry is reached only when this page has a mark: its first use in a new script world has a
    // cost, and every extraction clears (the first one on the way to the first request).
    if (this.marked) {
      CSS.highlights.delete(HIGHLIGHT_NAME);
      CSS.highlights.delete(WORD_HIGHLIGHT_NAME);
    }
    this.marked = false;
    this.shown = null;
    this.indexed = null;
    this.cursor = 0;
    this.after = 0;
    this.autoScroll = true;
    this.watch.forget();
  }

  private viewport(): { top: number; bottom: number } {
    if (this.scroller) {
      const r = this.scroller.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom };
    }
    return { top: 0, bottom: this.doc.defaultView?.innerHeight ?? 0 };
  }

  private inView(range: Range): boolean {
    const rect = range.getBoundingClientRect();
    const view = this.viewport();
    return rect.bottom > view.top && rect.top < view.bottom;
  }
}

/** The block the reading should start from for "Read from here": the right-clicked one, the selection's, or the first in view. */
export function startBlockText(doc: Document, clicked: Element | null): string {
  const BLOCK = 'p,li,h1,h2,h3,h4,h5,h6,blockquote,pre,dd,dt,figcaption,td,th';
  const fromClick = clicked?.closest(BLOCK);
  if (fromClick?.textContent?.trim()) return fromClick.textContent;
  const anchor = doc.getSelection()?.anchorNode;
  const fromSelection = (anchor instanceof Element ? anchor : anchor?.parentElement)?.closest(BLOCK);
  if (fromSelection?.textContent?.trim()) return fromSelection.textContent;
  const height = doc.defaultView?.innerHeight ?? 0;
  for (const el of Array.from(doc.querySelectorAll(BLOCK))) {
    const rect = el.getBoundingClientRect();
    if (rect.bottom > 0 && rect.top < height && el.textContent?.trim()) return el.textContent;
  }
  return '';
}
