/**
 * A PDF page's text runs, as a listener wants them: lines built from runs by position (not by the
 * order they were drawn in), two columns read one after the other, paragraphs found by spacing,
 * indent and size, words hyphenated at a line's end joined again, and the lines a document repeats
 * on most pages (running headers and footers, page numbers) left out. Pure functions on plain data:
 * the PDF page (`entrypoints/pdf`) feeds them pdf.js's text content, unit tests feed them tables.
 */

/** One text run of a page, in top-down page units (pdf.js's text item, flattened). */
export interface PdfRun {
  str: string;
  /** Left edge and baseline, from the page's top-left corner. */
  x: number;
  y: number;
  /** Advance width and font size. */
  w: number;
  size: number;
  /** Index of the run among the page's non-empty runs: the order of the text layer's spans. */
  span: number;
}

export interface PdfPageRuns {
  /** 1-based page number. */
  page: number;
  width: number;
  height: number;
  runs: PdfRun[];
}

/** Where a block's words are: the text layer's spans of one page. */
export interface PdfSlice {
  page: number;
  span: number;
}

export interface PdfBlock {
  text: string;
  kind: 'heading' | 'paragraph';
  page: number;
  slices: PdfSlice[];
}

/** A line (or a column's piece of one): runs on one baseline with no wide gap between them. */
export interface PdfLine {
  text: string;
  x: number;
  right: number;
  y: number;
  size: number;
  spans: number[];
}

const CLOSE_BASELINE = 0.35; // × font size: runs this close in height share a line
const WORD_GAP = 1.5; // × font size: a wider gap splits a line (a column gutter, a table cell)

/** Runs grouped into lines, each split where a gap is wider than a word space. Top to bottom, left to right. */
export function linesOf(runs: readonly PdfRun[]): PdfLine[] {
  const visible = runs.filter((r) => r.str.trim() !== '' && r.size > 0);
  const sorted = [...visible].sort((a, b) => a.y - b.y || a.x - b.x);
  const rows: PdfRun[][] = [];
  for (const run of sorted) {
    const row = rows[rows.length - 1];
    const ref = row?.[0];
    if (row && ref && Math.abs(run.y - ref.y) <= CLOSE_BASELINE * Math.max(ref.size, run.size)) row.push(run);
    else rows.push([run]);
  }
  const raised = new Set<PdfRun>();
  mergeRaised(rows, raised);
  const lines: PdfLine[] = [];
  for (const row of rows) {
    if (!row.length) continue;
    row.sort((a, b) => a.x - b.x);
    let line: PdfLine | null = null;
    let text = '';
    let afterMark = false;
    for (const run of row) {
      // A raised mark with no word in it (a footnote's number, an affiliation's ∗) is not read.
      if (raised.has(run) && FOOTNOTE_MARK.test(run.str)) {
        afterMark = true;
        continue;
      }
      const gap = line ? run.x - line.right : 0;
      if (!line || gap > WORD_GAP * Math.max(run.size, line.size)) {
        if (line) lines.push({ ...line, text: tidy(text) });
        line = { text: '', x: run.x, right: run.x + run.w, y: run.y, size: run.size, spans: [run.span] };
        text = run.str;
        continue;
      }
      // A run drawn right after the last one joins it; a gap wider than a fifth of the font is a space.
      const spaced = (gap > 0.2 * run.size || (afterMark && /^\p{L}/u.test(run.str))) && !/\s$/.test(text) && !/^\s/.test(run.str);
      afterMark = false;
      text += (spaced ? ' ' : '') + run.str;
      line.right = Math.max(line.right, run.x + run.w);
      line.size = Math.max(line.size, run.size);
      line.spans.push(run.span);
    }
    if (line) lines.push({ ...line, text: tidy(text) });
  }
  return lines;
}

