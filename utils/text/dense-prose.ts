/**
 * Where a page's prose is when Readability's pick is not the article: a blog whose pick is the site's header or a
 * call to action ("Get 30% off your first order", 79–115 characters) while the post's 10,000 characters sit
 * elsewhere. The prose is the element whose own paragraphs hold the most text; never readers' comments, and never
 * an element the page hides. Pure but for the document it is given; runs in the content script.
 */
import { squeezeSpaces } from './chars';
import { pagePartOf } from './page-parts';

/** Below this many characters, what was extracted may be the page's furniture, not its article. */
const TOO_LITTLE = 500;
/** The prose found must hold at least this many characters, and this many times what was extracted. */
const AT_LEAST = 1500;
const TIMES = 4;


/** `el` or one of its ancestors is readers' comments or a share bar (page-parts.ts). */
function insideNonArticle(el: Element): boolean {
  for (let at: Element | null = el; at; at = at.parentElement) {
    const part = pagePartOf(at);
    if (part === 'comments' || part === 'share') return true;
  }
  return false;
}

/**
 * The element whose paragraphs (`<p>` of 80 characters or more, its children) hold the most text, when that is at
 * least 1,500 characters and four times `extractedChars`; null otherwise (or when `extractedChars` is 500 or more:
 * Readability found an article).
 */
export function denseProse(doc: Document, extractedChars: number, hidden: (el: Element) => boolean = () => false): Element | null {
  if (extractedChars >= TOO_LITTLE) return null;
  const sums = new Map<Element, number>();
  for (const p of Array.from(doc.getElementsByTagName('p'))) {
    const parent = p.parentElement;
    if (!parent) continue;
    const n = squeezeSpaces(p.textContent ?? '').length;
    if (n >= 80) sums.set(parent, (sums.get(parent) ?? 0) + n);
  }
  const ranked = [...sums].sort((a, b) => b[1] - a[1]);
  for (const [el, chars] of ranked.slice(0, 5)) {
    if (chars < AT_LEAST || chars < TIMES * extractedChars) return null;
    if (!insideNonArticle(el) && !hidden(el)) return el;
  }
  return null;
}
