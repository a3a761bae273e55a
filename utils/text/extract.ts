/**
 * What a page has to say, as blocks of text: the selection, or the main article as Readability
 * finds it — every word of it, once, in order — its container corrected (container.ts), its headline
 * the page's (headline.ts), and what a listener does not want left out by the walk of `blocks.ts`.
 * Each block keeps the live page's text nodes it came from, so the sentence being read is
 * highlighted where it really is, never elsewhere on the page. Runs in the content script.
 */
import { Readability } from '@mozilla/readability';
import { quickReadability, remakeBodyBy } from './quick-readability';
import { moreWordCharsThan, tokens } from './text-index';
import { countChars, squeezeSpaces } from './chars';
import { isBoilerplate, isCodeBlock, isJunkLine } from './leave-out';
import { hiddenOnPage, type Sight } from './sight';
import { headlineOf } from './headline';
import { ledeBetween } from './lede';
import { denseProse } from './dense-prose';
import { articleBodyOf } from './json-ld';
import { headlineElement, otherArticles, unmarkProseWidgets } from './container';
import { blocksFromPlainText, blocksOf, type CleanupChoices, type Segment, type TextBlock } from './blocks';

export { isBoilerplate, isCodeBlock, isJunkLine };
export { blocksFromPlainText, blocksOf, type CleanupChoices, type Segment, type TextBlock };

const clean = squeezeSpaces;


export interface ExtractedText {
  title: string;
  source: 'selection' | 'article';
  blocks: TextBlock[];
  /** Code points of the article left out before anything is billed (sections, leaders, hidden text). */
  leftOutChars?: number;
  /** How long the extraction took in the page (for the benchmarks). */
  tookMs?: number;
  /** The page's site ("example.com"), or a PDF's file name: shown in the system's media controls. */
  site?: string;
  /** The page's address (a PDF's file address): where the listener stopped is kept by it. */
  url?: string;
  /**
   * A document read in batches: more blocks follow, asked for with `extractMore` (a PDF) or taken from
   * the page (`restOfPage`: an article read title first).
   */
  more?: boolean;
  /**
   * An article read title first (`titleFirst`): the code units of the page's whole text and its title, which
   * the article's words are a part of (the reading's estimate is bounded by it before it is counted).
   */
  bound?: number;
  /**
   * A document read in batches whose page can tell, before it is counted, the most its text from where the
   * reading starts can bill (code points before the listener's rules: a book's, from its sections' sizes):
   * a reading that could not pass the threshold with it goes without waiting for the count, as `bound` lets
   * an article read title first.
   */
  mostChars?: number;
  /** Set by the extension's own document pages, the PDF page and the book page (a page being replaced by one may still answer for a moment). */
  docPage?: true;
  /**
   * The listener asked to go on from where they stopped in this document (the book page's "Continue from"):
   * the place kept for its address is gone to at once, not offered.
   */
  continuePlace?: true;
  /** A book's text, read chapter by chapter (its chapters' first blocks say so): the sleep timer can stop at a chapter's end. */
  chapters?: true;
}

/** The next batch of a document read in batches. */
export interface TextBatch {
  blocks: TextBlock[];
  leftOutChars: number;
  more: boolean;
  /** Pages in this batch could not be read and were passed over. */
  incomplete?: boolean;
}


export interface Extraction {
  text: ExtractedText;
  /** `segments[i]`: the live text of `text.blocks[i]` (empty when it has no place on the page, e.g. a selection). */
  segments: Segment[][];
}


export interface ExtractOptions extends CleanupChoices {
  /** "Read from here": the article even when text is selected. */
  articleOnly?: boolean;
  /** The article's headline as `titleFirst` found it (and the reading sent): the one read, whatever Readability finds. */
  headline?: Headline;
  /** A page with no layout (parse-article.ts): the elements of `doc` its own style hides (style-hidden.ts), left out. */
  hiddenByStyle?: ReadonlySet<Element>;
}

/** The article's title as read, and where its words are on the page. */
export interface Headline {
  text: string;
  segments: Segment[];
}

/**
 * What a selection reads as: its lines, under the page's title. The background makes the same answer
 * from a selection an injected function read (`pageFacts`), before the script is in the page.
 */
export function selectionText(selected: string, pageTitle: string): ExtractedText {
  return { title: clean(pageTitle), source: 'selection', blocks: blocksFromPlainText(selected) };
}

/**
 * The selection when there is one (unless `articleOnly`), else the page's main article
 * (navigation, ads and comments are left out by Readability; the rest as said above).
 */
export function extractFromPage(doc: Document = document, opts: ExtractOptions = {}): Extraction {
  const started = performance.now();
  const result = extract(doc, opts);
  result.text.tookMs = Math.round((performance.now() - started) * 10) / 10;
  return result;
}

quickReadability();

