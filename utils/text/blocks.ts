/**
 * An article element as blocks of text, with what a listener does not want left out (reference lists, note
 * marks, edit links, table-of-contents leaders, box-drawing tables, a printed page's running heads and feet,
 * comments, rails of links, the site's own lines, hidden text): the walk `extract.ts` runs on Readability's
 * article. Each block keeps the live page's text nodes it came from. Runs in the content script (and where a
 * fetched page is parsed).
 */
import { isSpecIntro, isSpecList } from './spec-sheet';
import { looseForm, type TextSlice } from './text-index';
import { countChars, squeezeSpaces } from './chars';
import { isBoilerplate, isCodeBlock, isJunkLine, isMarkedAsCode } from './leave-out';
import { type RailFacts, railBlocks } from './rails';
import { anchorsOn, isNoise } from './notes';
import { furnitureLines, repeatedEdges } from './page-furniture';
import { COMMENTS_HEADING, pagePartOf, SITE_SECTION_HEADING } from './page-parts';
import { outsideBody } from './json-ld';
import { isAuthorBio, isCreditedCaption } from './site-lines';
import { captionWords, restates } from './captions';
import { foreignTailLength } from './foreign-tail';

export interface TextBlock {
  text: string;
  kind: 'title' | 'heading' | 'paragraph';
  /** A book's chapter begins with this block (its parts begin here, so a chapter's end is a part's end). */
  chapter?: true;
}

/** Where a block's words are on the live page: its text nodes, each with the slice of its data that belongs to the block. */
export type Segment = TextSlice;

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
const SECTION_CLASS = /(^|\s)(references|reflist|refbegin|mw-references-wrap|reference-text|footnotes?|wp-block-footnotes|bibliography|navbox|catlinks|printfooter)(\s|$)/i;
const SECTION_ROLE = /^doc-(endnotes|bibliography|footnote)$/;
/** Headings of sections a listener does not want read (Russian and English). */
/** Selectors of the headings of level 1 to n, by n. */
const HEADINGS_UP_TO = ['', 'h1', 'h1,h2', 'h1,h2,h3', 'h1,h2,h3,h4', 'h1,h2,h3,h4,h5', 'h1,h2,h3,h4,h5,h6'];

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
  /** The element a site's section was found in: it ends with it (or at the next heading as high). */
  let skipScope: Node | null = null;

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
  /** The block just kept goes after all, counted as left out (a label or an introduction of what is left out next). */
  const dropLast = () => {
    leftOutChars += countChars(blocks.pop()!.text);
    segments.pop();
    facts.pop();
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
      if (skipping && level <= skipping) [skipping, skipScope] = [0, null];
      // "External links[edit]": the heading's words without its bracketed edit link or trailing colon.
      const words = looseForm(clean((el.textContent ?? '').replace(/\[[^\]]*\]/g, ''))).replace(/:$/, '').trim();
      if ((!opts.keepReferences && UNWANTED_HEADING.test(words)) || COMMENTS_HEADING.test(words)) {
        skipping = level;
        leave(el);
        return;
      }
      // The site's own section ends with the element its heading is in, too: a "More from UK" box of teasers in
      // the middle of a story is left out, and the story goes on after it.
      if (SITE_SECTION_HEADING.test(words)) {
        skipping = level;
        skipScope = el.parentNode;
        leave(el);
        return;
      }
    }
    if (skipping) {
      // A section left out ends at the next heading as high, also one inside an element that begins in it (page
      // builders put each heading in a block of its own): such an element is gone through, not left whole.
      if (!el.querySelector(HEADINGS_UP_TO[skipping]!)) return void leave(el);
      for (let child = el.firstChild; child; child = child.nextSibling) walk(child);
      if (el === skipScope) [skipping, skipScope] = [0, null];
      return;
    }
    if (!opts.keepReferences && matches(el, SECTION_CLASS, SECTION_ROLE)) {
      flush(pending.kind);
      // Its label, when a paragraph and not a heading gives it: "Notes:" above WordPress's footnotes.
      const label = blocks.at(-1);
      if (label && label.text.length <= 40 && UNWANTED_HEADING.test(looseForm(label.text).replace(/:$/, '').trim())) dropLast();
      return void leave(el);
    }
    // An author's line the page keeps out of search snippets: "Archie is a writer from South London. …" over the article.
    if (el.hasAttribute('data-nosnippet') && isAuthorBio(clean(el.textContent ?? '').replace(/\s*\b(?:inquiries|contact|e-?mail)\s*:.*$/i, ''))) return void leave(el);
    if (isNoise(el, onPage) || pagePartOf(el, () => (articleChars ??= (root.textContent ?? '').replace(/\s+/g, ' ').length))) return void leave(el);
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
    if (tag === 'UL' || tag === 'OL') {
      flush(pending.kind);
      // A spec sheet (spec-sheet.ts): by the line just before it, which goes with it, or by its own rows.
      const intro = blocks.at(-1);
      const introduced = intro !== undefined && isSpecIntro(intro.text);
      if (introduced || isSpecList(Array.from(el.children, (li) => clean(li.textContent ?? '')))) {
        if (introduced) dropLast();
        return void leave(el);
      }
    }
    const block = BLOCK_TAGS.has(tag) || level > 0;
    if (block) flush(level ? 'heading' : 'paragraph');
    const link = tag === 'A' && el.hasAttribute('href');
    if (link) inLink++;
    if (tag === 'TABLE') inTable++;
    if (tag === 'PRE') preformatted(el);
    else for (let child = el.firstChild; child; child = child.nextSibling) walk(child);
    if (el === skipScope) [skipping, skipScope] = [0, null];
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
  // A teaser card: a heading, then a link that repeats it, as the site's list of its other posts is made.
  drop(blocks.flatMap((b, k) => {
    const next = blocks[k + 1];
    const linkOnly = next && facts[k + 1]!.linkChars >= facts[k + 1]!.chars - 2;
    return b.kind === 'heading' && next && linkOnly && looseForm(next.text).replace(/[.\s]+$/, '') === looseForm(b.text).replace(/[.\s]+$/, '') ? [k, k + 1] : [];
  }));
  // The site's blurb in its own language after an article in another (foreign-tail.ts).
  const foreign = foreignTailLength(blocks.map((b) => b.text));
  if (foreign) drop(blocks.map((_, k) => k).slice(-foreign));
  // Links inside the article that the page's own structured data says are not of it (json-ld.ts).
  if (opts.articleBody) drop(outsideBody(blocks.map((b, k) => ({ ...b, linkShare: facts[k]!.linkChars / Math.max(1, facts[k]!.chars) })), opts.articleBody));
  const rail = railBlocks(facts);
  if (rail.size === 0) return { blocks, segments, leftOutChars, hiddenChars };
  for (const k of rail) leftOutChars += countChars(blocks[k]!.text);
  const kept = (_: unknown, k: number) => !rail.has(k);
  return { blocks: blocks.filter(kept), segments: segments.filter(kept), leftOutChars, hiddenChars };
}

