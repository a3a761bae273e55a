/**
 * Makes text acceptable to the speech service, which refuses any letter (`\p{L}`) other than
 * Russian (А–Я, а–я, Ё, ё) and basic Latin (A–Z, a–z); digits, punctuation, symbols and whitespace pass.
 *
 * What happens to the rest:
 * - Latin letters with diacritics fold to their base letters (é → e, ß → ss, ø → o, ł → l, þ → th, …),
 *   and so do compatibility forms (ﬁ → fi, full-width Ａ → A). An uppercase letter that folds to two
 *   letters gives a capital and a small one (Æ → Ae, Þ → Th, Ї → Йи), except ẞ → SS, which only
 *   appears in capitals.
 * - Cyrillic letters of other languages fold to the Russian letter that sounds closest:
 *   Ukrainian/Belarusian і → и, ї → йи, є → е, ґ → г, ў → у; Serbian/Macedonian ј → й, љ → ль, њ → нь,
 *   ђ → дь, ћ → ч, џ → дж, ѓ → гь, ќ → кь, ѕ → дз; Kazakh/Tatar/Tajik ә → а, ғ → г, қ → к, ң → н,
 *   ө → о, ұ/ү → у, һ/ҳ → х, ҷ → ч. Russian й and ё are never decomposed.
 * - Modifier-letter apostrophes (ʼ ʻ ʹ ʾ ʿ) become "'" and IPA stress/length marks (ˈ ˌ ː) disappear.
 * - A word that still holds a refused letter (Greek, CJK, Arabic, Hebrew, Armenian, Georgian, IPA, …)
 *   is left out and reported. Refused segments with nothing between them (中文字, which the word
 *   segmenter may cut in two) count as one word, so counts don't depend on the ICU dictionary.
 * - Emoji (emoji-presentation characters, pictographs followed by U+FE0F, anything in U+1F000–U+1FAFF,
 *   with their modifiers, joiners and tags) and private-use characters (icon fonts) are dropped
 *   without being counted: a voice reads nothing useful from them. Text-style symbols (© ™ ♥ ☺ №) stay.
 * - Combining marks that don't belong to a folded letter (stress marks: Москва́) are removed, and so
 *   are invisible format characters (soft hyphens, zero-width spaces/joiners, bidi marks),
 *   control characters other than whitespace, and lone surrogates.
 * Spacing is repaired only where something was left out: no doubled space, no space before closing
 * punctuation or after opening punctuation, no trailing space at a line end, a space where the gap
 * separated two words ("Привет👍мир" → "Привет мир"), and brackets or quotes left empty go too. All other whitespace, newlines included, stays as it was.
 */

export interface AcceptableText {
  text: string;
  /** Number of words left out (emoji are not counted). */
  skippedWords: number;
  /** The words left out, in order. */
  skipped: string[];
}

const ACCEPTED_LETTERS = 'A-Za-zА-Яа-яЁё';
/** A letter the service refuses. */
const REFUSED_LETTER = new RegExp(`[^\\P{L}${ACCEPTED_LETTERS}]`, 'u');
const REFUSED_LETTERS = new RegExp(REFUSED_LETTER.source, 'gu');
/** `foldRuns`' own (a global pattern keeps its place in `lastIndex`; nothing else uses this one). */
const REFUSED_RUN_START = new RegExp(REFUSED_LETTER.source, 'gu');
const ONLY_ACCEPTED = new RegExp(`^[${ACCEPTED_LETTERS}]+$`);
const COMBINING_MARKS = /\p{M}/gu;
const WHITESPACE = /\s/;
const ALPHANUMERIC = /^[\p{L}\p{N}]$/u;

const FOLDS: Readonly<Record<string, string>> = {
  // Latin letters without a canonical decomposition
  ß: 'ss', ẞ: 'SS', æ: 'ae', Æ: 'Ae', œ: 'oe', Œ: 'Oe', ø: 'o', Ø: 'O', ł: 'l', Ł: 'L',
  đ: 'd', Đ: 'D', ð: 'd', Ð: 'D', þ: 'th', Þ: 'Th', ı: 'i', ħ: 'h', Ħ: 'H', ŧ: 't', Ŧ: 'T',
  ŀ: 'l', Ŀ: 'L', ĸ: 'k', ŋ: 'n', Ŋ: 'N', ə: 'e', Ə: 'E', ǝ: 'e', Ǝ: 'E', ɛ: 'e', Ɛ: 'E',
  ɔ: 'o', Ɔ: 'O', ƒ: 'f', ɖ: 'd', Ɖ: 'D', ȷ: 'j', ɨ: 'i', ʉ: 'u',
  // modifier letters: apostrophes become one, IPA stress and length marks vanish
  'ʼ': "'", 'ʻ': "'", 'ʹ': "'", 'ʾ': "'", 'ʿ': "'", 'ˈ': '', 'ˌ': '', 'ː': '',
  // Ukrainian, Belarusian
  і: 'и', І: 'И', ї: 'йи', Ї: 'Йи', є: 'е', Є: 'Е', ґ: 'г', Ґ: 'Г', ў: 'у', Ў: 'У',
  // Serbian, Macedonian
  ј: 'й', Ј: 'Й', љ: 'ль', Љ: 'Ль', њ: 'нь', Њ: 'Нь', ђ: 'дь', Ђ: 'Дь', ћ: 'ч', Ћ: 'Ч',
  џ: 'дж', Џ: 'Дж', ѓ: 'гь', Ѓ: 'Гь', ќ: 'кь', Ќ: 'Кь', ѕ: 'дз', Ѕ: 'Дз',
  // Kazakh, Tatar, Bashkir, Tajik
  ә: 'а', Ә: 'А', ғ: 'г', Ғ: 'Г', қ: 'к', Қ: 'К', ң: 'н', Ң: 'Н', ө: 'о', Ө: 'О',
  ұ: 'у', Ұ: 'У', ү: 'у', Ү: 'У', һ: 'х', Һ: 'Х', ҳ: 'х', Ҳ: 'Х', ҷ: 'ч', Ҷ: 'Ч',
};

