/**
 * The lede a page sets apart between its headline and its body (`<div class="article__lead">`, "standfirst", "dek",
 * «анонс»), which Readability leaves out when it picks the body alone: a news story then starts at its second
 * paragraph. Found on the live page, in document order after the headline and before the article's first words, by
 * the words its class or id is made of; pure but for the document it is given. Runs in the content script.
 */
import { squeezeSpaces } from './chars';

/** Class or id tokens that name a lede: "lead", "lede", "standfirst", "dek", "intro", "summary", "subtitle", «анонс» (anons). */
const LEDE_TOKENS = new Set(['lead', 'lede', 'leadin', 'standfirst', 'dek', 'deck', 'intro', 'summary', 'subtitle', 'subheadline', 'annotation', 'anons', 'announce', 'excerpt', 'abstract', 'preamble', 'description', 'descr']);
/** Tokens that, beside one of those, say it is something else: a "lead-image", a "summary-list" of links, a card's "intro-link". */
const NOT_LEDE = new Set(['image', 'img', 'photo', 'picture', 'video', 'media', 'link', 'links', 'list', 'nav', 'menu', 'author', 'date', 'meta', 'button', 'form', 'wrap', 'wrapper', 'container']);
/** How many elements after the headline are looked at: a lede is near it. */
const LOOK_AHEAD = 300;

/** Class and id tokens, split at spaces, `-`, `_` and camel case ("articleLead" → article, lead). */
const tokensOf = (el: Element) =>
  `${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`
    .split(/[\s_-]+|(?<=[a-z])(?=[A-Z])/)
    .map((t) => t.toLowerCase())
    .filter(Boolean);

/** The element in document order after `el`, not inside it when `skipInside`. */
function nextElement(el: Element, skipInside: boolean): Element | null {
  if (!skipInside && el.firstElementChild) return el.firstElementChild;
  for (let at: Element | null = el; at; at = at.parentElement) if (at.nextElementSibling) return at.nextElementSibling;
  return null;
}

/**
 * The lede between `headline` and `articleStart` (the live page's first text node of the article read), or null:
 * an element whose class or id names a lede, that holds neither the article nor the headline, with 60–1,200
 * characters of text that is mostly not links, and is not `hidden`.
 */
export function ledeBetween(headline: Element, articleStart: Text, hidden: (el: Element) => boolean = () => false): Element | null {
  // Walked as elements, in document order, to the one that holds the article's first words: only a lede met
  // before it counts (a headline after the article's start finds none).
  const startEl = articleStart.parentElement;
  let lede: Element | null = null;
  let el = nextElement(headline, true);
  for (let n = 0; el && n < LOOK_AHEAD; n++) {
    if (el === startEl) return lede;
    if (el.contains(articleStart)) {
      el = nextElement(el, false);
      continue;
    }
    const tokens = tokensOf(el);
    if (!lede && tokens.some((t) => LEDE_TOKENS.has(t)) && !tokens.some((t) => NOT_LEDE.has(t))) {
      const text = squeezeSpaces(el.textContent ?? '');
      const links = Array.from(el.querySelectorAll('a'), (a) => squeezeSpaces(a.textContent ?? '').length).reduce((s, x) => s + x, 0);
      if (text.length >= 60 && text.length <= 1200 && links * 2 < text.length && /[.!?…»"”]$/u.test(text) && !hidden(el)) lede = el;
      el = nextElement(el, true);
      continue;
    }
    el = nextElement(el, false);
  }
  return null;
}
