/**
 * The article's headline: which of the page's h1s is its title, and where its words are on the page.
 * Apart from the extraction (extract.ts) because an article read title first (title-first.ts) finds it
 * the same way before Readability runs, in the page and in the background.
 */
import type { Headline, Segment } from './extract';
import { tokens } from './text-index';
import { hiddenOnPage, type Sight } from './sight';
import { isSpeakable, squeezeSpaces as clean } from './chars';
import { boundTitle } from './title';
import { isSiteName, siteFreeTitle, type SiteNames } from './site-title';

/**
 * An h1 as the headline's choice sees it: its text, and where it stands (`h1Place`). page-facts.ts reads the
 * same of the live page in its own copy (an injected function has no imports); the unit tests hold them equal.
 */
export interface H1Facts {
  text: string;
  /** In the page's banner: a `nav`, a `[role=banner]`, or a `header` that is not an article's or a section's. */
  banner?: boolean;
  /** In an `article` or `main` (or their roles): where an article's headline is. */
  main?: boolean;
  /** A link to a site's home ("/", "/en-US/", "index.html", "https://kinja.com"): a logo. */
  home?: boolean;
}

/** The title read first: the page's headline (`headlineAmong`), else `title` without its site, kept to a sane length. */
export function headlineOf(doc: Document, title: string, seen: Sight = { seen: new Map() }): Headline {
  const h1s = Array.from(doc.getElementsByTagName('h1'));
  const metas = Array.from(doc.getElementsByTagName('meta'), (m) => [m.getAttribute('name'), m.getAttribute('property'), m.getAttribute('content')] as const);
  const facts = h1s.map((h1) => ({ text: h1.textContent ?? '', ...h1Place(h1) }));
  const site = { siteName: siteNameIn(metas), host: hostOf(doc) };
  const h2s = Array.from(doc.getElementsByTagName('h2'), (h2) => h2.textContent ?? '');
  return headlineIn(doc, headlineAmong(facts, [title, doc.title ?? ''], site, (i) => hiddenOnPage(h1s[i]!, seen), h2s));
}

/** The headline `headlineAmong` found, with where its words are on the page: the text of the h1 it is (none for −1, or an h1 gone since). */
export function headlineIn(doc: Document, found: { text: string; h1: number }): Headline {
  const h1 = found.h1 >= 0 ? doc.getElementsByTagName('h1')[found.h1] : undefined;
  return { text: found.text, segments: textOf(doc, h1 ?? titleShownAs(doc, found.text)) };
}

/** Where a title found in no h1 is shown as it is: a heading or a marked title (an h2, Blogger's `h3.post-title`). */
const TITLE_PLACES = 'h2,h3,h4,[itemprop="headline"],[itemprop="name"],.entry-title,.post-title';

/** The first element of `TITLE_PLACES` whose words are `title`'s (the sentence highlight marks it while the title is read). */
function titleShownAs(doc: Document, title: string): Element | undefined {
  const want = tokens(title).join(' ');
  if (!want) return undefined;
  return Array.from(doc.querySelectorAll(TITLE_PLACES)).find((el) => tokens(el.textContent ?? '').join(' ') === want);
}

function textOf(doc: Document, el: Element | undefined): Segment[] {
  const segments: Segment[] = [];
  const walker = el ? doc.createTreeWalker(el, NodeFilter.SHOW_TEXT) : null;
  for (let n = walker?.nextNode() as Text | null; n; n = walker!.nextNode() as Text | null) {
    if (n.data.trim()) segments.push({ node: n, start: 0, end: n.data.length });
  }
  return segments;
}

/**
 * The article's title as the page shows it, and the index of its h1 (of `h1s`; `hidden` is asked only of
 * those chosen), −1 when it is not on the page. `titles`: Readability's (the page's metadata, else its
 * `<title>`), then the `<title>` itself.
 * 1. the first h1 whose words are a title's (without its site: `siteFreeTitle`), or hold them, or are held
 *    by them ("Headline" of "Headline — Site"), unless it is a logo (a link home, or the site's name);
 * 2. else the first h2 that holds a title of three words or more (the story's headline set as an h2, the page's
 *    one h1 a teaser's: digg.com);
 * 3. else the page's main headline (`mainHeadline`): the article's h1, whatever the titles say;
 * 4. else Readability's title without its site's name and sections, kept to a sane length.
 */