/** TeX's spacing accents drawn before their letter ("na¨ıve"), as the letter with its accent ("naïve"). */
const SPACING_ACCENT: Record<string, string> = { '¨': '\u0308', '´': '\u0301', 'ˆ': '\u0302', '˜': '\u0303', 'ˇ': '\u030C' };
const LOOSE_ACCENT = /(\p{L})([¨´ˆ˜ˇ])\s?([A-Za-zı])/gu;

/** A footnote or affiliation mark: digits and marks only. */
const FOOTNOTE_MARK = /^[\s\d∗*†‡§¶#$+,a-d]{1,6}$/u;

/**
 * Superscripts and subscripts set smaller and off the baseline of the line they belong to: moved into
 * that line (rows are in top-to-bottom order; a small row within most of a line's height of a larger
 * row next to it belongs to it). `raised` collects the runs moved.
 */
function mergeRaised(rows: PdfRun[][], raised: Set<PdfRun>): void {
  const sizeOf = (row: PdfRun[]) => Math.max(0, ...row.map((r) => r.size));
  const yOf = (row: PdfRun[]) => row[0]?.y ?? 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (!row.length) continue;
    const size = sizeOf(row);
    const near = [rows[i - 1], rows[i + 1]].filter((r): r is PdfRun[] => !!r && r.length > 0 && sizeOf(r) * 0.8 > size && Math.abs(yOf(r) - yOf(row)) < sizeOf(r) * 0.7);
    const host = near.sort((a, b) => Math.abs(yOf(a) - yOf(row)) - Math.abs(yOf(b) - yOf(row)))[0];
    if (!host) continue;
    // Only marks within the host line's width: a small line of its own beside a large one is not a mark.
    const left = Math.min(...host.map((r) => r.x));
    const right = Math.max(...host.map((r) => r.x + r.w));
    if (row.some((r) => r.x < left - size || r.x > right + size * 2)) continue;
    // Above the baseline: a superscript (a mark, maybe); below it: a subscript, read with its line.
    if (yOf(row) < yOf(host)) for (const r of row) raised.add(r);
    host.push(...row);
    row.length = 0;
  }
}

const tidy = (s: string) =>
  s
    .replace(/\s+/g, ' ')
    .replace(LOOSE_ACCENT, (_, before: string, accent: string, letter: string) => before + ((letter === 'ı' ? 'i' : letter) + SPACING_ACCENT[accent]).normalize('NFC'))
    .trim();

/**
 * The page's lines in reading order. When a gutter runs down the middle of the page (few lines
 * cross it, many lie on each side of it), each stretch of two-column lines is read left column
 * first, then right; lines across the gutter (a title, a figure's caption) are read where they are.
 */
export function readingOrder(lines: readonly PdfLine[], width: number): PdfLine[] {
  const gutter = findGutter(lines, width);
  const byY = [...lines].sort((a, b) => a.y - b.y || a.x - b.x);
  if (gutter === null) return byY;
  const out: PdfLine[] = [];
  let left: PdfLine[] = [];
  let right: PdfLine[] = [];
  const flush = () => {
    out.push(...left, ...right);
    left = [];
    right = [];
  };
  for (const line of byY) {
    if (line.right <= gutter) left.push(line);
    else if (line.x >= gutter) right.push(line);
    else {
      flush();
      out.push(line);
    }
  }
  flush();
  return out;
}

/** The x of a gutter between two columns, or null for a one-column page. */
export function findGutter(lines: readonly PdfLine[], width: number): number | null {
  if (lines.length < 6 || width <= 0) return null;
  let best: { x: number; crossing: number } | null = null;
  for (let pct = 30; pct <= 70; pct++) {
    const x = (width * pct) / 100;
    let leftN = 0;
    let rightN = 0;
    let crossing = 0;
    for (const l of lines) {
      if (l.right <= x) leftN++;
      else if (l.x >= x) rightN++;
      else crossing++;
    }
    // Both columns must hold text, and lines crossing the gutter must be few (titles, headers).
    if (leftN < 3 || rightN < 3 || crossing > 0.25 * (leftN + rightN)) continue;
    // The two sides must face each other: their heights overlap.
    if (!overlapInY(lines, x)) continue;
    if (!best || crossing < best.crossing) best = { x, crossing };
  }
  return best?.x ?? null;
}