// Emoji: see the module comment for what counts.
const EMOJI_ATOM = String.raw`(?:\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F|[\u{1F000}-\u{1FAFF}])`;
const EMOJI_TAIL = String.raw`(?:\p{Emoji_Modifier}|[\uFE0E\uFE0F\u20E3]|[\u{E0020}-\u{E007F}])*`;
const EMOJI = new RegExp(
  String.raw`${EMOJI_ATOM}${EMOJI_TAIL}(?:\u200D(?:${EMOJI_ATOM}|\p{Extended_Pictographic})${EMOJI_TAIL})*|\p{Co}`,
  'gu',
);
/**
 * Where an emoji or a private-use character can start: © or ® (with U+FE0F), or at U+203C and above. Text
 * with none of these (most Russian and English prose) skips the emoji pattern, which is slow to scan.
 */
const MAYBE_EMOJI = /[\u00A9\u00AE\u203C-\uFFFF]/;
// Invisible format characters, controls other than whitespace (\p{Cc} is U+0000–U+001F and U+007F–U+009F), lone surrogates.
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const INVISIBLE = /[\p{Cf}\p{Cs}\0-\x08\x0E-\x1F\x7F-\x9F]/gu;

/** Marks the place of something left out until spacing is repaired; input noncharacters are removed first. */
const HOLE = '\uFDD0';
const NONCHARACTERS = /[\uFDD0-\uFDEF\uFFFE\uFFFF]/g;
const OPENING = '([{«„“‘‹「『';
const CLOSING = '.,;:!?…)]}»”’›」』';
const PAIRS: Readonly<Record<string, string>> = {
  '(': ')', '[': ']', '{': '}', '«': '»', '„': '“”', '“': '”', '‘': '’', '‹': '›', '「': '」', '『': '』',
  '"': '"', "'": "'",
};
const EMPTIED_PAIR = new RegExp(String.raw`([(\[{«„“‘‹「『"'])[^\S\r\n]*${HOLE}(?:[^\S\r\n]*${HOLE})*[^\S\r\n]*([)\]}»“”’›」』"'])`, 'g');
const HOLE_RUN = new RegExp(String.raw`([^\S\r\n]*)${HOLE}(?:[^\S\r\n]*${HOLE})*([^\S\r\n]*)`, 'g');

/** Word segmentation in V8 slows down quadratically on long strings, so runs are cut into windows. */
const SEGMENT_WINDOW = 1_000;

let wordSegmenter: Intl.Segmenter | undefined;
const foldCache = new Map<string, string>();

/** Basic Latin and Russian letters. */
const isPlainLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x410 && c <= 0x44f) || c === 0x401 || c === 0x451;

/**
 * A code unit of plain Russian or English prose: printable ASCII and whitespace controls, А–я, Ё, ё, the
 * no-break space, « », dashes, quotes and the other general punctuation (not the invisible ones), №.
 * None is refused, folded, removed or changed by NFC, and none combines with another.
 */
export function isPlainCode(c: number): boolean {
  return (
    (c >= 0x20 && c <= 0x7e) ||
    (c >= 0x09 && c <= 0x0d) ||
    isPlainLetter(c) ||
    c === 0xa0 ||
    c === 0xab ||
    c === 0xbb ||
    (c >= 0x2010 && c <= 0x2027) ||
    (c >= 0x2030 && c <= 0x205e) ||
    c === 0x2116
  );
}

function isPlain(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isPlainCode(text.charCodeAt(i))) return false;
  return true;
}

const LETTER = /\p{L}/u;

/**
 * Letters (code points that are \p{L}) in `text`. A loop that asks the pattern only of characters other
 * than ASCII and Russian letters: the pattern over a whole long article was slow.
 */
export function countLetters(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isPlainLetter(c)) n++;
    else if (c >= 0x80) {
      const cp = text.codePointAt(i)!;
      if (cp > 0xffff) i++;
      if (LETTER.test(String.fromCodePoint(cp))) n++;
    }
  }
  return n;
}

