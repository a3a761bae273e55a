/**
 * The rules of a page's own `<style>` text that may hide or show an element, read without a CSS engine: a page
 * parsed and never laid out (style-hidden.ts) has no style sheets to ask. Pure (text in, rules out) and bounded
 * by the caps below whatever the text. Kept of each rule: what it says of `display` and `visibility` (hidden or
 * shown, `!important`), and the selectors that describe the page at rest: no pseudo-elements, no state
 * (`:hover`, `:focus`, `:checked`…), only structural pseudo-classes (`:not`, `:is`, `:where`, `:nth-child`…).
 * A rule under a condition (`@media (min-width: …)`, `@supports`) is marked so (it may show, never hide); what
 * `@media print` says is not read; a selector a browser would not parse drops its rule, as a browser drops it.
 */

/**
 * `<style>` text read in all, a page's elements together (well over the most among the 130 pages of Readability's
 * test corpus): past it, style sheets hide nothing.
 */
export const MAX_STYLE_CHARS = 1_000_000;
/**
 * Selectors of the rules that set `display` or `visibility` (far more than the most in the corpus): past it, style sheets
 * hide nothing.
 */
export const MAX_SELECTORS = 10_000;
/** A longer selector is not applied, whether its rule hides or shows (the rest of its list is). */
export const MAX_SELECTOR_CHARS = 500;
/** At-rule blocks within each other read (`@media` in `@layer` in `@supports`…): deeper ones are not. */
export const MAX_NESTING = 8;

/** Whether a rule applies when the page is shown on a screen: surely, maybe (a condition), or not. */
export const NEVER = 0;
export const MAYBE = 1;
export const ALWAYS = 2;
export type Media = typeof NEVER | typeof MAYBE | typeof ALWAYS;

/** What one declaration (or the winning one of a rule for its property) says: hidden, or shown; `!important`. */
export interface Said {
  hides: boolean;
  important: boolean;
}

/** One selector of a rule's list, as it is applied. */
export interface Selector {
  text: string;
  /** Specificity, as a*10⁶ + b*10³ + c. */
  spec: number;
  /** What the element it selects has: '.class', '#id' or a tag; null when nothing (`*`, `[attr]`, `:is(…)`). */
  key: string | null;
}

/** A style rule that sets `display` or `visibility`, as it is applied. */
export interface Rule {
  /** The selectors applied (the others, pseudo-elements and states, never match at rest). */
  selectors: Selector[];
  /** Its place among the rules read (the later wins the cascade's tie). */
  order: number;
  media: typeof MAYBE | typeof ALWAYS;
  /** The rule's `display`, then `visibility`. */
  said: [Said | undefined, Said | undefined];
}

/** A `<style>` element's text, and its `media` attribute ('' when it has none). */
export interface StyleText {
  css: string;
  media: string;
}

/** The rules of `sheets` (a page's, in order) that set `display` or `visibility`, in order; null past a cap. */
export function readSheets(sheets: Iterable<StyleText>): Rule[] | null {
  const out: Reader = { rules: [], selectors: 0, over: false };
  let chars = 0;
  for (const sheet of sheets) {
    const media = mediaOf(sheet.media);
    if (media === NEVER) continue;
    chars += sheet.css.length;
    if (chars > MAX_STYLE_CHARS) return null;
    const text = withoutComments(sheet.css);
    readRules(text, 0, text.length, media, 0, out);
    if (out.over) return null;
  }
  return out.rules;
}

/** What an element's `style` attribute says of `display`, then `visibility` (as a rule's block says it). */
export function readDeclarations(style: string): [Said | undefined, Said | undefined] {
  const text = withoutComments(style);
  return declarations(text, 0, text.length);
}

interface Reader {
  rules: Rule[];
  selectors: number;
  /** A cap was passed. */
  over: boolean;
}