function overlapInY(lines: readonly PdfLine[], x: number): boolean {
  let lTop = Infinity;
  let lBottom = -Infinity;
  let rTop = Infinity;
  let rBottom = -Infinity;
  for (const l of lines) {
    if (l.right <= x) {
      lTop = Math.min(lTop, l.y);
      lBottom = Math.max(lBottom, l.y);
    } else if (l.x >= x) {
      rTop = Math.min(rTop, l.y);
      rBottom = Math.max(rBottom, l.y);
    }
  }
  return Math.min(lBottom, rBottom) - Math.max(lTop, rTop) > 0;
}

/** The form in which repeated lines are compared: case and numbers ignored ("Page 3" and "Page 4" repeat). */
export function repeatKey(text: string): string {
  return text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
}

/** A line that is only a page number: "7", "- 7 -", "Page 7 of 30", "Стр. 7", "7 / 30". */
const PAGE_NUMBER = /^[\s\-–—|.]*((page|p\.|стр\.?|страница|с\.)\s*)?\d{1,5}(\s*(of|из|\/)\s*\d{1,5})?[\s\-–—|.]*$/i;

export function isPageNumber(text: string): boolean {
  return PAGE_NUMBER.test(text);
}

/** Lines in a page's top or bottom margin (where running headers and footers are): this share of its height. */
const MARGIN = 0.12;

/**
 * Lines in the page's top or bottom margin that may be running heads: no larger than the body text
 * (a chapter's heading at the top of its page is larger, and read).
 */
function marginLines(page: PdfPageRuns, lines: readonly PdfLine[]): PdfLine[] {
  const body = bodySize(lines);
  return lines.filter((l) => (l.y < page.height * MARGIN || l.y > page.height * (1 - MARGIN)) && l.size <= body * 1.05);
}

/**
 * The keys of lines repeated in the margins of the pages around a page: running headers and footers.
 * A key counts when it is on at least half of the pages given (and two), or — books set the title on
 * left pages and the chapter on right ones — on at least half of those with `target`'s parity.
 */
export function runningLines(pages: ReadonlyArray<{ page: PdfPageRuns; lines: readonly PdfLine[] }>, target?: number): Set<string> {
  const seen = new Map<string, number>();
  const seenSameSide = new Map<string, number>();
  let sameSide = 0;
  for (const { page, lines } of pages) {
    const same = target !== undefined && page.page % 2 === target % 2;
    if (same) sameSide++;
    const keys = new Set(marginLines(page, lines).map((l) => repeatKey(l.text)));
    for (const k of keys) {
      seen.set(k, (seen.get(k) ?? 0) + 1);
      if (same) seenSameSide.set(k, (seenSameSide.get(k) ?? 0) + 1);
    }
  }
  const needed = Math.max(2, Math.ceil(pages.length / 2));
  const neededSameSide = Math.max(2, Math.ceil(sameSide / 2));
  return new Set([...seen.keys()].filter((k) => seen.get(k)! >= needed || (seenSameSide.get(k) ?? 0) >= neededSameSide));
}