export function headlineAmong(
  h1s: readonly H1Facts[],
  titles: string | readonly string[],
  site: SiteNames,
  hidden: (index: number) => boolean,
  h2s: readonly string[] = [],
): { text: string; h1: number } {
  const bare = [titles].flat().map((title) => siteFreeTitle(title, site));
  // A heading's permalink (Sphinx's and MkDocs' "¶", left out of the article's headings: notes.ts) is no part of it.
  const texts = h1s.map((h) => clean(h.text).replace(/\s*¶$/u, ''));
  const logo = (i: number) => h1s[i]!.home === true || isSiteName(texts[i]!, site);
  // The titles' words, padded for whole-word matching; made once, when first asked (see below).
  let wanted: string[] | undefined;
  const wants = () => (wanted ??= bare.map(spacedWords).filter((want) => want.trim() !== ''));
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i]!;
    if (logo(i)) continue;
    // A heading that is the title itself, letter for letter (with a letter or digit the service reads,
    // which `tokens` always reads as a word), has its words; others are compared word by word (whole
    // words: "Газета" is not held by "газетах"). `tokens` folds case and marks, and its first call in a
    // page built Firefox's Unicode tables there (much of the title's time, on the way to the first audio).
    if (text !== bare[0] || !isSpeakable(text)) {
      const have = spacedWords(text);
      if (!have.trim()) continue;
      // No title with words: any heading with words is the title.
      if (wants().length > 0 && !wants().some((want) => want.includes(have) || have.includes(want))) continue;
    }
    if (hidden(i)) continue;
    return { text, h1: i };
  }
  // The title shown as an h2 (the story's headline, the page's one h1 a teaser's beside it): that h2, not an h1 of other words.
  const shown = h2s.map(clean).find((h2) => {
    const have = spacedWords(h2);
    // Of three words or more: a title of one or two ("Home", the site's name) is in many a heading.
    return have.trim() !== '' && wants().some((want) => want.trim().split(' ').length >= 3 && have.includes(want));
  });
  if (shown) return { text: shown, h1: -1 };
  const main = mainHeadline(h1s, texts, bare.join(' '), site, (i) => !logo(i) && !hidden(i));
  return main >= 0 ? { text: texts[main]!, h1: main } : { text: boundTitle(bare[0] ?? ''), h1: -1 };
}

/** A text's words (`tokens`) with a space before, between and after each: whole words found with `includes`. */
const spacedWords = (text: string) => ` ${tokens(text).join(' ')} `;

/** An h1 longer than this is not a headline (a photo's caption set as an h1: yahoo-2 in the corpus). */
const HEADLINE_MAX = 200;

/**
 * The h1 that is plausibly the article's headline when none is the title (a title the site wrote apart from
 * it: "Лукашенко тайно вступил в должность — «Вести Приозерья», городской портал" over "Инаугурация прошла
 * без гостей"), −1 for none: of two words or more, not a logo (`seen`: not a logo and not hidden). The first in
 * an article or `main`, whatever its words; else the first outside the page's banner, else the first in it,
 * if it shares a word of four letters or more with the titles (`title`: their words; a section's name in a
 * title bar, "Allergies Health Center", does not; any may when they are only the site's name). At most
 * `HEADLINE_MAX` characters. Readability's article is not
 * known yet when the title is read first: the same facts choose it there and when the article is read whole.
 */
function mainHeadline(h1s: readonly H1Facts[], texts: readonly string[], title: string, site: SiteNames, seen: (i: number) => boolean): number {
  const anyWords = isSiteName(title, site) || !isSpeakable(title);
  const titleWords = new Set(tokens(title).filter((w) => w.length >= 4));
  const plausible = (i: number) =>
    texts[i]!.length <= HEADLINE_MAX &&
    texts[i]!.split(' ').filter((w) => isSpeakable(w)).length >= 2 &&
    (h1s[i]!.main === true || anyWords || tokens(texts[i]!).some((w) => w.length >= 4 && titleWords.has(w)));
  const ranks = [(h: H1Facts) => h.main === true, (h: H1Facts) => !h.main && !h.banner, (h: H1Facts) => !h.main && h.banner === true];
  for (const rank of ranks) {
    for (let i = 0; i < h1s.length; i++) if (rank(h1s[i]!) && plausible(i) && seen(i)) return i;
  }
  return -1;
}

/** Where an h1 stands (`H1Facts`). Its copy in page-facts.ts must answer the same. */
export function h1Place(h1: Element): Required<Omit<H1Facts, 'text'>> {
  const header = h1.closest('header');
  const link = h1.closest('a') ?? h1.querySelector('a');
  return {
    banner: !!h1.closest('nav,[role=navigation],[role=banner]') || (!!header && !header.parentElement?.closest('article,aside,main,nav,section,[role=main],[role=article]')),
    main: !!h1.closest('article,main,[role=main],[role=article]'),
    home: isHomeLink(link?.getAttribute('href') ?? null),
  };
}

/** A link to a site's home: a path of "/" (or a locale's, "/en-US/"; or "index.html"), not a fragment. */
export function isHomeLink(href: string | null): boolean {
  if (href === null || href.trim() === '' || href.trim().startsWith('#')) return false;
  try {
    const path = new URL(href.trim(), 'http://h/').pathname.replace(/\/(?:index\.\w+)?$/i, '');
    return path === '' || /^\/[a-z]{2}(?:[-_][a-z]{2,4})?$/i.test(path);
  } catch {
    return false;
  }
}

/** The page's `og:site_name`, from each `<meta>`'s name, property and content (as page-facts.ts reads them). */
export function siteNameIn(metas: ReadonlyArray<readonly [string | null, string | null, string | null]>): string | null {
  return metas.find(([name, property]) => property === 'og:site_name' || name === 'og:site_name')?.[2] ?? null;
}

/** The page's host: its location's, else its base address's (a page parsed for the listening queue has no location). */
function hostOf(doc: Document): string {
  if (doc.location?.hostname) return doc.location.hostname;
  try {
    const base = new URL(doc.baseURI);
    return base.protocol === 'http:' || base.protocol === 'https:' ? base.hostname : '';
  } catch {
    return '';
  }
}
