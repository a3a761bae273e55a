/**
 * What points a reader to a note, never read: a citation's or a footnote's mark ("[12]", "¹", "*"), and the edit
 * and back links around notes. Read, a mark is glued to the word before it ("жернова1"). Told by class where a
 * site names its marks (Wikipedia, MediaWiki, DPUB-ARIA), else by what a mark is: short, and raised or linked to
 * its note on the same page. Asked by the extraction walk (extract.ts) of each element.
 */

/** Citation markers, back links and edit links: never read (Wikipedia, MediaWiki, DPUB-ARIA). */
const NOISE_CLASS = /(^|\s)(mw-editsection|mw-cite-backlink|noprint)(\s|$)/i;
const NOISE_ROLE = /^doc-(noteref|backlink)$/;
/** Wikipedia's citation markers (`<sup class="reference">[12]</sup>`); a link of class "reference" elsewhere (Sphinx) is text. */
const MARKER_CLASS = /(^|\s)reference(\s|$)/i;

/** A note's mark: one to three digits, or one to three of * † ‡ § ¶, bare or in brackets ("1", "[3]", "(12)", "**"). */
const MARK = /^[[(]?(?:\d{1,3}|[*†‡§¶]{1,3})[\])]?$/;
/** A mark that is no number: a symbol, or a number in brackets. Never a unit's or a power's superscript (м², 10³). */
const PLAIN_MARK = /^(?:[[(]?[*†‡§¶]{1,3}[\])]?|\[\d{1,3}\]|\(\d{1,3}\))$/;
/** A note's link back to its mark: an arrow alone ("↩", "↑", "^"), as `role="doc-backlink"` marks one. */
const BACK_LINK = /^[[(]?[↩↑^⤴↵][\])]?$/u;
/** An anchor named as a note (pandoc's "fn1", Wikipedia's "cite_note-3", LibreOffice's "sdfootnote1sym", Word's "_ftn1", "ref-2", "endnote4"). */
const NOTE_ID = /fn|foot|note|cite|ref|ftn/i;

/** The anchor of this page a link points to (its id, and whether the page has it), or null when it points elsewhere. */
export type AnchorOf = (href: string) => { id: string; exists: boolean } | null;

/**
 * Whether `el` is never read: an edit or back link, a mark of a known class, or a note's mark by its shape
 * (`isNoteMark`). `anchor(href)`: the anchor `href` points to on this page.
 */
export function isNoise(el: Element, anchor: AnchorOf = () => null): boolean {
  const cls = el.getAttribute('class') ?? '';
  if ((cls !== '' && NOISE_CLASS.test(cls)) || NOISE_ROLE.test(el.getAttribute('role') ?? '')) return true;
  if (el.tagName.toUpperCase() === 'SUP' && MARKER_CLASS.test(cls)) return true;
  return isNoteMark(el, anchor);
}

/**
 * A note's mark by its shape, whatever its class: a short mark (`MARK`) that is
 * - a `<sup>` holding a link to an anchor of this page ("жернова<sup><a href="#fn1">1</a></sup>"), or a symbol or
 *   a bracketed number ("<sup>*</sup>", "<sup>[2]</sup>"); a bare number raised alone is text (м², 10³, 2n²);
 * - a link to an anchor of this page, when its mark is a symbol or in brackets ("<a href="#cite_note-3">[3]</a>"),
 *   raised ("<a href="#n1"><sup>1</sup></a>"), or its anchor is named as a note (`NOTE_ID`): "see section
 *   <a href="#s2">2</a>" is text;
 * - or a note's link back to its mark (`BACK_LINK`: "<a href="#r1">↩</a>"), by the same anchor test.
 * A raised number linked to an anchor of this page named as a note ("#fn1", "#cite_note-3") is a mark even when
 * the page has no such anchor (its notes drawn by a script, loaded on demand, or cut from a saved copy).
 */
export function isNoteMark(el: Element, anchor: AnchorOf): boolean {
  const tag = el.tagName.toUpperCase();
  if (tag !== 'SUP' && tag !== 'A') return false;
  const text = (el.textContent ?? '').trim();
  const onPage = (href: string | null) => {
    const a = href === null ? null : anchor(href);
    return a?.exists ? a.id : null;
  };
  /** Raised and linked to a note of this page by its name, whether or not the note is there. */
  const namedNote = (href: string | null) => {
    const a = href === null ? null : anchor(href);
    return a !== null && NOTE_ID.test(a.id);
  };
  if (tag === 'A' && BACK_LINK.test(text)) return onPage(el.getAttribute('href')) !== null;
  if (!MARK.test(text)) return false;
  if (tag === 'SUP') {
    if (PLAIN_MARK.test(text)) return true;
    const href = el.querySelector('a[href]')?.getAttribute('href') ?? null;
    return onPage(href) !== null || namedNote(href);
  }
  const href = el.getAttribute('href');
  const raised = el.querySelector('sup') !== null;
  const id = onPage(href);
  return (id !== null && (PLAIN_MARK.test(text) || NOTE_ID.test(id) || raised)) || (raised && namedNote(href));
}

/**
 * The id `href` points to on the page at `here` (its address, and the addresses it is known by: Readability makes
 * "#fn1" "https://site/page#fn1" when a page's base is another), if `exists` finds it; else null.
 */
export function anchorOnPage(href: string, here: readonly string[], exists: (id: string) => boolean): string | null {
  const id = anchorNamed(href, here);
  return id !== null && exists(id) ? id : null;
}

/** The id `href` points to on the page at `here`, whether or not the page has it; null when it points elsewhere. */
export function anchorNamed(href: string, here: readonly string[]): string | null {
  const hash = href.indexOf('#');
  if (hash < 0 || hash === href.length - 1) return null;
  const before = href.slice(0, hash);
  if (before !== '' && !here.some((url) => url.split('#')[0] === before)) return null;
  let id = href.slice(hash + 1);
  try {
    id = decodeURIComponent(id);
  } catch {
    // A malformed escape: the id as written.
  }
  return id;
}

/**
 * `anchorOnPage` for the pages `docs` gives (the live page and the article's copy; asked once, when a link needs it):
 * the anchor is on either, at any of their addresses.
 */
export function anchorsOn(docs: () => ReadonlyArray<Document | null | undefined>): AnchorOf {
  let pages: Document[] | undefined;
  let here: string[] = [];
  return (href) => {
    if (!pages) {
      pages = [...new Set(docs().filter((d): d is Document => !!d))];
      here = pages.flatMap((d) => [d.URL, d.baseURI, d.documentURI]).filter((u): u is string => typeof u === 'string' && u !== '');
    }
    const id = anchorNamed(href, here);
    return id === null ? null : { id, exists: pages.some((d) => hasAnchor(d, id)) };
  };
}

/** Whether `doc` holds an element with this id, or an old-style `<a name>` anchor. */
export function hasAnchor(doc: Document, id: string): boolean {
  if (doc.getElementById(id)) return true;
  try {
    return doc.querySelector(`a[name="${id.replace(/["\\]/g, '\\$&')}"]`) !== null;
  } catch {
    return false;
  }
}