/** Comments out, and the `<!--` and `-->` old pages wrap a sheet in; strings kept (a `/*` in a string is not a comment). */
function withoutComments(css: string): string {
  if (!css.includes('/*') && !css.includes('<!--') && !css.includes('-->')) return css;
  return css.replace(/\/\*[\s\S]*?(?:\*\/|$)|<!--|-->|("(?:[^"\\\n]|\\[\s\S])*"?|'(?:[^'\\\n]|\\[\s\S])*'?)/g, (_m, str: string | undefined) => str ?? ' ');
}

/** The rules of `s` from `from` to `to`, under `media`, into `out`. */
function readRules(s: string, from: number, to: number, media: Media, depth: number, out: Reader): void {
  for (let i = from; i < to && !out.over; ) {
    const stop = topLevel(s, i, to, '{};');
    if (stop >= to) return;
    // A statement (`@import …;`, `@layer a, b;`) or a stray brace.
    if (s[stop] !== '{') {
      i = stop + 1;
      continue;
    }
    const close = blockEnd(s, stop, to);
    const prelude = s.slice(i, stop).trim();
    if (prelude.startsWith('@')) {
      const name = /^@([-\w]*)/.exec(prelude)![1]!.toLowerCase();
      const inner = Math.min(media, atRuleMedia(name, prelude.slice(name.length + 1))) as Media;
      if (inner !== NEVER && depth < MAX_NESTING) readRules(s, stop + 1, close, inner, depth + 1, out);
    } else if (media !== NEVER) {
      readRule(prelude, s, stop + 1, close, media, out);
    }
    i = close + 1;
  }
}

/** Whether an at-rule's block applies on a screen (a block that holds no style rules: never). */
function atRuleMedia(name: string, condition: string): Media {
  if (name === 'media') return mediaOf(condition);
  if (name === 'layer') return ALWAYS;
  if (name === 'supports' || name === 'container' || name === 'scope' || name === 'document' || name === '-moz-document') return MAYBE;
  // @font-face, @keyframes, @page, @starting-style…
  return NEVER;
}

/**
 * Whether a media query list holds on a screen: surely (none, `all`, `screen`, `only screen`, `not print`),
 * maybe (a condition: `(min-width: 768px)`, `screen and (hover)`), or not (`print`, `speech`, another type).
 */
function mediaOf(query: string): Media {
  let best: Media = NEVER;
  for (const part of query.toLowerCase().split(',')) {
    const m = /^\s*(?:(not|only)\s+)?([a-z-]+)?\s*(.*?)\s*$/s.exec(part)!;
    const type = m[2] ?? 'all';
    const onScreen = type === 'all' || type === 'screen';
    const condition = m[3] !== '';
    let applies: Media;
    if (m[1] === 'not') applies = condition ? MAYBE : onScreen ? NEVER : ALWAYS;
    else applies = !onScreen ? NEVER : condition ? MAYBE : ALWAYS;
    if (applies > best) best = applies;
  }
  return best;
}

/** A style rule: what its declarations say of `display` and `visibility`, for its selectors. */
function readRule(prelude: string, s: string, from: number, to: number, media: typeof MAYBE | typeof ALWAYS, out: Reader): void {
  const said = declarations(s, from, to);
  if (!said[0] && !said[1]) return;
  const list = splitList(prelude, 0, prelude.length);
  out.selectors += list.length;
  if (out.selectors > MAX_SELECTORS) return void (out.over = true);
  const selectors: Selector[] = [];
  for (const [a, b] of list) {
    const text = prelude.slice(a, b).trim();
    const facts = text.length > MAX_SELECTOR_CHARS ? 'skip' : scanSelector(text, 0, text.length, 0);
    // A selector a browser cannot parse drops its whole rule.
    if (facts === 'invalid') return;
    if (facts !== 'skip') selectors.push({ text, spec: facts.spec, key: facts.key });
  }
  if (selectors.length) out.rules.push({ selectors, order: out.rules.length, media, said });
}

/**
 * What declarations from `from` to `to` say of `display` and `visibility` (the one that wins in the block: the
 * last, unless an earlier one is `!important`). Nested rules (CSS nesting) are passed over.
 */
