/**
 * What a page's own markup and style hide, told without layout. A page fetched for the listening queue
 * (parse-article.ts) is parsed and never laid out: none of its elements has a computed style, so the
 * extraction's test of what the reader sees (sight.ts, `checkVisibility`) cannot answer, and text the page
 * hides would be read and billed. Read from the markup instead:
 * - the `hidden` attribute (not `hidden="until-found"`: collapsed text the page shows when it is searched
 *   for or linked to, part of its text) and `aria-hidden="true"`;
 * - `display: none`, `visibility: hidden` or `visibility: collapse` in an element's `style` attribute;
 * - the same declared by the rules of the page's own `<style>` elements (linked style sheets are never
 *   fetched), as css-rules.ts reads them: for the selectors that describe the page at rest.
 * When in doubt, text is read (as it was before this was told): a rule that may show what another hides
 * (`.tab > .active { display: block }` after `.tab > * { display: none }`, Tailwind's `hidden md:block`)
 * wins if it would in the cascade (`!important`, inline, specificity, order); a rule under a condition
 * (`@media (min-width: …)`, `@supports`) may show but never hides; what `@media print` says is not read;
 * and a page past any of the caps (below, and css-rules.ts's) is left to its attributes and inline styles.
 * `<html>` and `<body>` are never hidden (an anti-clickjacking `body { display: none }`, an anti-flicker
 * `html { visibility: hidden }`: lifted by the page's scripts, which a fetched page never runs).
 * Each element returned hides what it holds, text and elements (a descendant made `visibility: visible`
 * again is not looked for).
 */

import { ALWAYS, readDeclarations, readSheets, type Rule, type Said, type StyleText } from './css-rules';

// The reader's caps bound what this does too.
export { MAX_NESTING, MAX_SELECTOR_CHARS, MAX_SELECTORS, MAX_STYLE_CHARS } from './css-rules';

/**
 * Elements looked at, for all rules together: the page's elements once (indexed by tag, id and class), then
 * each selector tried (`matches`) on those with the class, id or tag it ends with (on all of them when it
 * names none) — hiding rules on the page's elements, rules that may show on the elements hidden. 200,000 is
 * 20 hiding selectors that name nothing on a page of 10,000 elements (the 130 pages of Readability's test
 * corpus look at far fewer). Past it, style sheets hide nothing.
 */
export const MAX_CHECKS = 200_000;
/** An element's `style` attribute read (its first characters; a declaration past them is not). */
export const MAX_INLINE_STYLE_CHARS = 2_000;

/** Per element: the rank of the strongest hiding `display`, hiding `visibility`, showing `display`, showing `visibility` (−1: none). */
type Ranks = [number, number, number, number];

/**
 * The cascade's order of two declarations of a property, as a number: `!important` first, then an inline
 * style, then the selector's specificity, then the later rule. Specificities are below 10⁹, orders below 10⁵.
 */
function rank(important: boolean, inline: boolean, spec: number, order: number): number {
  return ((important ? 2 : 0) + (inline ? 1 : 0)) * 1e14 + spec * 1e5 + order;
}

/**
 * The elements of `doc` (parsed, with no layout) its markup and own style hide: each hides what it holds.
 * Bounded by the caps (above, and css-rules.ts's) whatever the page.
 */
export function hiddenByStyle(doc: Document): Set<Element> {
  const hidden = new Set<Element>();
  const never = (el: Element) => el === doc.documentElement || el === doc.body;
  const inline = new Map<Element, Ranks>();
  for (const el of Array.from(doc.querySelectorAll('[hidden],[aria-hidden],[style]'))) {
    if (never(el)) continue;
    const attr = el.getAttribute('hidden');
    if ((attr !== null && attr.trim().toLowerCase() !== 'until-found') || el.getAttribute('aria-hidden')?.trim().toLowerCase() === 'true') {
      hidden.add(el);
      continue;
    }
    const raw = el.getAttribute('style')?.slice(0, MAX_INLINE_STYLE_CHARS);
    if (!raw || !/display|visibility/i.test(raw)) continue;
    const said = readDeclarations(raw);
    for (let p = 0; p < 2; p++) {
      const d = said[p];
      if (d) raise(inline, el, d.hides ? p : p + 2, rank(d.important, true, 0, 0));
    }
  }
  const sheets = fromSheets(doc, inline) ?? new Map<Element, Ranks>();
  for (const el of new Set([...inline.keys(), ...sheets.keys()])) {
    const i = inline.get(el);
    const s = sheets.get(el);
    const most = (slot: number) => Math.max(i?.[slot] ?? -1, s?.[slot] ?? -1);
    if (!never(el) && (most(0) > most(2) || most(1) > most(3))) hidden.add(el);
  }
  return hidden;
}

