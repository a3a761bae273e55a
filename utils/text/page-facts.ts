/**
 * What a small function injected before the extract script reads of the page (self-contained: it is
 * injected as a function, with no imports), for the background to answer before the script is in.
 */

/**
 * The page's selection, read by a small function injected before the extract script (self-contained:
 * no imports): the background makes the answer the script would make of it (`selectionText`), and the
 * script is put in only once the first sentence is to be marked (its first part is sent sooner for it, in
 * Firefox by more than in Chrome). The script still answers then: the page keeps where each line is. Null
 * without a selection, and on the browser's PDF viewer (its page holds no text of the PDF).
 *
 * Without a selection, and with `titleMax` over 0, it also reads what an article's title first is found
 * from (`head`: utils/text/title-first.ts), when the page's text is at most `titleMax` code units: the
 * background finds the title from it, and the script (far larger) is put in once the title is marked or the
 * rest asked for. The page's script finds its own title from the same facts, read by this very function (`doc`).
 */
export function pageFacts(titleMax = 0, doc: Document = document): PageFacts | null {
  if (doc.contentType === 'application/pdf') return null;
  const selected = doc.getSelection?.()?.toString() ?? '';
  const page = { title: doc.title, site: doc.location?.hostname ?? '', url: doc.location?.href ?? '' };
  if (selected.trim()) return { selected, ...page };
  const text = titleMax > 0 ? (doc.body?.textContent ?? '') : '';
  if (!text || text.length > titleMax) return null;
  // The code units other than ASCII and Russian letters (folding may write up to three for one), counted
  // as the length their runs take out of the text: the engine's own scan. A loop over each code
  // unit ran as a new function's first run, not yet compiled (a long page's was most of this function's
  // time in Chrome); a replace of each one alone, with the `u` flag, was slow in Firefox.
  // ASCII, Ё (0x401), А–я (0x410–0x44f), ё (0x451); ASCII's control characters among them, as ASCII.
  // eslint-disable-next-line no-control-regex
  const foldable = text.length - text.replace(/[^\x00-\x7f\u0401\u0410-\u044f\u0451]+/g, '').length;
  const view = doc.defaultView;
  let scroll: { x: number; y: number } | undefined;
  // Whether the reader cannot see `el`: the same test as the extraction's (utils/text/sight.ts, `hiddenOnPage`).
  const hidden = (el: Element | null): boolean => {
    if (!el || el === doc.body || el === doc.documentElement) return false;
    if (typeof el.checkVisibility !== 'function' || !view) return false;
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return true;
    if (el.hasAttributes()) {
      scroll ??= { x: view.scrollX, y: view.scrollY };
      const r = el.getBoundingClientRect();
      if (r.right + scroll.x <= 0 || r.bottom + scroll.y <= 0) return true;
      if (r.width <= 1 || r.height <= 1) {
        const style = view.getComputedStyle(el);
        if (style.overflow !== 'visible' || style.clip !== 'auto' || style.clipPath !== 'none') return true;
      }
    }
    return hidden(el.parentElement);
  };
  // Where an h1 stands: the same answer as utils/text/headline.ts's `h1Place` (its copy: no imports here).
  const place = (h: Element) => {
    const header = h.closest('header');
    const href = (h.closest('a') ?? h.querySelector('a'))?.getAttribute('href')?.trim() ?? '';
    let home = false;
    if (href !== '' && !href.startsWith('#')) {
      try {
        const path = new URL(href, 'http://h/').pathname.replace(/\/(?:index\.\w+)?$/i, '');
        home = path === '' || /^\/[a-z]{2}(?:[-_][a-z]{2,4})?$/i.test(path);
      } catch {
        // Not an address: no link home.
      }
    }
    return {
      banner: !!h.closest('nav,[role=navigation],[role=banner]') || (!!header && !header.parentElement?.closest('article,aside,main,nav,section,[role=main],[role=article]')),
      main: !!h.closest('article,main,[role=main],[role=article]'),
      home,
    };
  };
  const jsonLd: string[] = [];
  for (const script of Array.from(doc.getElementsByTagName('script'))) {
    if (script.getAttribute('type') === 'application/ld+json') jsonLd.push(script.textContent ?? '');
  }
  const head: PageHead = {
    host: page.site,
    textLength: text.length,
    foldable,
    elements: doc.body?.querySelectorAll('*').length ?? 0,
    metas: Array.from(doc.getElementsByTagName('meta'), (m) => [m.getAttribute('name'), m.getAttribute('property'), m.getAttribute('content')] as const),
    jsonLd,
    h1: Array.from(doc.getElementsByTagName('h1'), (h) => ({ text: h.textContent ?? '', hidden: hidden(h), ...place(h) })),
    h2: Array.from(doc.getElementsByTagName('h2'), (h) => h.textContent ?? ''),
  };
  return { selected: '', ...page, head };
}

/** A page's selection as `pageFacts` read it, and what the answer made from it names. */
export interface PageFacts {
  selected: string;
  title: string;
  site: string;
  url: string;
  /** No selection: what the article's title first is found from. */
  head?: PageHead;
}

/**
 * What an article's title, read first, is found from (`pageFacts`): what Readability's title reads
 * (`<title>`, the metas, the JSON-LD, the h1 and h2 headings), which h1 the reader sees and where each stands,
 * the page's host, and the page's text for the bound of what the article can bill.
 */
export interface PageHead {
  /** The page's host ("oren.mk.ru"): a title's part that names it is not read. */
  host?: string;
  /** Code units of the body's text, and how many of them are neither ASCII nor Russian letters. */
  textLength: number;
  foldable: number;
  /** Elements in the body. */
  elements: number;
  /** Each `<meta>`'s name, property and content attributes, in order. */
  metas: ReadonlyArray<readonly [string | null, string | null, string | null]>;
  /** The text of each `<script type="application/ld+json">`, in order. */
  jsonLd: string[];
  /** Each h1's text, whether the reader sees it, and where it stands (utils/text/headline.ts, `H1Facts`). */
  h1: Array<{ text: string; hidden: boolean; banner?: boolean; main?: boolean; home?: boolean }>;
  h2: string[];
}
