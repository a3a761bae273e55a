import { Readability } from '@mozilla/readability';

export interface TextBlock {
  text: string;
  kind: 'title' | 'heading' | 'paragraph';
}

export interface ExtractedText {
  title: string;
  source: 'selection' | 'article';
  blocks: TextBlock[];
  /** How long the extraction took in the page (for the benchmarks). */
  tookMs?: number;
}

const BLOCK_SELECTOR = 'h1,h2,h3,h4,h5,h6,p,li,blockquote,pre,dd,dt,figcaption,td,th';
const HEADING = /^H[1-6]$/;

const clean = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Lines of a selection become paragraphs of their own. */
export function blocksFromPlainText(text: string): TextBlock[] {
  return text
    .split(/\n+/)
    .map(clean)
    .filter(Boolean)
    .map((line) => ({ text: line, kind: 'paragraph' as const }));
}

/**
 * Walks the article's block elements in order: headings become blocks of their
 * own, so they are read as sentences; nested blocks are read once.
 */
export function blocksFromArticleHtml(html: string, doc: Document): TextBlock[] {
  // Parsed in an inert document: no scripts run, no images load.
  const root = doc.implementation.createHTMLDocument('').createElement('div');
  root.innerHTML = html;
  const blocks: TextBlock[] = [];
  for (const el of Array.from(root.querySelectorAll(BLOCK_SELECTOR))) {
    if (el.parentElement?.closest(BLOCK_SELECTOR) && !HEADING.test(el.tagName)) continue;
    const text = clean(el.textContent ?? '');
    if (!text) continue;
    blocks.push({ text, kind: HEADING.test(el.tagName) ? 'heading' : 'paragraph' });
  }
  if (blocks.length === 0) blocks.push(...blocksFromPlainText(root.textContent ?? ''));
  return blocks;
}

/**
 * The selection when there is one (unless `articleOnly`), else the page's main
 * article (navigation, ads and comments are left out).
 */
export function extractFromPage(doc: Document = document, opts: { articleOnly?: boolean } = {}): ExtractedText {
  const started = performance.now();
  const result = extract(doc, opts);
  return { ...result, tookMs: Math.round((performance.now() - started) * 10) / 10 };
}

function extract(doc: Document, opts: { articleOnly?: boolean }): ExtractedText {
  const selected = opts.articleOnly ? '' : (doc.getSelection()?.toString() ?? '');
  if (selected.trim()) {
    return { title: clean(doc.title), source: 'selection', blocks: blocksFromPlainText(selected) };
  }
  const article = new Readability(doc.cloneNode(true) as Document, { charThreshold: 100 }).parse();
  if (!article?.content) return { title: clean(doc.title), source: 'article', blocks: [] };
  const title = clean(article.title ?? doc.title ?? '');
  const blocks = blocksFromArticleHtml(article.content, doc);
  // Readability often keeps the headline as the first heading: read it once, as the title.
  if (blocks[0] && clean(blocks[0].text) === title) blocks.shift();
  return { title, source: 'article', blocks: title ? [{ text: title, kind: 'title' }, ...blocks] : blocks };
}