function raise(ranks: Map<Element, Ranks>, el: Element, slot: number, value: number): void {
  let r = ranks.get(el);
  if (!r) ranks.set(el, (r = [-1, -1, -1, -1]));
  if (value > r[slot]!) r[slot] = value;
}

/**
 * What the page's style sheets say of the elements they may hide, and of those `inline` hides: their ranks.
 * Null when a cap is passed (then they say nothing).
 */
function fromSheets(doc: Document, inline: Map<Element, Ranks>): Map<Element, Ranks> | null {
  const rules = readSheets(styleTexts(doc));
  if (!rules) return null;
  const ranks = new Map<Element, Ranks>();
  // In quirks mode classes and ids match in any case.
  const fold = doc.compatMode === 'BackCompat' ? (key: string) => key.toLowerCase() : (key: string) => key;
  let checks = 0;
  let page: Map<string | null, Element[]> | undefined;
  const probe = doc.createDocumentFragment();
  /** Whether every selector of `rule` parses here (a list with one that does not is dropped, as a browser drops it). */
  const validity = new Map<Rule, boolean>();
  const valid = (rule: Rule) => {
    let ok = validity.get(rule);
    if (ok === undefined) {
      checks += rule.selectors.length;
      ok = rule.selectors.every((s) => {
        try {
          probe.querySelector(s.text);
          return true;
        } catch {
          return false;
        }
      });
      validity.set(rule, ok);
    }
    return ok;
  };
  /** Tries `rule`'s selectors on the elements of `among` with their key, raising `slot` as `said` says; false past the cap. */
  const apply = (rule: Rule, said: Said, among: Map<string | null, Element[]>, slot: number): boolean => {
    for (const sel of rule.selectors) {
      const maybe = among.get(sel.key === null ? null : fold(sel.key));
      if (!maybe) continue;
      checks += maybe.length;
      if (checks > MAX_CHECKS) return false;
      const value = rank(said.important, false, sel.spec, rule.order);
      try {
        for (const el of maybe) if (el.matches(sel.text)) raise(ranks, el, slot, value);
      } catch {
        // A selector this engine cannot parse (its list was checked first): it matches nothing.
      }
    }
    return true;
  };

  // What hides (surely: on any screen): each selector tried on the page's elements with the class, id or tag
  // it ends with (a class the page does not have costs nothing), or on all of them.
  for (const rule of rules) {
    if (rule.media !== ALWAYS) continue;
    for (let p = 0; p < 2; p++) {
      const said = rule.said[p];
      if (!said?.hides || !valid(rule)) continue;
      if (!page) {
        page = byKeys(Array.from(doc.querySelectorAll('*')), fold);
        checks += page.get(null)!.length;
      }
      if (!apply(rule, said, page, p)) return null;
    }
  }

  // What may show them again (on a screen, or maybe: under a condition): each selector tried on the hidden elements.
  const hidden = new Set<Element>();
  for (const [el, r] of [...ranks, ...inline]) if (r[0] >= 0 || r[1] >= 0) hidden.add(el);
  if (hidden.size === 0) return ranks;
  const among = byKeys(hidden, fold);
  for (const rule of rules) {
    for (let p = 0; p < 2; p++) {
      const said = rule.said[p];
      if (said && !said.hides && valid(rule) && !apply(rule, said, among, p + 2)) return null;
    }
  }
  return ranks;
}

/** `els` by what a selector's subject may ask of them: their tag, '#id' and '.class'es; all of them by null. */
function byKeys(els: Iterable<Element>, fold: (key: string) => string): Map<string | null, Element[]> {
  const index = new Map<string | null, Element[]>([[null, []]]);
  const put = (key: string, el: Element) => {
    const list = index.get(key);
    if (!list) index.set(key, [el]);
    else if (list.at(-1) !== el) list.push(el);
  };
  for (const el of els) {
    index.get(null)!.push(el);
    put(el.tagName.toLowerCase(), el);
    if (el.id) put(fold(`#${el.id}`), el);
    for (const c of (el.getAttribute('class') ?? '').split(/[ \t\n\f\r]+/)) if (c) put(fold(`.${c}`), el);
  }
  return index;
}

/** The page's `<style>` elements that are CSS, read as they come (a cap passed stops the reading). */
function* styleTexts(doc: Document): Generator<StyleText> {
  for (const style of Array.from(doc.getElementsByTagName('style'))) {
    // A page's scripts run in its tab, where `<noscript>` holds text, not a style sheet.
    if (style.closest('noscript')) continue;
    const type = style.getAttribute('type')?.trim().toLowerCase();
    if (type && type !== 'text/css') continue;
    yield { css: style.textContent ?? '', media: style.getAttribute('media') ?? '' };
  }
}
