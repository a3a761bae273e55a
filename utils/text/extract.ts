/**
 * What a page has to say, as blocks of text: the selection, or the main article as Readability
 * finds it — every word of it, once, in order — with what a listener does not want left out
 * (reference lists, note marks, edit links, table-of-contents leaders, box-drawing tables, a printed
 * page's running heads and feet, hidden text).
 * Each block keeps the live page's text nodes it came from, so the sentence being read is
 * highlighted where it really is, never elsewhere on the page. Runs in the content script.
 */
import { Readability } from '@mozilla/readability';
import { quickReadability, remakeBodyBy } from './quick-readability';
import { looseForm, type TextSlice, tokens } from './highlight';
import { countChars, squeezeSpaces } from './chars';
import { isBoilerplate, isCodeBlock, isJunkLine, isMarkedAsCode } from './leave-out';
import { type RailFacts, railBlocks } from './rails';
import { hiddenOnPage, type Sight } from './sight';
import { headlineOf } from './headline';
import { anchorsOn, isNoise } from './notes';
import { furnitureLines, repeatedEdges } from './page-furniture';
import { COMMENTS_HEADING, pagePartOf } from './page-parts';
import { articleBodyOf, outsideBody } from './json-ld';
import { isAuthorBio, isCreditedCaption } from './site-lines';
import { captionWords, restates } from './captions';
import { headlineElement, otherArticles } from './container';

export { isBoilerplate, isCodeBlock, isJunkLine };

export interface TextBlock {
  text: string;
  kind: 'title' | 'heading' | 'paragraph';
}

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
  /** Set by the extension's PDF page (a page being replaced by it may still answer for a moment). */
  pdfPage?: true;
}

/** The next batch of a document read in batches. */
export interface TextBatch {
  blocks: TextBlock[];
  leftOutChars: number;
  more: boolean;
  /** Pages in this batch could not be read and were passed over. */
  incomplete?: boolean;
}

/** Where a block's words are on the live page: its text nodes, each with the slice of its data that belongs to the block. */
export type Segment = TextSlice;

export interface Extraction {
  text: ExtractedText;
  /** `segments[i]`: the live text of `text.blocks[i]` (empty when it has no place on the page, e.g. a selection). */
  segments: Segment[][];
}

