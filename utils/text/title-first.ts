/**
 * An article read title first (the page's side): its title, found before Readability runs, answered
 * as the reading's first part, and the bound of what the whole article can bill, which lets it go
 * without asking first. The rest follows from `extractFromPage` with that headline (`utils/content/page-reader.ts`).
 */
import { Readability } from '@mozilla/readability';
import type { Extraction, ExtractedText } from './extract';
import { headlineAmong, headlineIn, siteNameIn } from './headline';
import { type PageHead, pageFacts } from './page-facts';

/** Less text than this on a page may hold no article at all (Readability's own threshold): it is not read title first. */
const TITLE_FIRST_MIN_TEXT = 500;
/** A longer title is not read first: the reading's first part is then not the title alone. */
const TITLE_FIRST_MAX_TITLE = 150;
/**
 * Nor a shorter one: the rest is fetched from the page once the title plays (RunGrowth.whenWanted),
 * and its next part must come before the title's audio ends (20 characters: about 1.4 s of speech).
 */
const TITLE_FIRST_MIN_TITLE = 20;

/**
 * An article's title, found before the article is (the page's headline, else Readability's title: the page's
 * metadata, else its `<title>`, without its site's name: headline.ts), as the first batch of a reading: the rest follows from
 * `extractFromPage` with `headline` (the reading's first part is sent while Readability runs). Null
 * when the page is not read this way: a selection, a title short or long, a page with too little text,
 * or more than `maxText` code units of it (the reading could ask first: a preview, an estimate over the
 * threshold), or a Readability without the steps used. Found from what `pageFacts` reads of the page,
 * as the background finds it from the same facts (`titleFirstFromHead`).
 */
export function titleFirst(doc: Document, maxText: number): Extraction | null {
  const head = pageFacts(maxText, doc)?.head;
  if (!head) return null;
  const found = titleFrom(head, readabilityTitle(doc), doc.title, maxText);
  if (!found) return null;
  const { segments } = headlineIn(doc, found);
  // The page changed between its facts and now (its h1 gone): not read title first.
  if (found.h1 >= 0 && segments.length === 0) return null;
  return { text: titleFirstText(found), segments: [segments] };
}

/**
 * An article's title read first, found from what `pageFacts` read of its page (`title`: its `<title>`) by
 * the background, before the page's script is in: Readability's title from a stand-in document of those
 * facts alone (`documentOf`: no DOM needed, Chromium's service worker has none), the rest as `titleFirst`
 * finds it on the page itself. The page's script, answering the same request, keeps where the title is.
 */
export function titleFirstFromHead(head: PageHead, title: string, maxText: number): ExtractedText | null {
  const found = titleFrom(head, readabilityTitle(documentOf(head, title)), title, maxText);
  return found && titleFirstText(found);
}

function titleFirstText(found: { text: string; bound: number }): ExtractedText {
  return { title: found.text, source: 'article', blocks: [{ text: found.text, kind: 'title' }], more: true, bound: found.bound };
}

/**
 * The headline read first (and the index of the h1 it is, −1 for none), and the bound; null when the page is not
 * read title first. `title`: Readability's; `pageTitle`: the page's `<title>`.
 */
function titleFrom(head: PageHead, title: string | null, pageTitle: string, maxText: number): { text: string; h1: number; bound: number } | null {
  if (head.textLength < TITLE_FIRST_MIN_TEXT || head.textLength > maxText || title === null) return null;
  const found = headlineAmong(head.h1, [title, pageTitle], { siteName: siteNameIn(head.metas), host: head.host }, (i) => head.h1[i]!.hidden, head.h2);
  if (!readAlone(found.text)) return null;
  const bound = billedBound(head, found.text);
  return bound > maxText ? null : { ...found, bound };
}

/**
 * A stand-in document holding only what Readability's title steps read of a page (`_getJSONLD`,
 * `_getArticleMetadata`, `_getArticleTitle`: its `title`, and by `getElementsByTagName` the metas' and
 * JSON-LD scripts' attributes and text, the h1 and h2 headings' text), made from what `pageFacts` read.
 * Those steps touch nothing else of a document (Readability 0.6; the corpus test finds the same title on
 * all 130 of its pages, and the unit tests' pages cover each step).
 */
function documentOf(head: PageHead, title: string): Document {
  const element = (text: string, attributes: Record<string, string | null> = {}) => ({ textContent: text, getAttribute: (name: string) => attributes[name] ?? null });
  const byTag: Record<string, unknown[]> = {
    meta: head.metas.map(([name, property, content]) => element('', { name, property, content })),
    script: head.jsonLd.map((json) => element(json, { type: 'application/ld+json' })),
    h1: head.h1.map((h1) => element(h1.text)),
    h2: head.h2.map((h2) => element(h2)),
  };
  const root = {};
  return { title, documentElement: root, firstChild: root, getElementsByTagName: (tag: string) => byTag[tag.toLowerCase()] ?? [] } as unknown as Document;
}

/**
 * The most code points an article of this page (its words a part of the page's text, and `title`) can bill
 * before the listener's pronunciation rules: one for each character of the page, three for one that folding
 * may write as three (`foldable`: the code units other than ASCII and Russian letters, as ﬃ → ffi, ß → ss,
 * ї → йи), two more for each element (the full stop a heading gets, the line break between blocks), and the
 * title three times over (it may be only in `<title>`). A bare address is read as its site as written
 * (utils/text/urls.ts): never longer than the address.
 */
export function billedBound(page: Pick<PageHead, 'textLength' | 'foldable' | 'elements'>, title: string): number {
  return page.textLength + 2 * page.foldable + 3 * title.length + 2 * page.elements;
}

/**
 * A title that is its reading's first part alone, read whole or first: one sentence (a second would be
 * packed with the article's first words when read whole), of 20–150 characters, mostly in letters the
 * service reads (one in another script is left out with the rest of the article's own).
 */
function readAlone(title: string): boolean {
  const text = title.trim();
  if (text.length < TITLE_FIRST_MIN_TITLE || text.length > TITLE_FIRST_MAX_TITLE || /[.!?…;]\s+\S/u.test(text)) return false;
  return readMostly(text);
}

/** Mostly in letters the service reads (one in another script is left out with the rest of the article's own). */
function readMostly(text: string): boolean {
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  const read = text.match(/[A-Za-zА-Яа-яЁё]/g)?.length ?? 0;
  return read * 2 > letters;
}

/**
 * Whether a page may be read title first, as far as its tab's title tells before anything of the page is
 * read: the headline is most often its `<title>` less the site's name, so a tab title too short for a title
 * read first, or mostly in letters the service does not read, says it likely is not (a headline from the
 * page's h1 is not known yet). No title known: it may be.
 */
export function mayBeReadTitleFirst(tabTitle: string | undefined): boolean {
  if (tabTitle === undefined) return true;
  const text = tabTitle.trim();
  return text.length >= TITLE_FIRST_MIN_TITLE && readMostly(text);
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