const TERMINAL = /[.!?…:;»"”)\]]$/u;
const HYPHEN_END = /\p{L}[-\u00AD\u2010]$/u;
const LOWER_START = /^\p{Ll}/u;

const UPPER_START = /^\p{Lu}/u;

/**
 * Line `b` continues line `a`: a word hyphenated at `a`'s end is joined again ("распо-" + "знавание"); a
 * hyphen before a capital belongs to a compound and is kept ("Trace-" + "Monkey" → "Trace-Monkey");
 * other lines are joined with a space.
 */
export function joinLines(a: string, b: string): string {
  if (HYPHEN_END.test(a) && LOWER_START.test(b)) return a.slice(0, -1) + b;
  if (/\p{L}-$/u.test(a) && UPPER_START.test(b)) return a + b;
  return `${a} ${b}`;
}

/** The size most of the text is set in (by characters): the body text's. */
function bodySize(lines: readonly PdfLine[]): number {
  const chars = new Map<number, number>();
  for (const l of lines) {
    const size = Math.round(l.size * 2) / 2;
    chars.set(size, (chars.get(size) ?? 0) + l.text.length);
  }
  let best = 0;
  let most = -1;
  for (const [size, n] of chars) if (n > most) [best, most] = [size, n];
  return best;
}

/** The middle value (the lower of the two middle ones: a page of two line gaps takes the smaller as its spacing). */
function median(values: number[]): number {
  if (!values.length) return 0;
  const s = [...values].sort((x, y) => x - y);
  return s[Math.floor((s.length - 1) / 2)]!;
}

export interface PageText {
  blocks: PdfBlock[];
  /** Code points of the lines left out (running headers and footers, page numbers). */
  leftOutChars: number;
}

/**
 * One page's blocks. `running` holds the repeated margin lines found on the document's first pages.
 * A paragraph ends at a wider gap, a change of size, an indented line, or a short line that ends a sentence.
 */
export function pageBlocks(page: PdfPageRuns, running: ReadonlySet<string>): PageText {
  const all = linesOf(page.runs);
  const margin = new Set(marginLines(page, all));
  let leftOutChars = 0;
  const kept = all.filter((l) => {
    const out = margin.has(l) && (running.has(repeatKey(l.text)) || isPageNumber(l.text));
    if (out) leftOutChars += [...l.text].length;
    return !out;
  });
  const ordered = readingOrder(kept, page.width);
  const body = bodySize(ordered);
  const spacing = median(ordered.slice(1).map((l, i) => l.y - ordered[i]!.y).filter((d) => d > 0)) || body * 1.2;
  const blocks: PdfBlock[] = [];
  let current: { lines: PdfLine[]; kind: PdfBlock['kind'] } | null = null;
  const width = median(ordered.map((l) => l.right - l.x));
  const flush = () => {
    if (!current) return;
    const text = current.lines.map((l) => l.text).reduce((acc, t) => (acc ? joinLines(acc, t) : t), '');
    blocks.push({ text, kind: current.kind, page: page.page, slices: current.lines.flatMap((l) => l.spans.map((span) => ({ page: page.page, span }))) });
    current = null;
  };
  for (const line of ordered) {
    const kind: PdfBlock['kind'] = body > 0 && line.size >= body * 1.2 ? 'heading' : 'paragraph';
    const prev = current?.lines[current.lines.length - 1];
    const breaks =
      !current ||
      !prev ||
      current.kind !== kind ||
      line.y - prev.y > Math.max(spacing * 1.4, prev.size * 1.6) ||
      line.y < prev.y - prev.size || // a new column
      Math.abs(line.size - prev.size) > 0.15 * prev.size ||
      (kind === 'paragraph' && line.x - prev.x > line.size * 1.2 && line.x - prev.x < width / 3) || // a first-line indent
      (kind === 'paragraph' && TERMINAL.test(prev.text) && prev.right - prev.x < width * 0.8);
    if (breaks) {
      flush();
      current = { lines: [line], kind };
    } else current!.lines.push(line);
  }
  flush();
  return { blocks, leftOutChars };
}

/**
 * A paragraph that runs on to the next page: the last block of one page and the first of the next
 * are one when the first stops mid-sentence and the second starts in lower case.
 */
export function continuesOnNextPage(last: PdfBlock, first: PdfBlock): boolean {
  return last.kind === 'paragraph' && first.kind === 'paragraph' && !TERMINAL.test(last.text) && LOWER_START.test(first.text);
}

export function mergeBlocks(a: PdfBlock, b: PdfBlock): PdfBlock {
  return { ...a, text: joinLines(a.text, b.text), slices: [...a.slices, ...b.slices] };
}
