/**
 * A page's title without its site's name and section labels, as a listener expects it read: "Лукашенко тайно
 * вступил в должность — «Вести Приозерья», городской портал" is "Лукашенко тайно вступил в должность". Pure
 * functions of the title and what names the site: the page's script and the background (title-first.ts) and the
 * article read whole (extract.ts) find the same.
 */
import { looseForm, tokens } from './text-index';
import { isSpeakable, squeezeSpaces } from './chars';

/** What names a page's site: its `og:site_name` and its host ("oren.mk.ru"). */
export interface SiteNames {
  siteName?: string | null;
  host?: string | null;
}

/** Where a site or a section is set apart in a title: " | ", " - ", " — ", " – ", " :: ", " · ", " • ", " / ", " \ ", " » ", " > ". */
const SECTION_SEPARATOR = / (?:\||-|—|–|::|·|•|\/|\\|»|>) /g;
/** A colon ("Brexit: what next", "Screenshot : …") sets apart only a part that is the site's name. */
const ANY_SEPARATOR = / (?:\||-|—|–|::|·|•|\/|\\|»|>|:) |: /g;
/** A trailing part of at most this many words is a section label or a site's name ("В мире", "«Вести Приозерья», городской портал"). */
const SECTION_WORDS = 4;
/** Labels of a host that name no site: "www", "m" (mobile), the generic second levels ("co.uk", "com.ua"). */
const GENERIC_LABEL = /^(?:www\d?|m|amp|co|com|org|net|gov|edu|ac|or|ne|go)$/;

/**
 * `title` without the site's name at either end (a part equal to the `og:site_name` or to the host's name, after
 * any separator, a colon too) and without the trailing run of short parts (sections, the site's name as it
 * styles itself: "| В мире | Политика | Аргументы и Факты") after the title's longest part (`withoutSections`).
 * A title with no separator, or that is only the site's name, is kept whole: nothing is cut to leave nothing.
 */
export function siteFreeTitle(title: string, site: SiteNames = {}): string {
  const whole = squeezeSpaces(title);
  const cut = withoutSections(withoutSiteName(whole, siteKeys(site), squash(site.siteName ?? '')));
  return isSpeakable(cut) ? cut : whole;
}

/**
 * Whether `text` is only the site's name: its `og:site_name` or its host's name ("TMZ.com", "Silicon Exposed"),
 * or words all of the `og:site_name`'s (a blog's "Minecraft News" of "Minecraft Update News").
 */
export function isSiteName(text: string, site: SiteNames): boolean {
  const key = squash(text);
  if (key === '') return false;
  if (siteKeys(site).has(key)) return true;
  const named = new Set(tokens(site.siteName ?? ''));
  const words = tokens(text);
  return named.size > 0 && words.length > 0 && words.every((w) => named.has(w));
}

/** The forms the site's name is compared in: the `og:site_name`, the host whole ("tmzcom"), and each label naming it ("mk", "siliconexposed"). */
function siteKeys({ siteName, host }: SiteNames): Set<string> {
  const keys = new Set<string>();
  if (siteName) keys.add(squash(siteName));
  // An address (127.0.0.1, [::1]) names no site.
  const named = host && !/^[\d.]+$|:/.test(host) ? host : '';
  const labels = named.toLowerCase().split('.').filter(Boolean);
  while (labels.length > 0 && GENERIC_LABEL.test(labels[0]!)) labels.shift();
  if (labels.length > 1) {
    keys.add(squash(labels.join('.')));
    for (const label of labels.slice(0, -1)) if (!GENERIC_LABEL.test(label)) keys.add(squash(label));
  }
  keys.delete('');
  return keys;
}

/** Letters and digits only, in the loose form: "«Вести Приозерья»" and "вести-приозерья" are the same name. */
const squash = (text: string): string => looseForm(text).replace(/[^\p{L}\p{N}]+/gu, '');

/** A title's parts and the separators between them: [part, separator, part, …]. */
function split(text: string, separator: RegExp): string[] {
  const pieces: string[] = [];
  let from = 0;
  for (const m of text.matchAll(separator)) {
    pieces.push(text.slice(from, m.index), m[0]);
    from = m.index + m[0].length;
  }
  pieces.push(text.slice(from));
  return pieces;
}

/**
 * `text` without a first or last part that is the site's name (one of `keys`), as many times as there is one;
 * a last part may also open with the `og:site_name` (`siteName`) and say more ("«Вести Приозерья», городской портал").
 */
function withoutSiteName(text: string, keys: ReadonlySet<string>, siteName: string): string {
  for (;;) {
    const pieces = split(text, ANY_SEPARATOR);
    if (pieces.length < 3 || keys.size === 0) return text;
    const last = squash(pieces.at(-1)!);
    if (keys.has(last) || (siteName.length >= 4 && last.startsWith(siteName))) text = pieces.slice(0, -2).join('');
    else if (keys.has(squash(pieces[0]!))) text = pieces.slice(2).join('');
    else return text;
  }
}

/** Words with a letter: "3 декабря 2020, 18:47" has one, so a date never outweighs a headline. */
const wordCount = (part: string): number => part.split(' ').filter((w) => /\p{L}/u.test(w)).length;

/**
 * `text` without the short parts after its longest part ("Headline | Section | Site" is "Headline"): each of at
 * most four words, and fewer than that part ("Friday Facts #282 - 0.17 in sight" is a headline's own two halves).
 */
function withoutSections(text: string): string {
  const pieces = split(text, SECTION_SEPARATOR);
  if (pieces.length < 3) return text;
  let longest = 0;
  for (let i = 2; i < pieces.length; i += 2) {
    const [a, b] = [pieces[i]!, pieces[longest]!];
    if (wordCount(a) > wordCount(b) || (wordCount(a) === wordCount(b) && a.length > b.length)) longest = i;
  }
  const most = wordCount(pieces[longest]!);
  let end = pieces.length - 1;
  while (end > longest && wordCount(pieces[end]!) <= SECTION_WORDS && wordCount(pieces[end]!) < most) end -= 2;
  return pieces.slice(0, end + 1).join('');
}
