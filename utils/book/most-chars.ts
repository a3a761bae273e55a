/**
 * The most a book's text from one of its sections on can bill, known before any of it is read (pure; runs
 * in the book page). A section's size is the bytes of its file (an EPUB's, uncompressed) or of its XHTML
 * (an FB2's, as foliate-js makes it, its pictures' data left out), and a byte gives at most two billed code
 * points: a character folding writes as up to three is two bytes or more in UTF-8 (1.5 a byte), and the
 * space or full stop put after a sentence or a heading follows two bytes or more of it (0.5 a byte). Only
 * the sections in the reading order count (the reader passes the others over). A MOBI's sizes are not its
 * text's (its records are compressed, their sizes guessed): it is given none.
 */
export const MOST_CHARS_PER_BYTE = 2;

export function mostCharsFrom(sections: readonly { size: number; linear?: string | null }[], from: number): number | undefined {
  let bytes = 0;
  for (const section of sections.slice(Math.max(0, from))) {
    if (section.linear === 'no') continue;
    if (!Number.isFinite(section.size) || section.size < 0) return undefined;
    bytes += section.size;
  }
  return bytes * MOST_CHARS_PER_BYTE;
}
