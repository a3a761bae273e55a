/**
 * A block's live text as tokens (letters and digits, matched loosely: case, diacritics, punctuation and
 * spacing ignored), with the DOM place of each: where a sentence and a word said are found on the page.
 * The marks themselves are `highlight.ts`'s; the extraction uses the tokens too.
 */
/** Code-unit offsets of a word in a sentence's text. */
export interface WordPlace {
  start: number;
  end: number;
}

/** A letter or a digit, but not a Hangul filler (a letter to `\p{L}`, a blank to a reader: chars.ts reads it as a space). */
const WORD_CHAR = String.raw`(?:[^\P{L}\u115F\u1160\u3164\uFFA0]|\p{N})`;
/** Characters of no width, which chars.ts removes from the text read (`squeezeSpaces`). */
const ZERO_WIDTH = String.raw`\u00AD\u180E\u200B-\u200D\u2060\uFEFF`;
const UNSEEN = new RegExp(`[${ZERO_WIDTH}]`, 'g');
/** A word: letters and digits, with characters of no width inside it: "пе\u00ADре\u00ADнос" on the page is the word "перенос". */
const TOKEN = new RegExp(`${WORD_CHAR}+(?:[${ZERO_WIDTH}]+${WORD_CHAR}+)*`, 'gu');

const ONE_WORD_CHAR = new RegExp(WORD_CHAR, 'u');

/**
 * Whether `s` has more than `most` letters and digits, counted only that far (not through a long paragraph).
 * Each is at least one code unit of `tokens(s)` (its loose form keeps a letter a letter), so a text with more
 * than a token string's length of them cannot have the same tokens.
 */
export function moreWordCharsThan(s: string, most: number): boolean {
  let n = 0;
  for (const ch of s) if (ONE_WORD_CHAR.test(ch) && ++n > most) return true;
  return false;
}

/** Lower case, without diacritics or characters no one sees: the form both sides are compared in. */
export function looseForm(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').replace(UNSEEN, '').toLowerCase();
}

export function tokens(s: string): string[] {
  return looseForm(s).match(TOKEN) ?? [];
}

export interface TextIndex {
  /** Tokens of the block joined by single spaces. */
  text: string;
  /** For each token: its node and offsets in the node's data (`endNode`: where it ends, when a tag splits the word). */
  spans: Array<{ node: Text; start: number; end: number; at: number; endNode?: Text }>;
}

/** A slice of a live text node (`extract.ts` records them for each block it reads). */
export interface TextSlice {
  node: Text;
  start: number;
  end: number;
}

/** Elements that run on inside a word: a letter set apart by one (a drop cap: `<span>W</span>hale`) is the same word. */
const INLINE = new Set(['A', 'ABBR', 'B', 'BDI', 'BDO', 'CITE', 'CODE', 'DATA', 'DFN', 'EM', 'FONT', 'I', 'KBD', 'MARK', 'Q', 'S', 'SAMP', 'SMALL', 'SPAN', 'STRONG', 'TIME', 'U', 'VAR']);

/** Text node `b` follows `a` with only inline elements' edges between them (no `<br>`, no block, no `<sup>`). */
function joinedInline(a: Text, b: Text): boolean {
  let n: Node = a;
  while (!n.nextSibling) {
    const parent = n.parentElement;
    if (!parent || !INLINE.has(parent.tagName.toUpperCase())) return false;
    n = parent;
  }
  let m: Node | null = n.nextSibling;
  while (m && m !== b) {
    if (m.nodeType !== 1 || !INLINE.has((m as Element).tagName.toUpperCase())) return false;
    m = m.firstChild;
  }
  return m === b;
}

/** The tokens of a block's live text, in order, each with where it is on the page. */
export function buildIndex(slices: readonly TextSlice[], joinAcrossTags = true): TextIndex {
  const spans: TextIndex['spans'] = [];
  const parts: string[] = [];
  let at = 0;
  /** The last token ended where its slice ends (a word may go on in the next text node). */
  let flush: Text | null = null;
  for (const { node, start, end } of slices) {
    if (!node.isConnected) continue;
    const data = node.data.slice(start, end);
    for (const m of data.matchAll(TOKEN)) {
      // Offsets are in the node's data; matching is done on the loose form of each token.
      const loose = looseForm(m[0]);
      const last = spans.at(-1);
      if (joinAcrossTags && m.index === 0 && start === 0 && flush && last && joinedInline(flush, node)) {
        // The word goes on across a tag: one token, from its first node to this one.
        parts[parts.length - 1] += loose;
        last.endNode = node;
        last.end = m[0].length;
        at += loose.length;
      } else {
        spans.push({ node, start: start + m.index, end: start + m.index + m[0].length, at });
        parts.push(loose);
        at += loose.length + 1;
      }
      flush = m.index + m[0].length === data.length && end === node.data.length ? node : null;
    }
    if (!data.length || !TOKEN_END.test(data)) flush = null;
  }
  return { text: parts.join(' '), spans };
}

/** A slice that ends inside a word (its last character a letter or digit). */
const TOKEN_END = new RegExp(`${WORD_CHAR}$`, 'u');

