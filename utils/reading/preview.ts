/** The preview of a reading: what the popup lists while a reading asks first (pure: no browser API). */

/** The preview lists this many blocks at most (a book's thousands of paragraphs would only slow the popup). */
export const PREVIEW_MAX = 300;

export interface PreviewBlock {
  /** Index of the block as extracted. */
  block: number;
  kind: 'title' | 'heading' | 'paragraph';
  /** The block's first words. */
  head: string;
  /** Code points billed for it (0 when off), and their cost at the reading's price. */
  chars: number;
  rub: string;
  on: boolean;
}
