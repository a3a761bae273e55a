/**
 * Whether the reader can see an element of the live page, asked of each text node an extraction reads
 * and of each headline it may take. Apart from the extraction (extract.ts) as one question with its
 * own cache (`Sight`); page-facts.ts asks the same of a page with no imports, in its own copy.
 */

/** What is known of the live page's visibility during one extraction: each element's answer, and the page's scroll. */
export interface Sight {
  seen: Map<Element, boolean>;
  scroll?: { x: number; y: number };
  /**
   * A page with no layout (fetched for the listening queue, parse-article.ts): the elements its own markup and
   * style hide (style-hidden.ts), each with what it holds. Never given for a live page (its CSS is asked).
   */
  hiddenByStyle?: ReadonlySet<Element>;
}

/** An element of the live page the reader cannot see (CSS of the live page decides; Readability's copy has none). */
export function hiddenOnPage(el: Element | null, sight: Sight): boolean {
  if (!el) return false;
  // Asked for every text node: the answer already found comes first (the body's and the root's are false).
  let hidden = sight.seen.get(el);
  if (hidden === undefined) {
    if (el === el.ownerDocument.body || el === el.ownerDocument.documentElement) return false;
    // No layout (unit tests, or a page fetched for the listening queue and parsed, never shown): only what its
    // own markup and style hide, when they were read (`hiddenByStyle`); else nothing is hidden.
    const view = el.ownerDocument.defaultView;
    if (typeof el.checkVisibility !== 'function' || !view) {
      if (!sight.hiddenByStyle?.size) return false;
      hidden = sight.hiddenByStyle.has(el) || hiddenOnPage(el.parentElement, sight);
      sight.seen.set(el, hidden);
      return hidden;
    }
    // The page does not scroll while it is read here: its offsets are read once, not for every paragraph.
    sight.scroll ??= { x: view.scrollX, y: view.scrollY };
    // Text is moved out of sight by a class, an id or a style (`.sr-only`, `.visually-hidden`): an element
    // with no attribute is placed by its tag's rules, as the article's paragraphs are, and its box is not
    // measured (a large share of this check's time on a long page). Its parent's is.
    hidden =
      !el.checkVisibility({ opacityProperty: true, visibilityProperty: true }) ||
      (el.hasAttributes() && outOfSight(el, view, sight.scroll)) ||
      hiddenOnPage(el.parentElement, sight);
    sight.seen.set(el, hidden);
  }
  return hidden;
}

/**
 * Shown by CSS but not to the eye: a box of no width or height (or the 1×1 "screen-reader only" box)
 * that clips what it holds, or a box moved off the page to the left or above it.
 */
function outOfSight(el: Element, view: Window, scroll: { x: number; y: number }): boolean {
  const r = el.getBoundingClientRect();
  if (r.right + scroll.x <= 0 || r.bottom + scroll.y <= 0) return true;
  if (r.width > 1 && r.height > 1) return false;
  const style = view.getComputedStyle(el);
  return style.overflow !== 'visible' || style.clip !== 'auto' || style.clipPath !== 'none';
}
