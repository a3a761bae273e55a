/**
 * On saved real pages (Readability's test corpus, as the corpus end-to-end tests find it: `../shared/corpus`
 * beside the project, or TRYSASHA_CORPUS): an article read title first reads what it would read whole, and
 * the background finds the same title from what the injected function read of the page. Every sixth page
 * in `npm test` (the whole corpus with TITLE_FIRST_ALL=1); skipped, saying why, without the corpus (it is
 * not in this repository).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHTML } from 'linkedom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { extractFromPage } from '../../utils/text/extract';
import { mayBeReadTitleFirst, titleFirst, titleFirstFromHead } from '../../utils/text/title-first';
import { pageFacts } from '../../utils/text/page-facts';
import { corpusDir } from '../fixtures/corpus';

const dir = corpusDir;
const all = existsSync(dir) ? readdirSync(dir).filter((name) => existsSync(join(dir, name, 'source.html'))).sort() : [];
const pages = process.env.TITLE_FIRST_ALL ? all : all.filter((_, i) => i % 6 === 0);
/** Read title first though their `<title>` is short (the headline is their h1's): 2 of the corpus's 102. */
const KNOWN_NOT_FROM_TAB = new Set(['article-author-tag', 'quanta-1']);

describe.skipIf(pages.length === 0)(pages.length ? 'title first on saved real pages' : `title first on saved real pages: skipped, no corpus at ${dir}`, () => {
  afterEach(() => vi.unstubAllGlobals());
  const load = (html: string) => {
    const { document, Node } = parseHTML(html);
    vi.stubGlobal('NodeFilter', { SHOW_ELEMENT: 1, SHOW_TEXT: 4 });
    vi.stubGlobal('Node', Node);
    return document as unknown as Document;
  };

  it.each(pages)('%s: the title found first and the rest are the article read whole', (name) => {
    const html = readFileSync(join(dir, name, 'source.html'), 'utf8');
    const whole = extractFromPage(load(html), { articleOnly: true });
    const doc = load(html);
    const early = titleFirst(doc, Number.MAX_SAFE_INTEGER);
    // The background finds the same title from what the injected function read of the page.
    const read = pageFacts(Number.MAX_SAFE_INTEGER, doc);
    const fromHead = read?.head ? titleFirstFromHead(read.head, read.title, Number.MAX_SAFE_INTEGER) : null;
    expect(fromHead).toEqual(early?.text ?? null);
    if (!early) return; // not read title first (short page, short or long title): read whole
    // Its tab's title says it may be (else its script would go in beside the small function, for nothing).
    if (!KNOWN_NOT_FROM_TAB.has(name)) expect(mayBeReadTitleFirst(doc.title)).toBe(true);
    expect(early.text.title).toBe(whole.text.title);
    const rest = extractFromPage(doc, { articleOnly: true, headline: { text: early.text.title, segments: early.segments[0]! } });
    expect(rest.text.blocks).toEqual(whole.text.blocks);
    expect(early.text.bound).toBeGreaterThanOrEqual(whole.text.blocks.reduce((n, b) => n + b.text.length, 0));
  });
});
