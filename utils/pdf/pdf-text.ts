/**
 * The text of an open PDF, page by page, as the reading needs it (runs in the PDF page). Pages are
 * parsed only when asked for and kept; the reading pulls them in batches ahead of where it is, so a
 * 300-page book starts speaking after its first pages. Layout rules are in `layout.ts`.
 */
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist';
import {
  continuesOnNextPage,
  linesOf,
  mergeBlocks,
  pageBlocks,
  type PageText,
  type PdfBlock,
  type PdfLine,
  type PdfPageRuns,
  type PdfRun,
  runningLines,
} from './layout';

type Transform = number[];

/** `m1 × m2` for 2-D affine transforms [a b c d e f] (pdf.js's `Util.transform`, without loading pdf.js here). */
function multiply(m1: Transform, m2: Transform): Transform {
  const [a1, b1, c1, d1, e1, f1] = m1 as [number, number, number, number, number, number];
  const [a2, b2, c2, d2, e2, f2] = m2 as [number, number, number, number, number, number];
  return [a1 * a2 + c1 * b2, b1 * a2 + d1 * b2, a1 * c2 + c1 * d2, b1 * c2 + d1 * d2, a1 * e2 + c1 * f2 + e1, b1 * e2 + d1 * f2 + f1];
}

/** Typographic ligatures (ﬁ, ﬂ …) spelled out: the service reads letters. */
const LIGATURES = /[\uFB00-\uFB06]/g;

/** A page's text runs, with the same options as the viewer's text layer, so run k is the text layer's span k. */
export async function runsOfPage(page: PDFPageProxy): Promise<PdfPageRuns> {
  const viewport = page.getViewport({ scale: 1 });
  const content = await page.getTextContent({ includeMarkedContent: true, disableNormalization: true });
  const runs: PdfRun[] = [];
  let span = 0;
  for (const item of content.items) {
    // Marked content has no text; an empty run gets no span in the text layer.
    if (!('str' in item) || item.str === '') continue;
    const tx = multiply(viewport.transform, item.transform as Transform);
    runs.push({
      str: item.str.replace(LIGATURES, (c) => c.normalize('NFKC')),
      x: tx[4]!,
      y: tx[5]!,
      w: item.width * viewport.scale,
      size: Math.hypot(tx[2]!, tx[3]!),
      span: span++,
    });
  }
  return { page: page.pageNumber, width: viewport.width, height: viewport.height, runs };
}

export interface TextBatch {
  blocks: PdfBlock[];
  leftOutChars: number;
  /** Pages in this batch could not be read (passed over). */
  incomplete?: boolean;
  /** More pages follow in the range being read. */
  more: boolean;
  /** The last page this batch has read. */
  lastPage: number;
}

/** Running headers and footers are found on the pages this far around each page. */
const WINDOW = 3;

export class PdfText {
  private readonly runs = new Map<number, Promise<PdfPageRuns>>();
  private readonly texts = new Map<number, Promise<PageText>>();
  private readonly lines = new Map<number, Promise<{ page: PdfPageRuns; lines: PdfLine[] }>>();

  constructor(private readonly doc: Pick<PDFDocumentProxy, 'numPages' | 'getPage'>) {}

  get pageCount(): number {
    return this.doc.numPages;
  }

  private runsOf(p: number): Promise<PdfPageRuns> {
    let runs = this.runs.get(p);
    if (!runs) {
      runs = this.doc.getPage(p).then(runsOfPage);
      this.runs.set(p, runs);
    }
    return runs;
  }

  private linesOf(p: number): Promise<{ page: PdfPageRuns; lines: PdfLine[] }> {
    let lines = this.lines.get(p);
    if (!lines) {
      lines = this.runsOf(p).then((page) => ({ page, lines: linesOf(page.runs) }));
      this.lines.set(p, lines);
    }
    return lines;
  }

  /** The margins' repeated lines around page `p`: the three pages before it and after it (fewer at the ends). */
  private runningLines(p: number): Promise<Set<string>> {
    const first = Math.max(1, p - WINDOW);
    const last = Math.min(this.pageCount, p + WINDOW);
    const pages = Array.from({ length: last - first + 1 }, (_, i) => this.linesOf(first + i));
    // A page that cannot be read is left out of the comparison.
    return Promise.all(pages.map((l) => l.catch(() => null))).then((all) => runningLines(all.filter((x) => x !== null), p));
  }

  /** Page `p`'s blocks (1-based), its running lines left out. */
  page(p: number): Promise<PageText> {
    let text = this.texts.get(p);
    if (!text) {
      text = Promise.all([this.runsOf(p), this.runningLines(p)]).then(([runs, running]) => pageBlocks(runs, running));
      this.texts.set(p, text);
    }
    return text;
  }

  /** Whether the page has any text at all (a scanned page has none). */
  async hasText(p: number): Promise<boolean> {
    return (await this.runsOf(p)).runs.some((r) => r.str.trim() !== '');
  }

  /**
   * Pages `from`…`to` in batches: the first as soon as it holds `firstChars` characters (the reading
   * starts on it), the next ones `batchPages` pages each. A paragraph running over a page break is
   * kept whole, so the last block of a batch waits for the next page.
   */
  async *batches(from: number, to: number, opts: { firstChars?: number; batchPages?: number } = {}): AsyncGenerator<TextBatch> {
    const firstChars = opts.firstChars ?? 1200;
    const batchPages = opts.batchPages ?? 8;
    let out: PdfBlock[] = [];
    let leftOut = 0;
    let pending: PdfBlock | null = null;
    let pagesInBatch = 0;
    let first = true;
    let incomplete = false;
    const chars = () => out.reduce((n, b) => n + b.text.length, 0);
    for (let p = from; p <= to; p++) {
      // A page pdf.js cannot read is passed over (and said), not the end of the document.
      const { blocks, leftOutChars } = await this.page(p).catch(() => ((incomplete = true), { blocks: [], leftOutChars: 0 }));
      leftOut += leftOutChars;
      pagesInBatch++;
      const rest = [...blocks];
      if (pending && rest[0] && continuesOnNextPage(pending, rest[0])) rest[0] = mergeBlocks(pending, rest[0]);
      else if (pending) out.push(pending);
      pending = rest.pop() ?? null;
      out.push(...rest);
      const full = first ? chars() >= firstChars : pagesInBatch >= batchPages;
      if (full && out.length && p < to) {
        yield { blocks: out, leftOutChars: leftOut, more: true, lastPage: p, ...(incomplete ? { incomplete } : {}) };
        incomplete = false;
        out = [];
        leftOut = 0;
        pagesInBatch = 0;
        first = false;
      }
    }
    if (pending) out.push(pending);
    yield { blocks: out, leftOutChars: leftOut, more: false, lastPage: to, ...(incomplete ? { incomplete } : {}) };
  }
}