function extract(doc: Document, opts: ExtractOptions): Extraction {
  const selected = opts.articleOnly ? '' : (doc.getSelection()?.toString() ?? '');
  if (selected.trim()) {
    const text = selectionText(selected, doc.title);
    // Every line of a selection is looked for within the selection itself, nowhere else.
    const within = selectionSlices(doc);
    return { text, segments: text.blocks.map(() => within) };
  }
  // Readability rewrites the document it is given: it gets a copy, and each of the copy's text nodes
  // is paired with the live one it was copied from (Readability moves text nodes, it does not remake them).
  const pairs = new Map<Text, Text>();
  const copy = copyOf(doc, pairs);
  const reader = new Readability(copy, { keepClasses: true, serializer: (el: Node) => el as unknown as string });
  // Should its first look find too little, Readability starts again from a new copy (paired the same way).
  remakeBodyBy(reader, () => copyOf(doc, pairs));
  const article = reader.parse();
  const content = article?.content as unknown as Element | null | undefined;
  if (!content) return { text: { title: clean(doc.title), source: 'article', blocks: [] }, segments: [] };
  const seen: Sight = { seen: new Map(), hiddenByStyle: opts.hiddenByStyle };
  const live = (n: Text) => pairs.get(n);
  const articleBody = articleBodyOf(doc) ?? undefined;
  const headline = opts.headline ?? headlineOf(doc, article?.title ?? doc.title ?? '', seen);
  // The other articles beside the headline's (teasers, the next post) are not read (container.ts).
  let otherChars = 0;
  const headlineEl = headlineElement(doc, headline.text, headline.segments[0]?.node);
  for (const other of otherArticles(content, headlineEl, live)) {
    otherChars += countChars(clean(other.textContent ?? ''));
    other.remove();
  }
  let found = blocksOf(content, live, { ...opts, articleBody, hidden: (n) => hiddenOnPage(pairs.get(n)?.parentElement ?? null, seen) });
  // Most of the article hidden is not the author hiding a note: the whole page is (an anti-flicker
  // `body { visibility: hidden }` its scripts have not lifted yet, an overlay): then it is all read.
  // Counted only when something was hidden (the count costs time on a long article).
  if (found.hiddenChars > 0 && found.hiddenChars > found.blocks.reduce((n, b) => n + countChars(b.text), 0)) found = blocksOf(content, live, { ...opts, articleBody });
  // Readability's pick far too small to be the article (the site's header, a call to action): the page's
  // densest prose is read instead, when there is much more of it (dense-prose.ts).
  const isHeadline = sameWordsAs(headline.text);
  const picked = found.blocks.filter((b) => !isHeadline(b.text)).reduce((n, b) => n + b.text.length, 0);
  const dense = denseProse(doc, picked, (el) => hiddenOnPage(el, seen));
  if (dense) {
    const prose = blocksOf(dense, (n) => n, { ...opts, articleBody, hidden: (n) => hiddenOnPage(n.parentElement, seen) });
    if (prose.blocks.reduce((n, b) => n + b.text.length, 0) > picked) found = prose;
  }
  const { blocks, segments } = found;
  const leftOutChars = found.leftOutChars + otherChars;
  // Readability often keeps the headline as the first heading: it is read once, as the title.
  if (blocks[0] && isHeadline(blocks[0].text)) {
    blocks.shift();
    segments.shift();
  }
  // The lede the page sets apart between the headline and the body Readability picked (lede.ts).
  const start = segments.find((s) => s.length)?.[0]?.node;
  const ledeEl = headlineEl && start ? ledeBetween(headlineEl, start, (el) => hiddenOnPage(el, seen)) : null;
  if (ledeEl) {
    const lede = blocksOf(ledeEl, (n) => n, opts);
    const opening = tokens(blocks.slice(0, 5).map((b) => b.text).join(' ')).join(' ');
    if (lede.blocks.length && !opening.includes(tokens(lede.blocks.map((b) => b.text).join(' ')).join(' '))) {
      blocks.unshift(...lede.blocks);
      segments.unshift(...lede.segments);
    }
  }
  if (headline.text) {
    blocks.unshift({ text: headline.text, kind: 'title' });
    segments.unshift(headline.segments);
  }
  return { text: { title: headline.text, source: 'article', blocks, leftOutChars }, segments };
}

/** A copy of `doc`, each of its text nodes paired in `pairs` with the one of `doc` it copies. */
function copyOf(doc: Document, pairs: Map<Text, Text>): Document {
  const copy = doc.cloneNode(true) as Document;
  unmarkProseWidgets(copy);
  const liveWalker = doc.createTreeWalker(doc, NodeFilter.SHOW_TEXT);
  const copyWalker = copy.createTreeWalker(copy, NodeFilter.SHOW_TEXT);
  for (let a = liveWalker.nextNode(), b = copyWalker.nextNode(); a && b; a = liveWalker.nextNode(), b = copyWalker.nextNode()) {
    pairs.set(b as Text, a as Text);
  }
  return copy;
}

/**
 * Whether a text has the same words as `b` (case, diacritics and punctuation aside). A text with more letters
 * than `b`'s words hold is told apart without its words being found (every block of an article is asked).
 */
function sameWordsAs(b: string): (a: string) => boolean {
  const words = tokens(b).join(' ');
  return (a) => !moreWordCharsThan(a, words.length) && tokens(a).join(' ') === words;
}

/** The live text the selection covers. */
function selectionSlices(doc: Document): Segment[] {
  const selection = doc.getSelection();
  const slices: Segment[] = [];
  for (let i = 0; selection && i < selection.rangeCount; i++) {
    const range = selection.getRangeAt(i);
    const root = range.commonAncestorContainer;
    const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = (root.nodeType === Node.TEXT_NODE ? root : walker.nextNode()) as Text | null; n; n = walker.nextNode() as Text | null) {
      if (!range.intersectsNode(n)) continue;
      const start = n === range.startContainer ? range.startOffset : 0;
      const end = n === range.endContainer ? range.endOffset : n.data.length;
      if (end > start && n.data.slice(start, end).trim()) slices.push({ node: n, start, end });
      if (root.nodeType === Node.TEXT_NODE) break;
    }
  }
  return slices;
}
