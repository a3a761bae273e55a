/**
 * An article read title first (the page's side): its title, found before Readability runs, answered
 * as the reading's first part, and the bound of what the whole article can bill, which lets it go
 * without asking first. The rest follows from `extractFromPage` with that headline (page-reader.ts).
 */
import { Readability } from '@mozilla/readability';
import { type Extraction, headlineOf } from './extract';

/** Less text than this on a page may hold no article at all (Readability's own threshold): it is not read title first. */
const TITLE_FIRST_MIN_TEXT = 500;
/** A longer title is not read first: the reading's first part is then not the title alone. */
const TITLE_FIRST_MAX_TITLE = 150;
/**
 * Nor a shorter one: the rest is fetched from the page once the title plays (ReadingRun.growWhenWanted),
 * and its next part must come before the title's audio ends (20 characters: about 1.4 s of speech).
 */
const TITLE_FIRST_MIN_TITLE = 20;

/**
 * An article's title, found before the article is (Readability's title: the page's metadata, else its
 * `<title>` trimmed as Readability trims it), as the first batch of a reading: the rest follows from
 * `extractFromPage` with `headline` (the reading's first part is sent while Readability runs). Null
 * when the page is not read this way: a selection, a title short or long, a page with too little text,
 * or more than `maxText` code units of it (the reading could ask first: a preview, an estimate over the
 * threshold), or a Readability without the steps used.
 */
export function titleFirst(doc: Document, maxText: number): Extraction | null {
  if (doc.getSelection?.()?.toString().trim()) return null;
  const pageText = doc.body?.textContent ?? '';
  // The bound is never less than the page's text: a longer page is read whole first.
  if (pageText.length < TITLE_FIRST_MIN_TEXT || pageText.length > maxText) return null;
  const title = readabilityTitle(doc);
  if (title === null) return null;
  const headline = headlineOf(doc, title);
  if (!readAlone(headline.text)) return null;
  const bound = billedBound(pageText, headline.text, doc.body?.querySelectorAll('*').length ?? 0);
  if (bound > maxText) return null;
  return { text: { title: headline.text, source: 'article', blocks: [{ text: headline.text, kind: 'title' }], more: true, bound }, segments: [headline.segments] };
}

/**
 * The code units of `text` other than ASCII and Russian letters: folding may write up to three for one
 * character (ﬃ → ffi, ß → ss, ї → йи). A loop, not a Unicode regex's replace: on the New York Times'
 * page (280,000 characters) that took Firefox 4–6 ms of the page's answer.
 */
function foldableUnits(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // ASCII, Ё (0x401), А–я (0x410–0x44f), ё (0x451).
    if (c > 0x7f && c !== 0x401 && c !== 0x451 && (c < 0x410 || c > 0x44f)) n++;
  }
  return n;
}
/**
 * The most code points an article of this page (its words a part of `pageText`, and `title`) can bill before
 * the listener's pronunciation rules: one for each character of the page, three for one that folding may
 * write as three, two more for each element (the full stop a heading gets, the line break between blocks),
 * and the title three times over (it may be only in `<title>`). A bare address is read as its site as written
 * (utils/text/urls.ts): never longer than the address.
 */
export function billedBound(pageText: string, title: string, elements: number): number {
  const fixed = 3 * title.length + 2 * elements;
  return pageText.length + 2 * foldableUnits(pageText) + fixed;
}

/**
 * A title that is its reading's first part alone, read whole or first: one sentence (a second would be
 * packed with the article's first words when read whole), of 20–150 characters, mostly in letters the
 * service reads (one in another script is left out with the rest of the article's own).
 */
function readAlone(title: string): boolean {
  const text = title.trim();
  if (text.length < TITLE_FIRST_MIN_TITLE || text.length > TITLE_FIRST_MAX_TITLE || /[.!?…;]\s+\S/u.test(text)) return false;
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  const read = text.match(/[A-Za-zА-Яа-яЁё]/g)?.length ?? 0;
  return read * 2 > letters;
}

/**
 * The title `Readability.parse` finds (its metadata's), read from the live page without parsing it: the
 * same steps, on the page before Readability's clean-up, which leaves the metadata and `<title>` as they are.
 */
function readabilityTitle(doc: Document): string | null {
  const reader = new Readability(doc) as unknown as { _getJSONLD?(doc: Document): object; _getArticleMetadata?(jsonLd: object): { title?: unknown } };
  if (typeof reader._getJSONLD !== 'function' || typeof reader._getArticleMetadata !== 'function') return null;
  try {
    const title = reader._getArticleMetadata(reader._getJSONLD(doc)).title;
    return typeof title === 'string' ? title : null;
  } catch {
    return null;
  }
}