function declarations(s: string, from: number, to: number): [Said | undefined, Said | undefined] {
  const said: [Said | undefined, Said | undefined] = [undefined, undefined];
  for (let i = from; i < to; ) {
    const stop = topLevel(s, i, to, ';{');
    if (s[stop] === '{') {
      i = blockEnd(s, stop, to) + 1;
      continue;
    }
    const declaration = s.slice(i, stop);
    const colon = declaration.indexOf(':');
    if (colon >= 0) {
      const prop = declaration.slice(0, colon).trim().toLowerCase();
      if (prop === 'display' || prop === 'visibility') {
        const p = prop === 'display' ? 0 : 1;
        let value = declaration.slice(colon + 1).trim().toLowerCase();
        const bang = /!\s*important$/.exec(value);
        if (bang) value = value.slice(0, bang.index).trim();
        // Anything but `none` (`block`, `var(--shown)`, `revert`) may show; an empty value is no declaration.
        const hides = p === 0 ? value === 'none' : value === 'hidden' || value === 'collapse';
        if (value && (!said[p]?.important || bang)) said[p] = { hides, important: !!bang };
      }
    }
    i = stop + 1;
  }
  return said;
}

/** Index just past the string opening at `s[i]` (a quote), or `to`. */
function skipString(s: string, i: number, to: number): number {
  const quote = s[i];
  for (i++; i < to; i++) {
    const c = s[i];
    if (c === '\\') i++;
    else if (c === quote || c === '\n') return i + 1;
  }
  return to;
}

/** The first of `stops` from `i` outside strings, parentheses and brackets, or `to`. */
function topLevel(s: string, i: number, to: number, stops: string): number {
  let depth = 0;
  while (i < to) {
    const c = s[i]!;
    if (c === '"' || c === "'") {
      i = skipString(s, i, to);
      continue;
    }
    if (c === '\\') i++;
    else if (c === '(' || c === '[') depth++;
    else if ((c === ')' || c === ']') && depth > 0) depth--;
    else if (depth === 0 && stops.includes(c)) return i;
    i++;
  }
  return to;
}

