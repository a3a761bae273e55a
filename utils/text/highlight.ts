import { ScrollWatch } from './scroll-watch';

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

/** Lower case, without diacritics or characters no one sees: the form both sides are compared in. */
export function looseForm(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').replace(UNSEEN, '').toLowerCase();
}

export function tokens(s: string): string[] {
  return looseForm(s).match(TOKEN) ?? [];
}

interface TextIndex {
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
function tokenRange(index: TextIndex, first: number, last: number): Range {
  const a = index.spans[first]!;
  const b = index.spans[last]!;
  const range = a.node.ownerDocument.createRange();
  range.setStart(a.node, a.start);
  range.setEnd(b.endNode ?? b.node, b.end);
  return range;
}

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
    // The registry is reached only when this page has a mark: its first use in a new script world costs
    // ~0.7 ms, and every extraction clears (the first one on the way to the first request).
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
