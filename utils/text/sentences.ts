/**
 * Sentence boundaries of plain Russian or English prose found without `Intl.Segmenter`, the same as it
 * finds them: the sentence rules of Unicode's UAX #29 (which the engines' segmenters follow) on an
 * alphabet where each character's class is known. Splitting a long article spent most of its time in
 * `Intl.Segmenter`; with this scan it takes far less. A text with any other character
 * (another script, a line break, a tab, a no-break space, an invisible mark) is left to the segmenter.
 * Runs wherever the text is split (the background; the tests check it against the segmenter).
 */

/** A character's Sentence_Break class (UAX #29), as far as the scan needs it; `Unknown`: not in the alphabet. */
const enum SB {
  Unknown = 0,
  Other,
  Sp,
  Lower,
  Upper,
  Numeric,
  ATerm,
  STerm,
  Close,
  SContinue,
}

/** Classes of the code units up to ё (U+0451); the few beyond it are in `BEYOND_TABLE`. */
const TABLE = new Uint8Array(0x452);
const put = (chars: string, c: SB) => {
  for (const ch of chars) TABLE[ch.charCodeAt(0)] = c;
};
for (let c = 0x21; c <= 0x7e; c++) TABLE[c] = SB.Other;
put(' ', SB.Sp);
put('abcdefghijklmnopqrstuvwxyz', SB.Lower);
put('ABCDEFGHIJKLMNOPQRSTUVWXYZ', SB.Upper);
put('0123456789', SB.Numeric);
put('.', SB.ATerm);
put('!?', SB.STerm);
put('"\'()[]{}«»', SB.Close);
put(',-:;', SB.SContinue);
for (let c = 0x410; c <= 0x42f; c++) TABLE[c] = SB.Upper;
for (let c = 0x430; c <= 0x44f; c++) TABLE[c] = SB.Lower;
TABLE[0x401] = SB.Upper;
TABLE[0x451] = SB.Lower;

/** The few characters beyond the table that have a class. */
const BEYOND_TABLE = new Map<number, SB>([
  [0x2013, SB.SContinue], // – en dash
  [0x2014, SB.SContinue], // — em dash
  [0x2018, SB.Close], // ‘
  [0x2019, SB.Close], // ’
  [0x201c, SB.Close], // “
  [0x201d, SB.Close], // ”
  [0x201e, SB.Close], // „
  [0x2026, SB.Other], // … (not a terminator in UAX #29)
]);
/** The code units whose class passes `test`, as a regular expression's character class, made from the tables so the two cannot disagree. */
function codesOf(test: (c: SB) => boolean): string {
  const codes = [...TABLE.keys()].filter((c) => test(TABLE[c]! as SB)).concat([...BEYOND_TABLE].filter(([, c]) => test(c)).map(([code]) => code));
  return codes.map((c) => `\\u${c.toString(16).padStart(4, '0')}`).join('');
}
/** Any character outside the alphabet (class Unknown). */
const OUTSIDE = new RegExp(`[^${codesOf((c) => c !== SB.Unknown)}]`);
/** The terminators (ATerm, STerm). */
const TERMINATOR = new RegExp(`[${codesOf((c) => c === SB.ATerm || c === SB.STerm)}]`, 'g');

function classOf(code: number): SB {
  return code < 0x452 ? (TABLE[code]! as SB) : (BEYOND_TABLE.get(code) ?? SB.Unknown);
}

/**
 * Locales whose sentence rules are Unicode's own (no tailoring in the engines' data without the `ss`
 * keyword, which `Intl.Segmenter` does not set). Greek, for one, reads ";" as a question mark.
 */
const UNTAILORED = /^(ru|en|uk|be|kk|de|fr|es|it|pt|pl|cs|bg|sr)(-|$)/i;

/** Whether `plainSentenceEnds` finds `locale`'s sentences as its segmenter does. */
export const plainLocale = (locale: string): boolean => UNTAILORED.test(locale);

/**
 * The end of each sentence of `text`, in order (the last one `text.length`), as `Intl.Segmenter` with
 * sentence granularity finds them; null when `text` has a character outside the alphabet above (the
 * caller asks the segmenter). An empty text has no sentence.
 */
export function plainSentenceEnds(text: string): number[] | null {
  const n = text.length;
  // A character outside the alphabet, wherever it is, sends the whole text to the segmenter. Asked of the
  // whole text at once, and then only its terminators visited: both are the engine's own scans, not a loop
  // here over every character (the most of a long article's splitting).
  if (OUTSIDE.test(text)) return null;
  const ends: number[] = [];
  TERMINATOR.lastIndex = 0;
  // `test`, not `exec`: no match object made for each terminator; `lastIndex` is just past it.
  while (TERMINATOR.test(text)) {
    const i = TERMINATOR.lastIndex - 1;
    const c = classOf(text.charCodeAt(i));
    let j = i + 1;
    if (c === SB.ATerm && j < n) {
      const next = classOf(text.charCodeAt(j));
      // SB6: ATerm × Numeric ("3.14"); SB7: (Upper | Lower) ATerm × Upper ("U.S.A").
      if (next === SB.Numeric) continue;
      const before = i > 0 ? classOf(text.charCodeAt(i - 1)) : SB.Unknown;
      if (next === SB.Upper && (before === SB.Upper || before === SB.Lower)) continue;
    }
    // SB9, SB10: no break inside the closing punctuation and spaces after a terminator.
    while (j < n && classOf(text.charCodeAt(j)) === SB.Close) j++;
    while (j < n && classOf(text.charCodeAt(j)) === SB.Sp) j++;
    // SB2: the text's end ends the last sentence whatever comes before it.
    if (j === n) break;
    const next = classOf(text.charCodeAt(j));
    // SB8a: SATerm Close* Sp* × (SContinue | SATerm); a further terminator is weighed in its turn.
    if (next === SB.SContinue || next === SB.ATerm || next === SB.STerm) continue;
    if (c === SB.ATerm) {
      // SB8: ATerm Close* Sp* × (¬(OLetter | Upper | Lower | ParaSep | SATerm))* Lower ("т. е. так").
      let k = j;
      let ahead: SB = next;
      while (ahead !== SB.Upper && ahead !== SB.Lower && ahead !== SB.ATerm && ahead !== SB.STerm && ++k < n) ahead = classOf(text.charCodeAt(k));
      if (k < n && ahead === SB.Lower) continue;
    }
    // SB11: SATerm Close* Sp* ÷
    ends.push(j);
    TERMINATOR.lastIndex = j;
  }
  if (n > 0) ends.push(n);
  return ends;
}
