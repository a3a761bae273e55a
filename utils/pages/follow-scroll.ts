/** Vertical extent of an element on screen (from `getBoundingClientRect`). */
export interface Span {
  top: number;
  bottom: number;
}

/** Whether any of `item` shows inside the scrolling `box`. */
export function isInView(box: Span, item: Span): boolean {
  return item.bottom > box.top && item.top < box.bottom;
}

/**
 * The `scrollTop` that shows all of `item` inside `box` with the least movement
 * (as `block: 'nearest'`, but moving only this box, never the page around it);
 * `null` when it is already shown whole.
 */
export function scrollTopToShow(box: Span, item: Span, scrollTop: number): number | null {
  if (item.top < box.top) return scrollTop - (box.top - item.top);
  if (item.bottom > box.bottom) return scrollTop + Math.min(item.bottom - box.bottom, item.top - box.top);
  return null;
}
