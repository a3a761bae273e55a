/**
 * A caption told by what it says (pure): a block that restates the alt text of the picture just before it,
 * whatever holds it (a gallery's list item, a paragraph). The extraction walk asks it (`extract.ts`).
 */
import { tokens } from './text-index';

/** The words of a caption or alt text that say something (three letters or more), lower-cased. */
export function captionWords(text: string): Set<string> {
  return new Set(tokens(text).filter((w) => w.length >= 3));
}

/**
 * A block that says again what the picture before it says (its alt text): a caption, whatever holds it (a
 * gallery's list item, a paragraph). Four words at least, and two-thirds of them the alt's; up to 500 characters.
 */
export function restates(text: string, altWords: ReadonlySet<string>): boolean {
  if (text.length > 500) return false;
  const words = [...captionWords(text)];
  return words.length >= 4 && words.filter((w) => altWords.has(w)).length * 3 >= words.length * 2;
}
