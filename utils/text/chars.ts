/**
 * Characters as the service counts them, and whitespace as the reader sends it: small helpers with no
 * imports, shared by the content script (kept light) and the background.
 */

/** Number of code points (what the service counts as characters). */
export function countChars(s: string): number {
  // Most text has no surrogate at all: then every code unit is a code point (a native scan, no loop here).
  return SURROGATE.test(s) ? codePointsBetween(s, 0, s.length) : s.length;
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** Whether `s` has a surrogate code unit: if not, neither has any slice of it, and its length is its code points. */
export const hasSurrogate = (s: string): boolean => SURROGATE.test(s);

/**
 * Whitespace made single spaces, none at the ends; a string with nothing to squeeze is not rewritten.
 * A blank a page draws as a space (`BLANK`) is a space, and a character it does not draw at all goes
 * (`INVISIBLE`, `LONE_JOINER`): neither is ever billed. Only the block's text changes: where its words
 * are on the page is kept as text nodes' slices, and found again by its words (highlight.ts), never by offset.
 */
export function squeezeSpaces(s: string): string {
  if (!hasLooseSpace(s)) return s.trim();
  return s.replace(BLANK, ' ').replace(INVISIBLE, '').replace(LONE_JOINER, '').replace(/\s+/g, ' ').trim();
}

/** Spaces not as single spaces between words (a run, a tab or a line break, or at either end). */
const LOOSE_SPACE = /\s\s|[^\S ]|^ | $/;

/**
 * `s` with each run of white space one space, and none at either end (`\s` only: unlike `squeezeSpaces`, no
 * blank or invisible character is touched). Most lines already are: they are kept as they are, and only tested
 * (each paragraph of a long article is asked of several patterns).
 */
export function oneSpaced(s: string): string {
  return LOOSE_SPACE.test(s) ? s.replace(/\s+/g, ' ').trim() : s;
}

/**
 * Blanks shown as an empty space, used where spaces would collapse or a name may not be empty: the Braille
 * blank (U+2800, an indent in social posts and forums) and the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0).
 * Neither is whitespace to `\s`; the service bills the first and refuses the others as letters (a word glued to one went with it).
 */
const BLANK = /[\u115F\u1160\u2800\u3164\uFFA0]/g;
/**
 * Characters of no width: the soft hyphen, the Mongolian vowel separator, the zero-width space, the word joiner
 * and U+FEFF (a BOM, or a no-break joiner between letters; `\s` has it as a space). They go, as `makeAcceptable`
 * (accepted.ts) removes them later, so the text sent, its count and the page's words (highlight.ts) agree.
 */
const INVISIBLE = /[\u00AD\u180E\u200B\u2060\uFEFF]/g;
/**
 * A zero-width (non-)joiner that joins nothing (at an end or beside whitespace); between two characters it
 * may shape them (an emoji sequence, Persian), and is left to `makeAcceptable`.
 */
const LONE_JOINER = /(?<=^|\s)[\u200C\u200D]+|[\u200C\u200D]+(?=\s|$)/g;

/**
 * Whether `squeezeSpaces` would rewrite more than the ends of `s` (or of any slice of it, if not): two
 * whitespace characters in a row, one that is not a space, a blank or an invisible character. Asked as one
 * class and a native search for two spaces: `/\s\s|[^\S ]/`, the same question for whitespace alone, took
 * longer over an article's text in Chromium, run on every block the page extracts. The class is `\s`
 * without the space, then the blanks and invisibles.
 */
export const hasLooseSpace = (s: string): boolean => LOOSE_CHAR.test(s) || s.includes('  ');

const LOOSE_CHAR = /[\t-\r\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF\u00AD\u115F\u1160\u180E\u200B-\u200D\u2060\u2800\u3164\uFFA0]/;

/**
 * Nothing the reader sees: whitespace as `\s` has it, the blanks and the invisible characters `squeezeSpaces`
 * makes spaces or removes (a joiner too, wherever it is), by code unit.
 */
export function isSpaceCode(c: number): boolean {
  // Most characters are printable ASCII or letters below U+1000: two comparisons or three.
  if (c < 0xa0) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0x115f) return c === 0xa0 || c === 0xad;
  return (
    c === 0x115f || c === 0x1160 || c === 0x1680 || c === 0x180e || (c >= 0x2000 && c <= 0x200d) || c === 0x2028 || c === 0x2029 || c === 0x202f ||
    c === 0x205f || c === 0x2060 || c === 0x2800 || c === 0x3000 || c === 0x3164 || c === 0xfeff || c === 0xffa0
  );
}

export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

export function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Code points in s[from, to) (a surrogate pair counts once). */
export function codePointsBetween(s: string, from: number, to: number): number {
  let count = to - from;
  for (let i = from; i < to - 1; i++) {
    if (isHighSurrogate(s.charCodeAt(i)) && isLowSurrogate(s.charCodeAt(i + 1))) {
      count--;
      i++;
    }
  }
  return count;
}

/** A letter or digit the service reads: a text without one says nothing, and is never sent. */
const SPEAKABLE = /[A-Za-zА-Яа-яЁё0-9]/;
export const isSpeakable = (text: string): boolean => SPEAKABLE.test(text);
