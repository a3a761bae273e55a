import { onPageRequest } from '../messaging/content';
import { extractFromPage, type ExtractedText } from './extract';
import { PageHighlighter, startBlockText, tokens } from './highlight';

interface PageReader {
  highlighter: PageHighlighter;
  lastContextTarget: Element | null;
}

declare global {
  // The content script's isolated world outlives each injection: a second injection finds the first's reader.
  var __trysashaPageReader: PageReader | undefined;
}

/**
 * Installs once per page, however often the extract script is injected (it stays resident after the
 * first): the highlighter, the right-click target for "Read from here", and the handlers of the
 * background's messages (@webext-core allows one handler per type in a context).
 */
export function installPageReader(doc: Document = document): PageReader {
  const existing = globalThis.__trysashaPageReader;
  if (existing) return existing;
  const reader: PageReader = { highlighter: new PageHighlighter(doc), lastContextTarget: null };
  doc.addEventListener('contextmenu', (e) => (reader.lastContextTarget = e.target instanceof Element ? e.target : null), true);
  onPageRequest('extract', ({ data }) =>
    data.mode === 'from-here' ? fromHere(extractFromPage(doc, { articleOnly: true }), reader.lastContextTarget, doc) : extractFromPage(doc),
  );
  onPageRequest('highlight', ({ data }) => reader.highlighter.show(data.text));
  onPageRequest('clearHighlight', () => reader.highlighter.clear());
  globalThis.__trysashaPageReader = reader;
  return reader;
}

/** "Read from here": the article from the block the user pointed at. */
export function fromHere(extracted: ExtractedText, clicked: Element | null, doc: Document = document): ExtractedText {
  const want = tokens(startBlockText(doc, clicked)).slice(0, 8).join(' ');
  if (!want) return extracted;
  const at = extracted.blocks.findIndex((b) => {
    const have = tokens(b.text).join(' ');
    return have.startsWith(want) || want.startsWith(have.slice(0, Math.max(want.length, 1)));
  });
  return at < 0 ? extracted : { ...extracted, blocks: extracted.blocks.slice(at) };
}
