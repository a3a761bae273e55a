/**
 * The PDF page's side of a reading (runs in the extension's PDF page): answers the background's
 * `extract` with the selection, or with the first batch of pages from the one in view (or the range
 * the listener chose), then `extractMore` with the next batches; `highlight` marks the sentence on
 * the text layer of its page, bringing the page into view (and so into being) first.
 */
import { blocksFromPlainText, type ExtractedText, type TextBatch, type TextBlock } from '../text/extract';
import { PageHighlighter } from '../text/highlight';
import type { TextSlice, WordPlace } from '../text/text-index';
import { joinLines, type PdfBlock } from './layout';
import type { PdfText, TextBatch as PdfBatch } from './pdf-text';

/** What the viewer gives the reader. */
export interface PdfView {
  /** The page most in view (1-based). */
  currentPage(): number;
  /** The text selected on the text layer ('' when none). */
  selectionText(): string;
  /** The text layer's spans of page `p` (in order) when that page is rendered, else null. */
  spansOf(p: number): HTMLElement[] | null;
  /** Brings page `p` into view; resolves when its text layer is there. */
  showPage(p: number): Promise<void>;
  /** Whether the reading may scroll the viewer (false after the user scrolled away). */
  readonly highlighter: PageHighlighter;
}

/** Lines of a selection on the text layer: a word hyphenated at a line's end is joined again. */
export function selectionBlocks(text: string): TextBlock[] {
  const lines = text.split(/\n/).map((l) => l.trim());
  const joined: string[] = [];
  for (const line of lines) {
    const last = joined.length - 1;
    if (line && last >= 0 && joined[last] && /\p{L}[-\u00AD\u2010]$/u.test(joined[last])) joined[last] = joinLines(joined[last], line);
    else joined.push(line);
  }
  return blocksFromPlainText(joined.join('\n'));
}

const toTextBlock = (b: PdfBlock): TextBlock => ({ text: b.text, kind: b.kind });

export class PdfReader {
  /** The blocks of the reading in progress, in the order given to the background. */
  private blocks: PdfBlock[] = [];
  private batches: AsyncGenerator<PdfBatch> | null = null;
  /** The pages the next reading covers, when the listener chose them ("read pages X–Y"). */
  nextRange: { from: number; to: number } | null = null;
  private slicesOf: { block: number; pages: string; slices: TextSlice[] } | null = null;

  constructor(
    private readonly text: PdfText,
    private readonly view: PdfView,
    private readonly title: () => string,
    /** The PDF's file name, for the system's media controls. */
    private readonly site = '',
    /** The PDF's address: where the listener stopped is kept by it. */
    private readonly url = '',
  ) {}

  async extract(): Promise<ExtractedText> {
    const started = performance.now();
    this.view.highlighter.clear();
    this.blocks = [];
    this.done = false;
    void this.batches?.return(undefined);
    this.batches = null;
    const selected = this.view.selectionText();
    if (selected.trim()) return { title: this.title(), site: this.site, source: 'selection', blocks: selectionBlocks(selected), docPage: true };
    const range = this.nextRange ?? { from: this.view.currentPage(), to: this.text.pageCount };
    this.nextRange = null;
    this.batches = this.text.batches(range.from, range.to);
    const first = await this.next();
    return { title: this.title(), site: this.site, url: this.url, source: 'article', blocks: first.blocks, leftOutChars: first.leftOutChars, tookMs: performance.now() - started, docPage: true, ...(first.more ? { more: true } : {}) };
  }

  /** The whole document has been given (this reading). */
  private done = false;
  /** Requests for more, one after another: a second one waits for the batch the first is reading. */
  private pulling: Promise<unknown> = Promise.resolve();

  /**
   * The blocks after the first `after` of this reading. The next batch when the reader has had all it
   * was given; what it was given again when it has less (a restarted background lost an answer); nothing,
   * `incomplete`, for a request that does not follow on (a reloaded page's, a replaced reading's).
   */
  more(after: number): Promise<TextBatch> {
    const batches = this.batches;
    const blocks = this.blocks;
    const step = this.pulling.then((): TextBatch | Promise<TextBatch> => {
      // Not this page's reading (reloaded, or replaced): it cannot give the rest, and says so, so the reading
      // never ends as if the document were whole.
      if (this.batches !== batches || after > blocks.length) return { blocks: [], leftOutChars: 0, more: false, incomplete: true };
      if (after < blocks.length) return { blocks: blocks.slice(after).map(toTextBlock), leftOutChars: 0, more: !this.done };
      return this.next();
    });
    this.pulling = step.catch(() => undefined);
    return step;
  }

  /** The next batch with text (pages with none, scanned ones, are passed over and counted in none). */
  private async next(): Promise<TextBatch> {
    let leftOutChars = 0;
    let incomplete = false;
    // A new reading replaces both: what this one finds afterwards is not the new reading's.
    const batches = this.batches;
    const blocks = this.blocks;
    const finish = (more: boolean) => {
      if (!more && this.batches === batches) this.done = true;
      return incomplete ? { incomplete } : {};
    };
    for (;;) {
      const step = await batches?.next();
      if (!step || step.done) return { blocks: [], leftOutChars, more: false, ...finish(false) };
      const batch = step.value;
      leftOutChars += batch.leftOutChars;
      incomplete ||= batch.incomplete === true;
      if (batch.blocks.length || !batch.more) {
        blocks.push(...batch.blocks);
        return { blocks: batch.blocks.map(toTextBlock), leftOutChars, more: batch.more, ...finish(batch.more) };
      }
    }
  }

  /** Marks `sentence` of block `block` on the text layer (and `word` in it); false when the block is not this reading's. */
  highlight(block: number, sentence: string, word?: WordPlace): boolean {
    const b = this.blocks[block];
    if (!b) return false;
    const pages = [...new Set(b.slices.map((s) => s.page))];
    const slices = this.liveSlices(block, b, pages);
    if (slices.length) return this.view.highlighter.show(slices, sentence, word);
    // The page is not drawn yet: show it (the viewer draws what is in view), then mark the sentence.
    void this.view.showPage(pages[0] ?? b.page).then(() => {
      const again = this.liveSlices(block, b, pages);
      if (again.length) this.view.highlighter.show(again, sentence, word);
    });
    return true;
  }

  clear(): void {
    this.view.highlighter.clear();
  }

  /** The block's text nodes on the pages drawn now (the same array while they stay drawn, so the highlighter keeps its place). */
  private liveSlices(block: number, b: PdfBlock, pages: number[]): TextSlice[] {
    const drawn = pages.filter((p) => this.view.spansOf(p));
    const key = drawn.join(',');
    const cached = this.slicesOf;
    if (cached && cached.block === block && cached.pages === key && cached.slices.every((s) => s.node.isConnected)) return cached.slices;
    const slices: TextSlice[] = [];
    for (const p of drawn) {
      const spans = this.view.spansOf(p)!;
      for (const s of b.slices) {
        if (s.page !== p) continue;
        const node = spans[s.span]?.firstChild;
        if (node && node.nodeType === Node.TEXT_NODE) slices.push({ node: node as Text, start: 0, end: (node as Text).data.length });
      }
    }
    this.slicesOf = { block, pages: key, slices };
    return slices;
  }
}
