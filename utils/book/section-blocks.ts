/**
 * A book section's text as the blocks a listener hears (pure over a DOM; runs in the book page): body
 * text, headings, epigraphs, citations, poems line by line (a line break ends a block). Left out, and
 * counted: notes' marks and bodies (FB2 notes come as EPUB's `epub:type`, foliate-js converts them),
 * images and their alt text, page-number marks, scripts. Soft hyphens and zero-width characters inside
 * words are dropped: a word split across lines is one word.
 */
import { countChars, squeezeSpaces } from '../text/chars';
import type { TextBlock } from '../text/extract';

export interface BookBlock extends TextBlock {
  /** The element the block's text is in (its nearest block): where a link or a table-of-contents entry lands. */
  el: Element;
  /** A line of a poem or other text set line by line (shown without a paragraph's space after it). */
  line?: true;
}

export interface SectionText {
  blocks: BookBlock[];
  /** Code points left out: notes, their marks, alt text, page numbers. */
  leftOutChars: number;
  /** The section ends in notes under their heading: a next section that starts as notes do is their rest. */
  notesAtEnd?: true;
}

/** Whether a section's text, after one that ended in notes, is their rest: it starts with a note's number. */
export function notesGoOn(text: SectionText): boolean {
  return MARK_TEXT.test(text.blocks[0]?.text ?? '');
}

const EPUB_NS = 'http://www.idpf.org/2007/ops';
const NOTE_TYPES = new Set(['noteref', 'footnote', 'footnotes', 'endnote', 'endnotes', 'rearnote', 'rearnotes', 'note', 'pagebreak', 'annoref']);
const NOTE_ROLES = new Set(['doc-noteref', 'doc-footnote', 'doc-endnote', 'doc-endnotes', 'doc-pagebreak', 'doc-backlink']);
const SKIP = new Set(['head', 'script', 'style', 'template', 'noscript', 'svg', 'math', 'img', 'image', 'audio', 'video', 'object', 'embed', 'iframe', 'canvas', 'button', 'input', 'select', 'textarea']);
const BLOCK = new Set(
  'address article aside blockquote caption center dd details dialog div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr li main nav ol p pre section summary table tbody td tfoot th thead tr ul body html'.split(' '),
);
const HEADING = /^h[1-6]$/;
/** Inside words: soft hyphens, zero-width spaces and joiners, word joiners, byte-order marks. */
const INVISIBLE = /[\u00AD\u200B-\u200D\u2060\uFEFF]/g;

/** The element's `epub:type` words, whether the document was parsed as XML (a namespace) or as HTML (a plain attribute). */
function epubTypes(el: Element): string[] {
  const value = el.getAttributeNS(EPUB_NS, 'type') ?? el.getAttribute('epub:type') ?? '';
  return value.split(/\s+/).filter(Boolean);
}

const MARK_TEXT = /^\[?(\d{1,3}|[*†‡]{1,3})\]?$/;
/** A link within the book (not to the web): a note's mark points there. */
const internalLink = (a: Element) => {
  // A MOBI's links name a place in its text (`filepos`) rather than an address.
  if (a.hasAttribute('filepos')) return true;
  const href = a.getAttribute('href') ?? '';
  return href.includes('#') || /filepos|kindle:pos/i.test(href) || (href !== '' && !/^[a-z][\w+.-]*:/i.test(href));
};

/**
 * A note's mark without a type: a short link within the book ("1", "[2]", "*"), alone or in superscript —
 * as converters leave FB2's and EPUB's marks in a MOBI, and as many EPUBs make them.
 */
function bareNoteMark(el: Element): boolean {
  const a = el.localName === 'a' ? el : el.localName === 'sup' ? el.querySelector('a') : null;
  return !!a && internalLink(a) && MARK_TEXT.test((el.textContent ?? '').trim());
}

/** A page number a converter left without its type: a short number in an element named for pages. */
function pageNumber(el: Element): boolean {
  const name = `${el.getAttribute('id') ?? ''} ${el.getAttribute('class') ?? ''}`;
  return /\b(page|pg)[-_]?\d+|pagenum|page-?break|page-?number/i.test(name) && /^[\divxlcdm]{0,8}$/i.test((el.textContent ?? '').trim());
}

/** A heading over notes (at a section's or the book's end), a block of its own: it and what follows it in the section are notes. */
const NOTES_HEADING = /^(notes|footnotes|endnotes|примечания|сноски|комментарии|примечания и комментарии)[.:]?$/i;
/** A contents page's heading: a section with it alone (its links gone, or never there) is no text to hear. */
const CONTENTS_HEADING = /^(table of contents|contents|оглавление|содержание)[.:]?$/i;

