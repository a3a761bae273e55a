/**
 * The article's headline: which of the page's h1s is its title, and where its words are on the page.
 * Apart from the extraction (extract.ts) because an article read title first (title-first.ts) finds it
 * the same way before Readability runs, in the page and in the background.
 */
import type { Headline, Segment } from './extract';
import { tokens } from './highlight';
import { hiddenOnPage, type Sight } from './sight';
import { isSpeakable, squeezeSpaces as clean } from './chars';
import { boundTitle } from './title';

/** The title read first: the page's headline whose words are `title`'s, else `title` itself, kept to a sane length. */
export function headlineOf(doc: Document, title: string, seen: Sight = { seen: new Map() }): Headline {
  const h1s = Array.from(doc.getElementsByTagName('h1'));
  return headlineIn(
    doc,
    headlineAmong(
      h1s.map((h1) => h1.textContent ?? ''),
      title,
      (i) => hiddenOnPage(h1s[i]!, seen),
    ),
  );
}

/** The headline `headlineAmong` found, with where its words are on the page: the text of the h1 it is (none for −1, or an h1 gone since). */
export function headlineIn(doc: Document, found: { text: string; h1: number }): Headline {
  const segments: Segment[] = [];
  const h1 = found.h1 >= 0 ? doc.getElementsByTagName('h1')[found.h1] : undefined;
  const walker = h1 ? doc.createTreeWalker(h1, NodeFilter.SHOW_TEXT) : null;
  for (let n = walker?.nextNode() as Text | null; n; n = walker!.nextNode() as Text | null) {
    if (n.data.trim()) segments.push({ node: n, start: 0, end: n.data.length });
  }
  return { text: found.text, segments };
}

/**
 * The article's title as the page shows it: the first `h1` (of `h1s`, their text) the reader sees
 * (`hidden`, asked only of those that match) whose words are the title's, or hold it (a title with a site
 * suffix: "Headline — Site"), and its index; else the title Readability found, kept to a sane length, with
 * no place on the page to highlight (it may be only in `<title>`): index −1.
 */
export function headlineAmong(h1s: readonly string[], title: string, hidden: (index: number) => boolean): { text: string; h1: number } {
  const cleanTitle = clean(title);
  let want: string | undefined;
  for (let i = 0; i < h1s.length; i++) {
    const text = clean(h1s[i]!);
    // A heading that is the title itself, letter for letter (with a letter or digit the service reads,
    // which `tokens` always reads as a word), has its words; others are compared word by
    // word. `tokens` folds case and marks, and its first call in a page built Firefox's Unicode tables
    // there (3.5 ms of the 8 the title took, on the way to the first audio).
    if (text !== cleanTitle || !isSpeakable(text)) {
      const have = tokens(text).join(' ');
      if (!have) continue;
      want ??= tokens(cleanTitle).join(' ');
      if (want && !want.includes(have) && !have.includes(want)) continue;
    }
    if (hidden(i)) continue;
    return { text, h1: i };
  }
  return { text: boundTitle(cleanTitle), h1: -1 };
}
