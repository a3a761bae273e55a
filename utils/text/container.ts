/**
 * Readability's choice of container, corrected: when the element it chose holds several articles side by
 * side (an `<article>` each: the story and "you may also like", a feed of teasers, the next post), only the
 * one the page's headline is in is the article read. The others are left out, and counted so.
 *
 * Readability scores paragraphs and their parents; a story of four paragraphs followed by ten teasers of two
 * paragraphs each scores lower than the element holding them all, which it then keeps whole. The page says
 * which of them is the article: its headline is inside it.
 */
import { tokens } from './text-index';

/** Less text than this in the headline's article is not the story but its header alone (the body elsewhere): nothing is corrected. */
const MIN_ARTICLE_CHARS = 200;

/**
 * The articles of `content` (Readability's copy) that are not the one its headline is in: the outermost
 * `<article>` elements inside it, when there are two or more and exactly one of them holds `headline`
 * (the live element of the page's headline); none otherwise. `live`: the live text node a copy's text
 * node was copied from.
 */
export function otherArticles(content: Element, headline: Element | null, live: (node: Text) => Text | undefined): Element[] {
  if (!headline) return [];
  const tops = Array.from(content.getElementsByTagName('article')).filter((a) => !a.parentElement?.closest('article') || !content.contains(a.parentElement.closest('article')));
  if (tops.length < 2) return [];
  const holding = tops.filter((a) => liveTwin(a, live)?.contains(headline));
  const story = holding[0];
  if (holding.length !== 1 || !story) return [];
  if ((story.textContent ?? '').replace(/\s+/g, ' ').trim().length < MIN_ARTICLE_CHARS) return [];
  return tops.filter((a) => a !== story);
}

/** The live `<article>` a copy's `<article>` was copied from: found through one of its own text nodes (not a nested article's). */
function liveTwin(article: Element, live: (node: Text) => Text | undefined): Element | null {
  const walker = article.ownerDocument.createTreeWalker(article, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
    if (n.parentElement?.closest('article') !== article) continue;
    const twin = live(n)?.parentElement?.closest('article');
    if (twin) return twin;
  }
  return null;
}

/**
 * The live element of the headline read: its h1 when it is one (`h1Text`: a text node of it), else the first
 * headline-like element (`itemprop=headline`, h1–h3) whose words are the headline's.
 */
export function headlineElement(doc: Document, text: string, h1Text: Text | undefined): Element | null {
  if (h1Text) return h1Text.parentElement;
  const words = tokens(text).join(' ');
  if (!words) return null;
  for (const el of Array.from(doc.querySelectorAll('[itemprop="headline"], h1, h2, h3'))) {
    if (tokens(el.textContent ?? '').join(' ') === words) return el;
  }
  return null;
}

/**
 * Readability counts "widget" in an element's class or id against it, and its cleaning then drops the element
 * when little else speaks for it: a buying guide's product cards ("c-product-widget": the product, the author's
 * paragraphs about it, its pros and cons) went whole. In Readability's copy, an element so named that holds
 * prose (two paragraphs of 80 characters or more) loses the word; a widget of links, buttons or a line stays one.
 */
export function unmarkProseWidgets(copy: Document): void {
  for (const el of Array.from(copy.querySelectorAll('[class*="widget"], [class*="Widget"], [id*="widget"]'))) {
    let prose = 0;
    for (const p of Array.from(el.getElementsByTagName('p'))) if ((p.textContent ?? '').replace(/\s+/g, ' ').trim().length >= 80 && ++prose >= 2) break;
    if (prose < 2) continue;
    const cls = el.getAttribute('class');
    if (cls) el.setAttribute('class', cls.replace(/widget/gi, 'card'));
    const id = el.getAttribute('id');
    if (id) el.setAttribute('id', id.replace(/widget/gi, 'card'));
  }
}