export function makeAcceptable(text: string): AcceptableText {
  // Most prose has nothing to fold, remove or normalize: it is returned as it is (the patterns below scan
  // slowly with Unicode properties over a long article).
  if (isPlain(text)) return { text, skippedWords: 0, skipped: [] };
  return makeAcceptableFully(text);
}

/** `makeAcceptable` without its shortcut for plain text (exported for the test that they agree). */
export function makeAcceptableFully(text: string): AcceptableText {
  const skipped: string[] = [];
  const normalized = text
    .replace(NONCHARACTERS, '')
    .normalize('NFC')
    .replace(/\u0085/g, '\n');
  const folded = foldRuns(normalized, skipped);
  const cleaned = (MAYBE_EMOJI.test(folded) ? folded.replace(EMOJI, HOLE) : folded).replace(INVISIBLE, '').replace(COMBINING_MARKS, '');
  return { text: cleaned.includes(HOLE) ? repairSpacing(cleaned) : cleaned, skippedWords: skipped.length, skipped };
}

/**
 * Folds every run of non-whitespace holding a refused letter; the rest of the text has nothing to fold.
 * Whitespace always separates words, so each run is handled alone.
 */
function foldRuns(text: string, skipped: string[]): string {
  const pieces: string[] = [];
  let done = 0;
  // One pattern for every call (compiling one per block added up over a long article).
  const refused = REFUSED_RUN_START;
  refused.lastIndex = 0;
  for (let match = refused.exec(text); match !== null; match = refused.exec(text)) {
    let start = match.index;
    while (start > done && !WHITESPACE.test(text.charAt(start - 1))) start--;
    let end = match.index + match[0].length;
    while (end < text.length && !WHITESPACE.test(text.charAt(end))) end++;
    pieces.push(text.slice(done, start), foldRun(text.slice(start, end), skipped));
    done = refused.lastIndex = end;
  }
  pieces.push(text.slice(done));
  return pieces.join('');
}

/** Folds a run; words still holding a refused letter become a HOLE and go, unfolded, into `skipped`. */
function foldRun(run: string, skipped: string[]): string {
  const folded = foldLetters(run);
  if (!REFUSED_LETTER.test(folded)) return folded;
  const pieces: string[] = [];
  let previousRemoved = false;
  for (const segment of segmentWords(run)) {
    const foldedSegment = foldLetters(segment);
    if (REFUSED_LETTER.test(foldedSegment)) {
      skipped.push(previousRemoved ? `${skipped.pop() ?? ''}${segment}` : segment);
      pieces.push(HOLE);
      previousRemoved = true;
    } else {
      pieces.push(foldedSegment);
      previousRemoved = false;
    }
  }
  return pieces.join('');
}

function foldLetters(s: string): string {
  return s.replace(REFUSED_LETTERS, foldLetter);
}

/** A refused letter's folded form, or the letter itself when nothing near it is accepted. */
function foldLetter(letter: string): string {
  const fixed = FOLDS[letter];
  if (fixed !== undefined) return fixed;
  let folded = foldCache.get(letter);
  if (folded === undefined) {
    const base = letter.normalize('NFKD').replace(COMBINING_MARKS, '');
    folded = ONLY_ACCEPTED.test(base) ? base : letter;
    foldCache.set(letter, folded);
  }
  return folded;
}

function* segmentWords(run: string): Generator<string> {
  wordSegmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
  let start = 0;
  while (start < run.length) {
    const end = windowEnd(run, start);
    for (const { segment } of wordSegmenter.segment(run.slice(start, end))) yield segment;
    start = end;
  }
}

/** End of a window starting at `start`: at most SEGMENT_WINDOW units, never before a mark, joiner or low surrogate. */
function windowEnd(run: string, start: number): number {
  if (run.length - start <= SEGMENT_WINDOW) return run.length;
  let end = start + SEGMENT_WINDOW;
  while (end > start + 1 && /^[\p{M}\p{Cf}\uDC00-\uDFFF]/u.test(run.slice(end, end + 2))) end--;
  return end;
}

function repairSpacing(text: string): string {
  let out = text;
  for (let previous = ''; previous !== out; ) {
    previous = out;
    out = out.replace(EMPTIED_PAIR, (pair: string, open: string, close: string) =>
      PAIRS[open]?.includes(close) ? HOLE : pair,
    );
  }
  return out.replace(HOLE_RUN, (run: string, before: string, after: string, offset: number, whole: string) => {
    const previousChar = offset > 0 ? whole.charAt(offset - 1) : '\n';
    const nextChar = offset + run.length < whole.length ? whole.charAt(offset + run.length) : '\n';
    const lineEnd = nextChar === '\n' || nextChar === '\r';
    if (previousChar === '\n' || previousChar === '\r') return lineEnd ? '' : before; // keep the indentation, drop the gap
    if (lineEnd || CLOSING.includes(nextChar) || OPENING.includes(previousChar)) return '';
    if (before !== '' || after !== '') return before !== '' ? before : after;
    // Something glued between two words ("Привет👍мир") kept them apart; a space still does.
    return ALPHANUMERIC.test(previousChar) && ALPHANUMERIC.test(nextChar) ? ' ' : '';
  });
}
