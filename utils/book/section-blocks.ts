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

/** A note's mark without a type: a short link inside superscript ("1", "[2]", "*"). */
function bareNoteMark(el: Element): boolean {
  if (el.localName !== 'sup' && !(el.localName === 'a' && el.parentElement?.localName === 'sup')) return false;
  const a = el.localName === 'a' ? el : el.querySelector('a');
  return !!a && (a.getAttribute('href') ?? '').includes('#') && /^\[?[\d*†‡]{1,4}\]?$/.test((el.textContent ?? '').trim());
}

/** Whether `el` (and all in it) is left out of the reading. */
export function leftOut(el: Element): boolean {
  if (SKIP.has(el.localName)) return true;
  if (el.hasAttribute('hidden')) return true;
  if (epubTypes(el).some((t) => NOTE_TYPES.has(t))) return true;
  const role = el.getAttribute('role') ?? '';
  if (role.split(/\s+/).some((r) => NOTE_ROLES.has(r))) return true;
  return bareNoteMark(el);
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
  if (start) walk(start, start, 'paragraph');
  flush(false);
  return { blocks, leftOutChars };
}
