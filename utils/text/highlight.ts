/**
 * Finds the sentence being read in the live page and marks it with the CSS
 * Custom Highlight API: the page's DOM is never rewritten. Text is matched
 * loosely (case, diacritics, punctuation and spacing ignored), because what
 * was sent to the service is folded and normalized.
 */
export const HIGHLIGHT_NAME = 'trysasha-sentence';

const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'TEXTAREA', 'SELECT', 'OPTION']);
const TOKEN = /[\p{L}\p{N}]+/gu;

/** Lower case, without diacritics: the form both sides are compared in. */
export function looseForm(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

export function tokens(s: string): string[] {
  return looseForm(s).match(TOKEN) ?? [];
}

interface TextIndex {
  /** Tokens of the page joined by single spaces. */
  text: string;
  /** For each token: its node and offsets in the node's data. */
  spans: Array<{ node: Text; start: number; end: number; at: number }>;
}

function visible(el: Element | null): boolean {
  for (let e = el; e; e = e.parentElement) {
    if (SKIP.has(e.tagName) || e.hasAttribute('hidden') || e.getAttribute('aria-hidden') === 'true') return false;
  }
  return true;
}

export function buildIndex(root: Node): TextIndex {
  const doc = root.ownerDocument ?? (root as Document);
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const spans: TextIndex['spans'] = [];
  const parts: string[] = [];
  let at = 0;
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    if (!visible(node.parentElement)) continue;
    for (const m of node.data.matchAll(TOKEN)) {
      // Offsets are in the original data; matching is done on the loose form of each token.
      const loose = looseForm(m[0]);
      spans.push({ node, start: m.index, end: m.index + m[0].length, at });
      parts.push(loose);
      at += loose.length + 1;
    }
  }
  return { text: parts.join(' '), spans };
}

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

/**
 * The range of the page that reads `sentence`, searching from `fromToken` on
 * (sentences are read in order). Its first few words find the start, its last
 * few the end; words the service was not sent (other scripts) may be missing.
 */
export function findSentence(
  index: TextIndex,
  sentence: string,
  fromToken = 0,
): { range: Range; startToken: number; endToken: number } | null {
  const words = tokens(sentence);
  if (words.length === 0 || index.spans.length === 0) return null;
  const fromAt = index.spans[Math.min(fromToken, index.spans.length - 1)]!.at;
  let startAt = -1;
  for (const n of [6, 3, 1]) {
    const head = words.slice(0, Math.min(n, words.length)).join(' ');
    startAt = searchWord(index.text, head, fromAt);
    if (startAt < 0 && fromAt > 0) startAt = searchWord(index.text, head, 0);
    if (startAt >= 0) break;
  }
  if (startAt < 0) return null;
  const startToken = spanAt(index, startAt);
  let endToken = Math.min(startToken + words.length - 1, index.spans.length - 1);
  const tail = words.slice(-Math.min(3, words.length)).join(' ');
  const tailAt = searchWord(index.text, tail, startAt);
  if (tailAt >= 0 && tailAt - startAt < sentence.length * 3) {
    endToken = spanAt(index, tailAt) + Math.min(3, words.length) - 1;
  }
  const first = index.spans[startToken]!;
  const last = index.spans[Math.min(endToken, index.spans.length - 1)]!;
  const range = first.node.ownerDocument.createRange();
  range.setStart(first.node, first.start);
  // The sentence's closing punctuation belongs to it.
  const trailing = /^[^\s\p{L}\p{N}]*/u.exec(last.node.data.slice(last.end))?.[0].length ?? 0;
  range.setEnd(last.node, last.end + trailing);
  return { range, startToken, endToken };
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

/** The CSS Custom Highlight API (Chrome 105+, Firefox 140+); without it the sentence is only scrolled to. */
function canHighlight(): boolean {
  return typeof CSS !== 'undefined' && 'highlights' in CSS && typeof Highlight === 'function';
}

/**
 * Follows the reading on the page: highlights the current sentence and keeps it
 * in view, until the user scrolls away (then it waits until the sentence is on
 * screen again).
 */
export class PageHighlighter {
  private index: TextIndex | null = null;
  private cursor = 0;
  private current: Range | null = null;
  private autoScroll = true;
  private readonly observer: MutationObserver;

  constructor(private readonly doc: Document = document) {
    this.observer = new MutationObserver(() => (this.index = null));
    this.observer.observe(doc.body ?? doc.documentElement, { childList: true, subtree: true, characterData: true });
    const userScrolled = () => (this.autoScroll = false);
    doc.addEventListener('wheel', userScrolled, { passive: true });
    doc.addEventListener('touchmove', userScrolled, { passive: true });
    doc.addEventListener('keydown', (e) => {
      if (['PageDown', 'PageUp', 'ArrowDown', 'ArrowUp', 'Home', 'End', ' '].includes(e.key)) userScrolled();
    });
  }

  show(sentence: string): boolean {
    this.index ??= buildIndex(this.doc.body ?? this.doc.documentElement);
    const found = findSentence(this.index, sentence, this.cursor);
    if (!found) return false;
    this.cursor = found.startToken;
    this.current = found.range;
    // The user came back to where the reading is: follow it again.
    if (!this.autoScroll && this.inView(found.range)) this.autoScroll = true;
    if (canHighlight()) CSS.highlights.set(HIGHLIGHT_NAME, new Highlight(found.range));
    if (this.autoScroll && !this.inView(found.range)) {
      const rect = found.range.getBoundingClientRect();
      this.doc.defaultView?.scrollBy({ top: rect.top - (this.doc.defaultView.innerHeight ?? 0) / 3, behavior: 'smooth' });
    }
    return true;
  }

  clear(): void {
    if (canHighlight()) CSS.highlights.delete(HIGHLIGHT_NAME);
    this.current = null;
    this.cursor = 0;
    this.autoScroll = true;
  }

  private inView(range: Range): boolean {
    const rect = range.getBoundingClientRect();
    const height = this.doc.defaultView?.innerHeight ?? 0;
    return rect.bottom > 0 && rect.top < height;
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
