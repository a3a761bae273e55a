/**
 * Readability 0.6 made cheaper where it did work it did not need, answering the same: the content script
 * (and the pages that read a fetched article) use it through `extract.ts`.
 */
import { Readability } from '@mozilla/readability';
import { isSpaceCode } from './chars';

/**
 * Some of Readability 0.6's steps, made cheaper and answering the same (tests check that they do):
 * - a byline: it measured an element's whole text before asking whether the element could be a byline
 *   at all, for every element it walked until it found one (`<html>`, `<body>` and the article's
 *   containers each built the article's whole text, slow on a long page); now the
 *   measure comes last;
 * - visibility: it read `node.style` (an object made for each element) of every element; an element
 *   with no `style` attribute has no inline display or visibility, and skips that;
 * - style clean-up: it removed a dozen presentational attributes from every element of the article
 *   one by one; an element with no attributes has none to remove, and only its children are visited;
 * - commas: it counted them by splitting the element's text into an array (for the article's container,
 *   the whole article cut at every comma); now they are counted where they are;
 * - link density: it built an element's whole text before looking for its links; an element with no
 *   link has a density of 0 whatever its text (the article's container and `<body>`, candidates for
 *   the article, each slow on a long page);
 * - the page's HTML: `_grabArticle` serialized the whole `<body>` (slow on a large page) to put it back
 *   should its first attempt find too little text and it try again with looser rules; where the caller
 *   can make the page's copy again (`remakeBodyBy`), that copy is put back instead, and only when an
 *   attempt fails: the same document, not one parsed again from its HTML (which can differ), and its
 *   text nodes can be paired with the live page's;
 * - the article's HTML: `parse` writes it into a debug message (`this.log("Grabbed: " +
 *   articleContent.innerHTML)`) with debugging off too, the whole article serialized for nothing (no small
 *   part of a long page's extraction). The element `_grabArticle` answers reads its HTML as ''
 *   until `_postProcessContent`, the next step, takes it: the message is the only read in between;
 * - the article's length: once `_grabArticle` has its article, it builds the article's whole text with its
 *   spaces squeezed (`_getInnerText(articleContent, true)`) only to compare its length with the threshold
 *   under which it looks again (500 characters; a cost to a long page's extraction in Chromium).
 *   The squeezed text is at least as long as its characters other than whitespace, and those are counted
 *   text node by text node until there are enough: then a string of the threshold's length answers (the
 *   same comparison, the same outcome); else the text is built as before (its length is kept then).
 * Installed once; answers whether Readability still has every step replaced (false: it is left as it is).
 */
/** What `_grabArticle` reads as the `<body>`'s HTML where the body can be made again: told back, it does so. */
const BODY_AS_IT_WAS = '\u0000trysasha: the body as _grabArticle found it';
const REMAKE = Symbol('remake the document');

/**
 * Lets `reader` put its document's `<body>` back as `_grabArticle` found it by making the document again:
 * `remake` answers a new copy of the document Readability was given (as it was given), and Readability's
 * own steps before `_grabArticle` are run on it (noscript images, scripts, styles, `<br>`s, `<font>`s).
 */
export function remakeBodyBy(reader: Readability, remake: () => Document): void {
  (reader as unknown as { [REMAKE]?: () => Document })[REMAKE] = remake;
}