function spanAt(index: TextIndex, at: number): number {
  let lo = 0;
  let hi = index.spans.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (index.spans[mid]!.at <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function rangeOf(index: TextIndex, first: number, last: number): Range {
  const a = index.spans[first]!;
  const b = index.spans[last]!;
  const range = a.node.ownerDocument.createRange();
  range.setStart(a.node, a.start);
  // The sentence's closing punctuation belongs to it.
  const endNode = b.endNode ?? b.node;
  const trailing = /^[^\s\p{L}\p{N}]*/u.exec(endNode.data.slice(b.end))?.[0].length ?? 0;
  range.setEnd(endNode, b.end + trailing);
  return range;
}

/**
 * The range of a block that reads `sentence`, searching from token `fromToken` on (sentences are
 * read in order). Its first words find the start, its last words the end; words the service was not
 * sent (other scripts) may be missing. Only the block is searched, so a miss never lands elsewhere on
 * the page: when the sentence cannot be placed, the whole block is the answer.
 */
export function findSentence(
  index: TextIndex,
  sentence: string,
  fromToken = 0,
  /** The first token after the sentence highlighted before: a start found by a later anchor never goes before it. */
  floorToken = 0,
): { range: Range; startToken: number; endToken: number } | null {
  if (index.spans.length === 0) return null;
  const words = tokens(sentence);
  const whole = { range: rangeOf(index, 0, index.spans.length - 1), startToken: 0, endToken: index.spans.length - 1 };
  if (words.length === 0) return whole;
  const fromAt = index.spans[Math.min(fromToken, index.spans.length - 1)]!.at;
  let startAt = -1;
  for (const n of [6, 3, 2]) {
    if (n > words.length && n !== 2) continue;
    const head = words.slice(0, Math.min(n, words.length)).join(' ');
    startAt = searchWord(index.text, head, fromAt);
    if (startAt < 0 && fromAt > 0) startAt = searchWord(index.text, head, 0);
    if (startAt >= 0) break;
  }
  let startToken = startAt >= 0 ? spanAt(index, startAt) : -1;
  if (startToken < 0) startToken = startFromLaterWords(index, words, fromAt, floorToken);
  if (startToken < 0) return whole;
  startAt = index.spans[startToken]!.at;
  let endToken = Math.min(startToken + words.length - 1, index.spans.length - 1);
  const tailWords = Math.min(3, words.length);
  const tailAt = searchWord(index.text, words.slice(-tailWords).join(' '), startAt);
  if (tailAt >= 0 && tailAt - startAt < sentence.length * 3) endToken = spanAt(index, tailAt) + tailWords - 1;
  endToken = Math.min(endToken, index.spans.length - 1);
  return { range: rangeOf(index, startToken, endToken), startToken, endToken };
}

/**
 * When the sentence's first words are not on the page (a pronunciation rule or a shortened URL changed
 * them), a later run of its words finds it: the start is then its first word, looked for just before
 * that run, or as many tokens before the run as words were passed over (never before `floorToken`).
 */
function startFromLaterWords(index: TextIndex, words: string[], fromAt: number, floorToken: number): number {
  for (let skip = 1; skip <= Math.min(6, words.length - 2); skip++) {
    const at = searchWord(index.text, words.slice(skip, skip + 3).join(' '), fromAt);
    if (at < 0) continue;
    const anchor = spanAt(index, at);
    const floor = Math.min(Math.max(floorToken, 0), anchor);
    for (let t = anchor - 1; t >= Math.max(floor, anchor - skip - 4); t--) {
      if (wordAt(index, t) === words[0]) return t;
    }
    return Math.max(floor, anchor - skip);
  }
  return -1;
}

/** The token `t` of the block as indexed. */
function wordAt(index: TextIndex, t: number): string {
  const at = index.spans[t]!.at;
  const end = index.text.indexOf(' ', at);
  return index.text.slice(at, end < 0 ? undefined : end);
}

/** Position of `needle` at word boundaries in `hay`, from `from` on; -1 if none. */
function searchWord(hay: string, needle: string, from: number): number {
  for (let i = hay.indexOf(needle, from); i >= 0; i = hay.indexOf(needle, i + 1)) {
    const before = i === 0 || hay[i - 1] === ' ';
    const after = i + needle.length === hay.length || hay[i + needle.length] === ' ';
    if (before && after) return i;
  }
  return -1;
}

/**
 * The tokens of the page that say word `word` of `sentence`, found as `findSentence` placed it (tokens
 * `startToken..endToken`). The sentence as sent may have more or fewer words than the page shows (a rule
 * rewrote some, a foreign word was left out, a citation mark is on the page only): the word is looked for
 * near its share of the way through the sentence's tokens, and failing that put there.
 */
export function findWord(index: TextIndex, sentence: string, word: WordPlace, startToken: number, endToken: number): { first: number; last: number } | null {
  const said = tokens(sentence.slice(word.start, word.end));
  if (said.length === 0 || endToken < startToken) return null;
  const before = tokens(sentence.slice(0, word.start)).length;
  const all = tokens(sentence).length || 1;
  const onPage = endToken - startToken + 1;
  const expected = Math.min(endToken, startToken + Math.round((before * onPage) / all));
  let first = -1;
  for (let d = 0; d <= 4 && first < 0; d++) {
    for (const t of d === 0 ? [expected] : [expected - d, expected + d]) {
      if (t >= startToken && t <= endToken && wordAt(index, t) === said[0]) {
        first = t;
        break;
      }
    }
  }
  if (first < 0) first = expected;
  return { first, last: Math.min(endToken, first + said.length - 1) };
}

/** The range of tokens `first..last`, without the punctuation after them. */
export function tokenRange(index: TextIndex, first: number, last: number): Range {
  const a = index.spans[first]!;
  const b = index.spans[last]!;
  const range = a.node.ownerDocument.createRange();
  range.setStart(a.node, a.start);
  range.setEnd(b.endNode ?? b.node, b.end);
  return range;
}