/** The `}` closing the block opened at `s[open]`, or `to` (a sheet's end closes what is open). */
function blockEnd(s: string, open: number, to: number): number {
  let depth = 0;
  for (let i = open; i < to; i++) {
    const c = s[i];
    if (c === '"' || c === "'") i = skipString(s, i, to) - 1;
    else if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return to;
}

/** The items of a comma-separated list from `from` to `to`, as [start, end) pairs. */
function splitList(s: string, from: number, to: number): Array<[number, number]> {
  const items: Array<[number, number]> = [];
  for (let i = from; ; ) {
    const comma = topLevel(s, i, to, ',');
    items.push([i, comma]);
    if (comma >= to) return items;
    i = comma + 1;
  }
}

/** Pseudo-classes that tell the page's structure, the same at rest as at any time. */
const STRUCTURAL = new Set([
  'not', 'is', 'where', 'root', 'empty', 'lang',
  'first-child', 'last-child', 'only-child', 'nth-child', 'nth-last-child',
  'first-of-type', 'last-of-type', 'only-of-type', 'nth-of-type', 'nth-last-of-type',
]);
/** `An+B` alone (`:nth-child(2n+1 of .x)` is not applied). */
const NTH = /^\s*(?:odd|even|[+-]?\d*n(?:\s*[+-]\s*\d+)?|[+-]?\d+)\s*$/i;
const IDENT_CHAR = /[\w\-\u0080-\uffff]/;

/**
 * One selector from `from` to `to`: its specificity and the class, id or tag its subject (the last compound)
 * has; 'skip' for one that is valid but not applied (a pseudo-element, a state, a namespace, nesting's `&`);
 * 'invalid' for one a browser would not parse.
 */
function scanSelector(s: string, from: number, to: number, depth: number): { spec: number; key: string | null } | 'skip' | 'invalid' {
  if (from >= to || s.slice(from, to).trim() === '') return 'invalid';
  let spec = 0;
  let key: string | null = null;
  let keyRank = 0;
  for (let i = from; i < to; ) {
    const c = s[i]!;
    if (' \t\n\r\f>+~'.includes(c)) {
      // A combinator: the subject is further on.
      key = null;
      keyRank = 0;
      i++;
    } else if (c === '*') {
      i++;
    } else if (c === '#' || c === '.') {
      const [name, next] = ident(s, i + 1, to);
      if (!name) return 'invalid';
      spec += c === '#' ? 1e6 : 1e3;
      const r = c === '#' ? 3 : 2;
      if (keyRank < r) [key, keyRank] = [c + name, r];
      i = next;
    } else if (c === '[') {
      const close = closing(s, i, to, '[', ']');
      if (close < 0) return 'invalid';
      spec += 1e3;
      i = close + 1;
    } else if (c === ':') {
      // A pseudo-element (`::before`) is generated content, never an element of the page.
      if (s[i + 1] === ':') return 'skip';
      const [raw, next] = ident(s, i + 1, to);
      if (!raw) return 'invalid';
      const name = raw.toLowerCase();
      i = next;
      let args: [number, number] | null = null;
      if (s[i] === '(') {
        const close = closing(s, i, to, '(', ')');
        if (close < 0) return 'invalid';
        args = [i + 1, close];
        i = close + 1;
      }
      if (!STRUCTURAL.has(name)) return 'skip';
      if (name === 'not' || name === 'is' || name === 'where') {
        if (!args || depth >= 4) return 'skip';
        let most = 0;
        for (const [a, b] of splitList(s, args[0], args[1])) {
          const inner = scanSelector(s, a, b, depth + 1);
          if (typeof inner === 'string') return inner;
          most = Math.max(most, inner.spec);
        }
        if (name !== 'where') spec += most;
      } else if (name.startsWith('nth-')) {
        if (!args || !NTH.test(s.slice(args[0], args[1]))) return 'skip';
        spec += 1e3;
      } else {
        // `:lang(…)` takes its argument, the others none.
        if ((name === 'lang') !== (args !== null)) return 'invalid';
        spec += 1e3;
      }
    } else if (/[a-zA-Z_\\-]/.test(c) || c.charCodeAt(0) >= 0x80) {
      const [name, next] = ident(s, i, to);
      if (next === i) return 'invalid';
      spec += 1;
      if (keyRank < 1) [key, keyRank] = [name.toLowerCase(), 1];
      i = next;
    } else {
      return c === '&' || c === '|' ? 'skip' : 'invalid';
    }
  }
  return { spec, key };
}

/** A CSS name from `i`, its escapes (`\:`, `\31 `) undone, and the index after it. */
function ident(s: string, i: number, to: number): [string, number] {
  let name = '';
  while (i < to) {
    const c = s[i]!;
    if (c === '\\') {
      const hex = /^[0-9a-fA-F]{1,6}/.exec(s.slice(i + 1, Math.min(i + 7, to)));
      if (hex) {
        const code = parseInt(hex[0], 16);
        name += String.fromCodePoint(code > 0 && code <= 0x10ffff ? code : 0xfffd);
        i += 1 + hex[0].length;
        if (i < to && /\s/.test(s[i]!)) i++;
      } else if (i + 1 < to) {
        name += s[i + 1];
        i += 2;
      } else break;
    } else if (IDENT_CHAR.test(c)) {
      name += c;
      i++;
    } else break;
  }
  return [name, i];
}

/** The `close` matching the `open` at `s[i]` (strings and nesting passed over), or −1. */
function closing(s: string, i: number, to: number, open: string, close: string): number {
  let depth = 0;
  while (i < to) {
    const c = s[i]!;
    if (c === '"' || c === "'") {
      i = skipString(s, i, to);
      continue;
    }
    if (c === '\\') i++;
    else if (c === open) depth++;
    else if (c === close && --depth === 0) return i;
    i++;
  }
  return -1;
}