export function quickReadability(): boolean {
  type Proto = {
    _isValidByline?: unknown;
    _isProbablyVisible?: unknown;
    _cleanStyles?: unknown;
    _getCharCount?: unknown;
    _getInnerText?: unknown;
    _getLinkDensity?: unknown;
    _grabArticle?: unknown;
    _postProcessContent?: unknown;
    _unwrapNoscriptImages?: unknown;
    _removeScripts?: unknown;
    _prepDocument?: unknown;
    /** Added by the build (scripts/vendor-patches.ts): where Readability writes HTML into an element. */
    _replaceHTML?: unknown;
    REGEXPS?: { byline?: unknown };
  };
  const proto = Readability.prototype as unknown as Proto;
  const byline = proto.REGEXPS?.byline;
  const visible = proto._isProbablyVisible;
  const cleanStyles = proto._cleanStyles;
  const linkDensity = proto._getLinkDensity;
  const grabArticle = proto._grabArticle;
  const postProcess = proto._postProcessContent;
  const innerText = proto._getInnerText;
  const replaceHTML = proto._replaceHTML;
  const methods = [proto._isValidByline, visible, cleanStyles, proto._getCharCount, linkDensity, grabArticle, postProcess, proto._unwrapNoscriptImages, proto._removeScripts, proto._prepDocument, innerText, replaceHTML];
  if (methods.some((m) => typeof m !== 'function') || !(byline instanceof RegExp) || byline.global) return false;
  if ((visible as { quick?: true }).quick) return true;
  proto._isValidByline = function (this: { REGEXPS: { byline: RegExp } }, node: Element, matchString: string): boolean {
    const rel = node.getAttribute('rel');
    const itemprop = node.getAttribute('itemprop');
    if (!(rel === 'author' || (itemprop && itemprop.includes('author')) || this.REGEXPS.byline.test(matchString))) return false;
    const length = (node.textContent ?? '').trim().length;
    return length > 0 && length < 100;
  };
  const quickVisible = function (this: unknown, node: Element): boolean {
    if (node.hasAttribute('style')) return (visible as (node: Element) => boolean).call(this, node);
    return !node.hasAttribute('hidden') && (node.getAttribute('aria-hidden') !== 'true' || (typeof node.className === 'string' && node.className.includes('fallback-image')));
  };
  proto._isProbablyVisible = Object.assign(quickVisible, { quick: true as const });
  proto._cleanStyles = function (this: { _cleanStyles(e: Element): void }, e: Element | null): void {
    // A form's named controls shadow its methods (`<input name="hasAttributes">`): a form takes the original way.
    if (!e || e.tagName === 'FORM' || e.hasAttributes() || e.tagName.toLowerCase() === 'svg') return void (cleanStyles as (e: Element | null) => void).call(this, e);
    for (let child = e.firstElementChild; child; child = child.nextElementSibling) this._cleanStyles(child);
  };
  proto._getCharCount = function (this: { _getInnerText(e: Element): string }, e: Element, s?: string): number {
    const sep = s || ',';
    const text = this._getInnerText(e);
    let count = 0;
    for (let at = text.indexOf(sep); at >= 0; at = text.indexOf(sep, at + sep.length)) count++;
    return count;
  };
  proto._getInnerText = function (this: { _charThreshold?: unknown }, e: Element, normalizeSpaces?: boolean): string {
    const threshold = this._charThreshold;
    if (normalizeSpaces === true && isGrabbedArticle(e) && typeof threshold === 'number' && hasVisibleChars(e, threshold)) return ' '.repeat(threshold);
    return (innerText as (e: Element, normalizeSpaces?: boolean) => string).call(this, e, normalizeSpaces);
  };
  proto._getLinkDensity = function (this: unknown, element: Element): number {
    return element.getElementsByTagName('a').length === 0 ? 0 : (linkDensity as (e: Element) => number).call(this, element);
  };
  type Reader = {
    _doc: Document;
    [REMAKE]?: () => Document;
    _unwrapNoscriptImages(doc: Document): void;
    _removeScripts(doc: Document): void;
    _prepDocument(): void;
  };
  proto._grabArticle = function (this: Reader, page?: Element | null): Element | null {
    const remake = this[REMAKE];
    const body = remake && !page ? this._doc.body : null;
    // Read as the marker, not serialized; told back (`_replaceHTML`), the body is made again.
    if (body) Object.defineProperty(body, 'innerHTML', { configurable: true, get: () => BODY_AS_IT_WAS });
    try {
      const article = (grabArticle as (page?: Element | null) => Element | null).call(this, page);
      if (article) Object.defineProperty(article, 'innerHTML', { configurable: true, get: () => '' });
      return article;
    } finally {
      if (body) delete (body as { innerHTML?: string }).innerHTML;
    }
  };
  proto._replaceHTML = function (this: Reader, element: Element, html: string): void {
    if (html !== BODY_AS_IT_WAS || !this[REMAKE]) return void (replaceHTML as (element: Element, html: string) => void).call(this, element, html);
    const doc = this[REMAKE]();
    const again = Object.assign(Object.create(Object.getPrototypeOf(this) as object) as Reader, this, { _doc: doc });
    again._unwrapNoscriptImages(doc);
    again._removeScripts(doc);
    again._prepDocument();
    element.textContent = '';
    const fresh = doc.body;
    while (fresh?.firstChild) element.appendChild(fresh.firstChild);
  };
  proto._postProcessContent = function (this: unknown, article: Element): void {
    delete (article as { innerHTML?: string }).innerHTML;
    (postProcess as (article: Element) => void).call(this, article);
  };
  return true;
}

/**
 * The article `_grabArticle` has put together, as it checks its length: a new element, in no document's
 * tree, whose first child is the article's page (`#readability-page-1`, the id it has just given it).
 */
function isGrabbedArticle(e: Element): boolean {
  return e.parentNode === null && e.tagName === 'DIV' && e.firstElementChild?.id === 'readability-page-1';
}

/** Whether `root`'s text has at least `count` characters other than whitespace (read only until it has). */
function hasVisibleChars(root: Element, count: number): boolean {
  const walker = root.ownerDocument.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
  let found = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const data = (node as Text).data;
    for (let i = 0; i < data.length; i++) if (!isSpaceCode(data.charCodeAt(i)) && ++found >= count) return true;
  }
  return false;
}