/** A contents page: at least three links, and nearly all its words but its heading in them (a converter's table of contents, a book's own). */
export function contentsPage(root: Element): boolean {
  const links = [...root.querySelectorAll('a[href], a[filepos]')];
  if (links.length < 3) return false;
  const headings = [...root.querySelectorAll('h1, h2, h3, h4, h5, h6')].reduce((n, h) => n + squeezeSpaces(h.textContent ?? '').length, 0);
  const text = squeezeSpaces(root.textContent ?? '');
  // Its heading, an element of its own or (a MOBI's) a paragraph in large bold type.
  const lead = /^(table of contents|contents|оглавление|содержание)\b/i.exec(text)?.[0].length ?? 0;
  const all = text.length - Math.max(headings, lead);
  const linked = links.reduce((n, a) => n + squeezeSpaces(a.textContent ?? '').length, 0);
  return all > 0 && linked / all >= 0.8;
}

/** Whether `el` (and all in it) is left out of the reading. */
export function leftOut(el: Element): boolean {
  if (SKIP.has(el.localName)) return true;
  if (el.hasAttribute('hidden')) return true;
  if (epubTypes(el).some((t) => NOTE_TYPES.has(t))) return true;
  const role = el.getAttribute('role') ?? '';
  if (role.split(/\s+/).some((r) => NOTE_ROLES.has(r))) return true;
  return bareNoteMark(el) || pageNumber(el);
}

/** What a left-out element would have been heard as: its text, or an image's alt text. */
function leftOutText(el: Element): string {
  if (el.localName === 'img') return el.getAttribute('alt') ?? '';
  if (el.localName === 'image') return el.getAttribute('alt') ?? el.getAttribute('title') ?? '';
  if (['head', 'script', 'style', 'template'].includes(el.localName)) return '';
  let text = el.textContent ?? '';
  for (const img of el.querySelectorAll('img[alt]')) text += ' ' + (img.getAttribute('alt') ?? '');
  return text;
}

/** The blocks of `root` (a section's document, or an element of one). */
export function sectionBlocks(root: Document | Element): SectionText {
  const blocks: BookBlock[] = [];
  let leftOutChars = 0;
  let line = '';
  let lineEl: Element | null = null;
  let lineKind: TextBlock['kind'] = 'paragraph';
  let broken = false;
  const flush = (byBreak: boolean) => {
    const text = squeezeSpaces(line.replace(INVISIBLE, ''));
    if (text && lineEl) blocks.push({ text, kind: lineKind, el: lineEl, ...(byBreak || broken ? { line: true as const } : {}) });
    // The line after a break in the same block is a line too.
    broken = byBreak;
    line = '';
    lineEl = null;
  };
  const walk = (node: Node, blockEl: Element, kind: TextBlock['kind']) => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3 || child.nodeType === 4) {
        const data = (child as CharacterData).data;
        if (!data.trim() && !line) continue;
        if (!lineEl) {
          lineEl = blockEl;
          lineKind = kind;
        }
        line += data;
        continue;
      }
      if (child.nodeType !== 1) continue;
      const el = child as Element;
      if (leftOut(el)) {
        leftOutChars += countChars(squeezeSpaces(leftOutText(el).replace(INVISIBLE, '')));
        continue;
      }
      if (el.localName === 'br') {
        flush(true);
        continue;
      }
      if (BLOCK.has(el.localName)) {
        flush(false);
        broken = false;
        const heading = HEADING.test(el.localName) || el.localName === 'header' || kind === 'heading';
        walk(el, el, heading ? 'heading' : 'paragraph');
        flush(false);
        broken = false;
        continue;
      }
      walk(el, blockEl, kind);
    }
  };
  const doc = root.nodeType === 9 ? (root as Document) : null;
  const start = doc ? (doc.querySelector('body') ?? doc.documentElement) : (root as Element);
  if (!start) return { blocks, leftOutChars };
  if (contentsPage(start)) return { blocks: [], leftOutChars: countChars(squeezeSpaces((start.textContent ?? '').replace(INVISIBLE, ''))) };
  walk(start, start, 'paragraph');
  flush(false);
  // Notes gathered under their heading (a MOBI's heading may be a paragraph of its own): left out from it on.
  const notes = blocks.findIndex((b) => NOTES_HEADING.test(b.text));
  if (notes >= 0) for (const b of blocks.splice(notes)) leftOutChars += countChars(b.text);
  if (blocks.length && blocks.every((b) => CONTENTS_HEADING.test(b.text))) return { blocks: [], leftOutChars: leftOutChars + countChars(blocks.map((b) => b.text).join(' ')) };
  return { blocks, leftOutChars, ...(notes >= 0 ? { notesAtEnd: true as const } : {}) };
}
