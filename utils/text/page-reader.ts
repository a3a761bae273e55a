import { browser } from 'wxt/browser';
import { type ExtractedText } from './extract';
import { PageHighlighter, startBlockText, tokens } from './highlight';

/** Messages the background sends to the page it reads (never anything secret). */
export type PageMessage = { type: 'trysasha-highlight'; text: string } | { type: 'trysasha-clear-highlight' };

interface PageReader {
  highlighter: PageHighlighter;
  lastContextTarget: Element | null;
}

const KEY = '__trysashaPageReader';

/** Installs once per page (the extract script may be injected many times): highlighter, menu target, messages. */
export function installPageReader(): PageReader {
  const holder = globalThis as unknown as Record<string, PageReader | undefined>;
  const existing = holder[KEY];
  if (existing) return existing;
  const reader: PageReader = { highlighter: new PageHighlighter(document), lastContextTarget: null };
  document.addEventListener('contextmenu', (e) => (reader.lastContextTarget = e.target instanceof Element ? e.target : null), true);
  browser.runtime.onMessage.addListener((message: unknown) => {
    const m = message as PageMessage;
    if (m?.type === 'trysasha-highlight') reader.highlighter.show(m.text);
    else if (m?.type === 'trysasha-clear-highlight') reader.highlighter.clear();
  });
  holder[KEY] = reader;
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