/** What the listener chose to hear besides the article's prose (the options page's clean-up settings). */
export interface CleanupChoices {
  /** Reference lists, notes, "See also", external links (default: left out). */
  keepReferences?: boolean;
  /** Code blocks (default: left out; preformatted prose such as an RFC is not code, and is read). */
  readCode?: boolean;
  /** Figure and table captions (default: read). */
  leaveOutCaptions?: boolean;
  /** Tables (default: read). */
  leaveOutTables?: boolean;
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

const clean = squeezeSpaces;

/** Lines of a selection become paragraphs of their own. */
export function blocksFromPlainText(text: string): TextBlock[] {
  return text
    .split(/\n+/)
    .map(clean)
    .filter(Boolean)
    .map((line) => ({ text: line, kind: 'paragraph' as const }));
}

const BLOCK_TAGS = new Set(
  'ADDRESS ARTICLE ASIDE BLOCKQUOTE CAPTION CENTER DD DETAILS DIALOG DIV DL DT FIELDSET FIGCAPTION FIGURE FOOTER FORM H1 H2 H3 H4 H5 H6 HEADER HGROUP HR LI MAIN MENU NAV OL P PRE SECTION SUMMARY TABLE TBODY TD TFOOT TH THEAD TR UL'.split(' '),
);
const SKIP_TAGS = new Set('SCRIPT STYLE NOSCRIPT TEMPLATE TEXTAREA SELECT OPTION BUTTON INPUT SVG CANVAS IFRAME OBJECT EMBED AUDIO VIDEO'.split(' '));
const HEADING = /^H([1-6])$/;
// Node's constants, without needing a DOM global (unit tests run blocksOf on a parsed document).
const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/** Reference lists, notes and navigation boxes: left out unless the listener asks for references. */
const SECTION_CLASS = /(^|\s)(references|reflist|refbegin|mw-references-wrap|reference-text|footnotes?|bibliography|navbox|catlinks|printfooter)(\s|$)/i;
const SECTION_ROLE = /^doc-(endnotes|bibliography|footnote)$/;
/** Headings of sections a listener does not want read (Russian and English). */
const UNWANTED_HEADING =
  /^(references?|notes?|footnotes|citations|sources|bibliography|further reading|see also|external links|works cited|notes and references|references and notes|literature|примечания|литература|ссылки|см\.? также|смотрите также|источники|библиография|сноски|дополнительная литература|внешние ссылки)$/;
function matches(el: Element, cls: RegExp, role: RegExp): boolean {
  const c = el.getAttribute('class') ?? '';
  return (c !== '' && cls.test(c)) || role.test(el.getAttribute('role') ?? '');
}

/** The first text node inside `node`, in document order. */
function firstTextIn(node: Node): Text | null {
  for (let child = node.firstChild; child; child = child.nextSibling) {
    const found = child.nodeType === TEXT_NODE ? (child as Text) : firstTextIn(child);
    if (found) return found;
  }
  return null;
}

interface Pending {
  kind: TextBlock['kind'];
  parts: string[];
  segments: Segment[];
  /** Characters of it inside a link (rails.ts). */
  linkChars: number;
}

/**
 * The blocks of an article element: every text node, whatever element holds it; block elements,
 * `<br>` and line breaks in `<pre>` end a block; headings are blocks of their own.
 */
export function blocksOf(
  root: Element,
  live: (node: Text) => Text | undefined = () => undefined,
  opts: CleanupChoices & { hidden?: (node: Text) => boolean; articleBody?: string } = {},
): { blocks: TextBlock[]; segments: Segment[][]; leftOutChars: number; hiddenChars: number } {
  const blocks: TextBlock[] = [];
  const segments: Segment[][] = [];
  let leftOutChars = 0;
  let hiddenChars = 0;
  let pending: Pending = { kind: 'paragraph', parts: [], segments: [], linkChars: 0 };
  /** How each block kept is made: its length and link text, for the rails of links left out at the end. */
  const facts: RailFacts[] = [];
  let inLink = 0;
  /** Inside an unwanted section: its heading's level (a heading at this level or above ends it). */
  let skipping = 0;

  /** Inside a table (its cells' numbers are read). */
  let inTable = 0;
  /** The length of the article's text, once asked (page-parts.ts). */
  let articleChars: number | undefined;
  /** The alt text of the last picture, while it is near (a caption that restates it follows within two blocks). */
  let alt: { words: Set<string>; blocksAfter: number } | null = null;
  const isCaption = (text: string) => opts.leaveOutCaptions && pending.kind === 'paragraph' && (isCreditedCaption(text) || (!!alt && restates(text, alt.words)));
  const flush = (next: TextBlock['kind'] = 'paragraph') => {
    const text = clean(pending.parts.join(''));
    // A number alone outside a table: a gallery's counter, a comment count, a rating.
    const counter = !inTable && pending.kind === 'paragraph' && /^\d{1,3}$/.test(text);
    if (text && (counter || isJunkLine(text) || isBoilerplate(text) || isCaption(text))) leftOutChars += countChars(text);
    else if (text) {
      if (alt && ++alt.blocksAfter >= 2) alt = null;
      blocks.push({ text, kind: pending.kind });
      segments.push(pending.segments);
      facts.push({ chars: text.length, linkChars: Math.min(text.length, pending.linkChars), kind: pending.kind });
    }
    pending = { kind: next, parts: [], segments: [], linkChars: 0 };
  };
  const add = (node: Text, start: number, end: number) => {
    const data = node.data.slice(start, end);
    if (opts.hidden?.(node)) {
      const n = countChars(clean(data));
      leftOutChars += n;
      hiddenChars += n;
      return;
    }
    pending.parts.push(data);
    if (inLink) pending.linkChars += clean(data).length;
    const liveNode = live(node);
    if (liveNode && data.trim()) pending.segments.push({ node: liveNode, start, end });
  };
  const leave = (node: Node) => (leftOutChars += countChars(clean(node.textContent ?? '')));
  // Notes are looked for on the live page: Readability's article is a copy, without the notes it left out.
  const onPage = anchorsOn(() => {
    const first = firstTextIn(root);
    return [first ? live(first)?.ownerDocument : undefined, root.ownerDocument];
  });
  /**
   * A `<pre>` marked as code only on the live page: Readability unwraps what held it (WordPress's WP-Syntax
   * puts each block in `<td class="code">` of a one-cell table, which its copy makes a plain `<div>`). Its text
   * is the copy's, already weighed by `isCodeBlock`: only its marks are asked.
   */
  const isCodeOnPage = (pre: Element): boolean => {
    const text = firstTextIn(pre);
    const livePre = text && live(text)?.parentElement?.closest('pre');
    return !!livePre && isMarkedAsCode(livePre);
  };

  /** The running heads and feet of the article's `<pre>`s, a page each (page-furniture.ts), found at the first `<pre>`. */
  let heads: Set<string> | undefined;
  /**
   * Preformatted text (an RFC, a poem, code with highlighting spans): its real lines, across its text
   * nodes. A blank line ends a paragraph, a single line break is a space (lines wrapped at 72 columns are
   * one sentence), a word hyphenated at a line's end is one word again, and a line of leaders or drawing
   * goes, and so does a printed page's running head and foot (page-furniture.ts).
   */
  const preformatted = (pre: Element): void => {
    const lines: Array<Array<[Text, number, number]>> = [[]];
    const gather = (node: Node): void => {
      if (node.nodeType === TEXT_NODE) {
        const text = node as Text;
        let from = 0;
        for (let nl = text.data.indexOf('\n'); nl >= 0; nl = text.data.indexOf('\n', from)) {
          lines.at(-1)!.push([text, from, nl]);
          lines.push([]);
          from = nl + 1;
        }
        lines.at(-1)!.push([text, from, text.data.length]);
        return;
      }
      if (node.nodeType !== ELEMENT_NODE || SKIP_TAGS.has((node as Element).tagName.toUpperCase())) return;
      if (isNoise(node as Element, onPage)) return void leave(node);
      for (let child = node.firstChild; child; child = child.nextSibling) gather(child);
    };
    gather(pre);
    const texts = lines.map((slices) => slices.map(([t, a, b]) => t.data.slice(a, b)).join(''));
    heads ??= repeatedEdges(Array.from(root.getElementsByTagName('pre'), (p) => p.textContent ?? ''));
    const furniture = furnitureLines(texts, heads);
    for (const [i, slices] of lines.entries()) {
      const line = texts[i]!;
      // A line of blanks (a Braille blank's too: chars.ts) ends a paragraph.
      if (line.trim() === '' || clean(line) === '') {
        if (pending.parts.join('').trim() !== '') flush(pending.kind);
        continue;
      }
      if (furniture.has(i) || isJunkLine(line) || /[\u2500-\u257F]/.test(line)) {
        leftOutChars += countChars(clean(line));
        continue;
      }
      // The line's indentation is not read (it would split "Internet-" / "   Drafts").
      let skip = line.length - line.trimStart().length;
      for (const [t, a, b] of slices) {
        const cut = Math.min(skip, b - a);
        skip -= cut;
        if (a + cut < b) add(t, a + cut, b);
      }
      if (!/\p{L}-$/u.test(line.trimEnd())) pending.parts.push(' ');
    }
  };

  const walk = (node: Node): void => {
    if (node.nodeType === TEXT_NODE) {
      if (skipping) return void leave(node);
      const text = node as Text;
      return add(text, 0, text.data.length);
    }
    if (node.nodeType !== ELEMENT_NODE) return;
    const el = node as Element;
    const tag = el.tagName.toUpperCase();
    if (SKIP_TAGS.has(tag)) return;
    const level = Number(HEADING.exec(tag)?.[1] ?? 0);
    if (level) {
      if (skipping && level <= skipping) skipping = 0;
      // "External links[edit]": the heading's words without its bracketed edit link or trailing colon.
      const words = looseForm(clean((el.textContent ?? '').replace(/\[[^\]]*\]/g, ''))).replace(/:$/, '').trim();
      if ((!opts.keepReferences && UNWANTED_HEADING.test(words)) || COMMENTS_HEADING.test(words)) {
        skipping = level;
        leave(el);
        return;
      }
    }
    if (skipping) return void leave(el);
    if (isNoise(el, onPage) || (!opts.keepReferences && matches(el, SECTION_CLASS, SECTION_ROLE)) || pagePartOf(el, (articleChars ??= (root.textContent ?? '').replace(/\s+/g, ' ').length))) return void leave(el);
    if (tag === 'BR') return flush(pending.kind);
    if (tag === 'IMG') {
      const words = captionWords(el.getAttribute('alt') ?? '');
      if (words.size >= 4) alt = { words, blocksAfter: 0 };
      return;
    }
    if ((tag === 'PRE' && !opts.readCode && (isCodeBlock(el) || isCodeOnPage(el))) || (opts.leaveOutCaptions && tag === 'FIGCAPTION') || (opts.leaveOutTables && tag === 'TABLE')) {
      flush(pending.kind);
      return void leave(el);
    }
    const block = BLOCK_TAGS.has(tag) || level > 0;
    if (block) flush(level ? 'heading' : 'paragraph');
    const link = tag === 'A' && el.hasAttribute('href');
    if (link) inLink++;
    if (tag === 'TABLE') inTable++;
    if (tag === 'PRE') preformatted(el);
    else for (let child = el.firstChild; child; child = child.nextSibling) walk(child);
    if (link) inLink--;
    if (block) flush();
    if (tag === 'TABLE') inTable--;
  };
  walk(root);
  flush();
  /** Leaves out the kept blocks at `indexes`, counted as left out. */
  const drop = (indexes: Iterable<number>) => {
    for (const k of [...indexes].sort((a, b) => b - a)) {
      leftOutChars += countChars(blocks[k]!.text);
      blocks.splice(k, 1);
      segments.splice(k, 1);
      facts.splice(k, 1);
    }
  };
  // The author's biography under the article (one of its last three blocks).
  drop(blocks.map((_, k) => k).filter((k) => k >= blocks.length - 3 && isAuthorBio(blocks[k]!.text)));
  // Links inside the article that the page's own structured data says are not of it (json-ld.ts).
  if (opts.articleBody) drop(outsideBody(blocks.map((b, k) => ({ ...b, linkShare: facts[k]!.linkChars / Math.max(1, facts[k]!.chars) })), opts.articleBody));
  const rail = railBlocks(facts);
  if (rail.size === 0) return { blocks, segments, leftOutChars, hiddenChars };
  for (const k of rail) leftOutChars += countChars(blocks[k]!.text);
  const kept = (_: unknown, k: number) => !rail.has(k);
  return { blocks: blocks.filter(kept), segments: segments.filter(kept), leftOutChars, hiddenChars };
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
  for (const other of otherArticles(content, headlineElement(doc, headline.text, headline.segments[0]?.node), live)) {
    otherChars += countChars(clean(other.textContent ?? ''));
    other.remove();
  }
  let found = blocksOf(content, live, { ...opts, articleBody, hidden: (n) => hiddenOnPage(pairs.get(n)?.parentElement ?? null, seen) });
  // Most of the article hidden is not the author hiding a note: the whole page is (an anti-flicker
  // `body { visibility: hidden }` its scripts have not lifted yet, an overlay): then it is all read.
  // Counted only when something was hidden (3.5 ms of a 900,000-character article).
  if (found.hiddenChars > 0 && found.hiddenChars > found.blocks.reduce((n, b) => n + countChars(b.text), 0)) found = blocksOf(content, live, { ...opts, articleBody });
  const { blocks, segments } = found;
  const leftOutChars = found.leftOutChars + otherChars;
  // Readability often keeps the headline as the first heading: it is read once, as the title.
  if (blocks[0] && sameWords(blocks[0].text, headline.text)) {
    blocks.shift();
    segments.shift();
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
  const liveWalker = doc.createTreeWalker(doc, NodeFilter.SHOW_TEXT);
  const copyWalker = copy.createTreeWalker(copy, NodeFilter.SHOW_TEXT);
  for (let a = liveWalker.nextNode(), b = copyWalker.nextNode(); a && b; a = liveWalker.nextNode(), b = copyWalker.nextNode()) {
    pairs.set(b as Text, a as Text);
  }
  return copy;
}

const sameWords = (a: string, b: string) => tokens(a).join(' ') === tokens(b).join(' ');

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
