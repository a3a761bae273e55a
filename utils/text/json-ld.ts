/**
 * The article's text as the page's own structured data gives it (schema.org `articleBody` in JSON-LD), and
 * what of the extracted article it leaves out: a page that states its article's body whole says, block by
 * block, what is not the article (a teaser, a caption, a promotion Readability kept). Trusted only when it is
 * the whole article (many sites cut it to a summary). Runs in the content script; pure but for `articleBodyOf`.
 */
import { tokens } from './text-index';

/** The longest `articleBody` among the page's JSON-LD objects (`@graph` and arrays too); null when none. */
export function articleBodyOf(doc: Document): string | null {
  let best: string | null = null;
  const visit = (value: unknown, depth: number): void => {
    if (depth > 6 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) return value.forEach((v) => visit(v, depth + 1));
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (key === 'articleBody' && typeof v === 'string') {
        if (v.length > (best?.length ?? 0)) best = v;
      } else visit(v, depth + 1);
    }
  };
  for (const script of Array.from(doc.querySelectorAll('script[type="application/ld+json"]'))) {
    try {
      visit(JSON.parse(script.textContent ?? ''), 0);
    } catch {
      // A page's broken JSON-LD says nothing.
    }
  }
  return best;
}

/** Word runs of n (shingles) of a text's words, HTML tags and entities a body may hold aside. */
function shingles(text: string, n = 3): string[] {
  const words = tokens(text.replace(/<[^>]+>/g, ' ').replace(/&[a-z]+;|&#\d+;/gi, ' '));
  if (words.length < n) return words.length ? [words.join(' ')] : [];
  const out: string[] = [];
  for (let i = 0; i + n <= words.length; i++) out.push(words.slice(i, i + n).join(' '));
  return out;
}

/**
 * The indexes of `blocks` (paragraphs only; the title and headings stay) that `body` does not hold, when `body`
 * is the whole article: it holds at least 70 % of the blocks' word runs overall, and 80 % of its own are among
 * them (a summary is not the whole). A block after the body's first goes when it is a link, mostly (`linkShare`:
 * a teaser of another story; a quoted post, a pros-and-cons box or a standfirst the body leaves out are the
 * author's), under 20 % of its runs are in the body, it has three runs at least and 250 characters at most.
 */
export function outsideBody(blocks: ReadonlyArray<{ text: string; kind: string; linkShare?: number }>, body: string): Set<number> {
  const out = new Set<number>();
  const inBody = new Set(shingles(body));
  if (inBody.size < 20) return out;
  let all = 0;
  let found = 0;
  const perBlock = blocks.map((b) => {
    const runs = shingles(b.text);
    const hits = runs.filter((r) => inBody.has(r)).length;
    all += runs.length;
    found += hits;
    return { runs: runs.length, hits };
  });
  // The body's own runs found in the blocks: a body cut to a summary covers few of them.
  const inBlocks = new Set(blocks.flatMap((b) => shingles(b.text)));
  const bodyRuns = [...inBody];
  if (all === 0 || found < 0.7 * all || bodyRuns.filter((r) => inBlocks.has(r)).length < 0.8 * bodyRuns.length) return out;
  // What comes before the body's first words is the headline's company (a standfirst the body leaves to the page): kept.
  const start = perBlock.findIndex(({ runs, hits }, k) => blocks[k]!.kind === 'paragraph' && runs > 0 && hits >= 0.5 * runs);
  perBlock.forEach(({ runs, hits }, k) => {
    const b = blocks[k]!;
    if (k > start && b.kind === 'paragraph' && (b.linkShare ?? 0) >= 0.5 && runs >= 3 && hits < 0.2 * runs && b.text.length <= 250) out.add(k);
  });
  return out;
}
