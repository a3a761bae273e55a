/**
 * A printed page's furniture in preformatted prose (an RFC, a plain-text page): the running head and foot at
 * each page break ("Internet-Draft   remoteStorage   December 2014", "de Jong   Expires June 18, 2015   [Page 3]").
 * Read, they cut the text every 50 lines with the same words. Pure functions of the lines; the extraction
 * (extract.ts) leaves out the lines they name, and counts them.
 */

/** A page's foot: it ends with its number, "[Page 3]", after a gap or alone (prose that says "[Page 3]" runs on). */
const FOOT = /(?:^|\S {2,})\[Page \d+\]$/i;
/** Set in columns: two runs of words at least three spaces apart, as a running head or foot is laid out. */
const COLUMNS = /\S {3,}\S/;
const FORM_FEED = '\f';

/** A line's form, to find it again on the next page: trimmed, its numbers (page, date) and spacing aside, in lower case. */
export function furnitureKey(line: string): string {
  return line.replace(/\f/g, '').trim().replace(/\d+/g, '#').replace(/\s+/g, ' ').toLowerCase();
}

const filled = (line: string) => line.replace(/\f/g, '').trim() !== '';

/**
 * The lines of `lines` (one `<pre>`'s, or a plain-text page's) that are page furniture, by index:
 * - a page's foot (`FOOT`): a line ending in "[Page N]" set apart by a gap, or that alone;
 * - a line at a page's edge set in columns (`COLUMNS`) whose form (`furnitureKey`) is at another edge too (a
 *   running head, at every page break), or in `repeated` (the edges of the page's other `<pre>`s: a `<pre>` a page).
 * A page's edges are the first and last lines with words, the lines beside a form feed, and the line after a foot.
 * A poem's refrain is neither at a page break nor set in columns: nothing of a poem is furniture.
 */
export function furnitureLines(lines: readonly string[], repeated: ReadonlySet<string> = new Set()): Set<number> {
  const found = new Set<number>();
  lines.forEach((line, i) => {
    if (FOOT.test(line.trim())) found.add(i);
  });
  const edges = pageEdges(lines, found);
  const seen = new Map<string, number>();
  const columned = edges.filter((i) => COLUMNS.test(lines[i]!.replace(/\f/g, '').trim()));
  for (const i of columned) seen.set(furnitureKey(lines[i]!), (seen.get(furnitureKey(lines[i]!)) ?? 0) + 1);
  for (const i of columned) {
    const key = furnitureKey(lines[i]!);
    if (seen.get(key)! >= 2 || repeated.has(key)) found.add(i);
  }
  return found;
}

/** The lines at a page's edges (see `furnitureLines`), once each, in order; `feet`: the page feet found. */
function pageEdges(lines: readonly string[], feet: ReadonlySet<number>): number[] {
  const edges = new Set([nextFilled(lines, 0), previousFilled(lines, lines.length - 1)]);
  lines.forEach((line, i) => {
    if (line.includes(FORM_FEED)) edges.add(previousFilled(lines, i - 1)).add(nextFilled(lines, i));
    if (feet.has(i)) edges.add(nextFilled(lines, i + 1));
  });
  edges.delete(-1);
  return [...edges].sort((a, b) => a - b);
}

/** The first line with words at `from` or after it, or −1. */
function nextFilled(lines: readonly string[], from: number): number {
  for (let i = Math.max(from, 0); i < lines.length; i++) if (filled(lines[i]!)) return i;
  return -1;
}

/** The last line with words at `from` or before it, or −1. */
function previousFilled(lines: readonly string[], from: number): number {
  for (let i = Math.min(from, lines.length - 1); i >= 0; i--) if (filled(lines[i]!)) return i;
  return -1;
}

/**
 * Across the page's `<pre>`s (`texts`; an RFC as tools.ietf.org serves it, a `<pre>` a page), the forms of the lines
 * set in columns that open or close more than one of them: the running head or foot.
 */
export function repeatedEdges(texts: readonly string[]): Set<string> {
  const count = new Map<string, number>();
  for (const text of texts) {
    const lines = text.split('\n');
    for (const i of new Set([nextFilled(lines, 0), previousFilled(lines, lines.length - 1)])) {
      const line = i < 0 ? '' : lines[i]!.replace(/\f/g, '').trim();
      if (COLUMNS.test(line)) count.set(furnitureKey(line), (count.get(furnitureKey(line)) ?? 0) + 1);
    }
  }
  return new Set([...count].filter(([, n]) => n >= 2).map(([key]) => key));
}
