/**
 * A page fetched (not open in a tab) read as its article: the listening queue's entries. Runs where a
 * DOM parser is (Chrome's offscreen document, Firefox's background page); the same extraction and
 * clean-up as a page read in its tab. The page is never laid out: what its CSS hides is told from its
 * markup, inline styles and own `<style>` rules instead (style-hidden.ts), never its linked style sheets.
 */
import { type CleanupChoices, type ExtractedText, extractFromPage } from './extract';
import { hiddenByStyle } from './style-hidden';

export function parseArticle(html: string, url: string, choices: CleanupChoices): ExtractedText {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  // Relative addresses in the text (and Readability's link fixing) resolve against the page's own.
  if (!doc.querySelector('base[href]')) {
    const base = doc.createElement('base');
    base.href = url;
    doc.head.prepend(base);
  }
  const { text } = extractFromPage(doc, { ...choices, articleOnly: true, hiddenByStyle: hiddenByStyle(doc) });
  let site = '';
  try {
    site = new URL(url).hostname;
  } catch {
    // An address the fetch accepted always parses; nothing to name otherwise.
  }
  return { ...text, url, site };
}
