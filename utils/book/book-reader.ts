/**
 * The book page's side of a reading (runs in the extension's book page): answers the background's
 * `extract` with the selection, or with the chosen chapter's section from its start (or the paragraph
 * clicked), then `extractMore` with the sections after it in the book's order, one at a time, to the
 * book's end; `highlight` shows the section being read on the page and marks the sentence in it.
 */
import type { ExtractedText, TextBatch, TextBlock } from '../text/extract';
import type { PageHighlighter } from '../text/highlight';
import type { WordPlace } from '../text/text-index';
import { selectionBlocks } from '../pdf/pdf-reader';
import { notesGoOn, type BookBlock, type SectionText } from './section-blocks';

/** A block as the reading keeps it: its text and where it is in the book (no element: a section's document is let go). */
export interface PlacedBlock extends TextBlock {
  section: number;
  /** Its index among its section's blocks. */
  index: number;
  line?: true;
}

/** The book as the reader sees it. */
export interface BookSource {
  readonly sectionCount: number;
  /** Whether section `s` is in the reading order (not `linear="no"`). */
  linear(s: number): boolean;
  /** Section `s`'s blocks (and the document they are in, for a chapter's anchor). */
  text(s: number): Promise<SectionText & { doc?: Document }>;
  /** The most the text from section `s` on can bill, known before it is read (`most-chars.ts`); undefined when the book cannot tell. */
  mostChars?(s: number): number | undefined;
}

/** What the page gives the reader. */
export interface BookView {
  /** The text node of each block of section `s`, in order, when the page shows it; else null. */
  nodesOf(s: number): Text[] | null;
  /** Shows section `s` on the page (all its blocks); resolves once it is there. */
  showSection(s: number): Promise<void>;
  /** The text selected on the page ('' when none). */
  selectionText(): string;
  readonly highlighter: PageHighlighter;
}

/** Where a reading starts: a section, and a block in it or an anchor the book resolves in its document. */
export interface BookStart {
  section: number;
  block?: number;
  anchor?: ((doc: Document) => Element | number | null) | null;
  /** The chapter chosen (its index in the table of contents), when the reading starts at one. */
  chapter?: number;
  /** Go on from the place kept for this start ("Continue from …"). */
  continuePlace?: boolean;
}

/** A start as a word of an address: the same start gives the same word, so the place kept for it is found again. */
export function startKey(start: Pick<BookStart, 'section' | 'block' | 'chapter'>): string {
  return start.chapter !== undefined ? `c${start.chapter}` : `s${start.section}.${start.block ?? 0}`;
}

/** The index of the first block at or after `anchor` in document order (0 when the anchor is not an element). */
export function blockAtAnchor(blocks: readonly BookBlock[], anchor: Element | number | null | undefined): number {
  if (!anchor || typeof anchor === 'number') return 0;
  const i = blocks.findIndex((b) => b.el === anchor || anchor.contains(b.el) || b.el.contains(anchor) || !!(anchor.compareDocumentPosition(b.el) & 4));
  return i < 0 ? blocks.length : i;
}

/** A section's blocks from `from` on, placed in the book; those a chapter begins with (`chapters`, by index) say so. */
const placed = (blocks: readonly BookBlock[], section: number, chapters: ReadonlySet<number>, from = 0): PlacedBlock[] =>
  blocks.slice(from).map((b, i) => ({
    text: b.text,
    kind: b.kind,
    section,
    index: from + i,
    ...(b.line ? { line: true as const } : {}),
    ...(chapters.has(from + i) ? { chapter: true as const } : {}),
  }));

const asText = (b: PlacedBlock): TextBlock => ({ text: b.text, kind: b.kind, ...(b.chapter ? { chapter: true as const } : {}) });

const NO_CHAPTERS: ReadonlySet<number> = new Set();

export class BookReader {
  /** The blocks of the reading in progress, in the order given to the background. */
  private blocks: PlacedBlock[] = [];
  /** The next section to read (this reading), or past the end. */
  private nextSection = Number.POSITIVE_INFINITY;
  /** Bumped by each reading: what an older one finds afterwards is not the new one's. */
  private generation = 0;
  /** Where the next reading starts (the chapter or paragraph chosen); none: the book's first section. */
  nextStart: BookStart | null = null;
  private pulling: Promise<unknown> = Promise.resolve();
  /** The section read last ended in notes under their heading. */
  private inNotes = false;

  constructor(
    private readonly source: BookSource,
    private readonly view: BookView,
    private readonly meta: () => { title: string; site: string },
    /** The reading's address: the book and where the reading started (its place is kept by it). */
    private readonly urlOf: (start: BookStart) => string,
    /** The blocks of section `s` its chapters begin with (each begins a part: the sleep timer can stop at a chapter's end). */
    private readonly chapterBlocks: (s: number) => Promise<ReadonlySet<number>> = async () => NO_CHAPTERS,
  ) {}

  async extract(): Promise<ExtractedText> {
    const started = performance.now();
    this.view.highlighter.clear();
    this.generation++;
    this.blocks = [];
    const { title, site } = this.meta();
    const selected = this.view.selectionText();
    if (selected.trim()) {
      this.nextSection = Number.POSITIVE_INFINITY;
      return { title, site, source: 'selection', blocks: selectionBlocks(selected), docPage: true };
    }
    const start = this.nextStart ?? { section: this.firstLinear(0) };
    this.nextStart = null;
    const url = this.urlOf(start);
    const first = await this.source.text(start.section);
    let from = start.block ?? 0;
    if (start.block === undefined && start.anchor && first.doc) from = blockAtAnchor(first.blocks, start.anchor(first.doc));
    this.nextSection = this.firstLinear(start.section + 1);
    this.prefetch();
    this.inNotes = first.notesAtEnd === true;
    const blocks = placed(first.blocks, start.section, await this.chapterBlocks(start.section).catch(() => NO_CHAPTERS), from);
    this.blocks.push(...blocks);
    let leftOutChars = first.leftOutChars;
    let batch: TextBatch = { blocks: blocks.map(asText), leftOutChars: 0, more: this.nextSection < this.source.sectionCount };
    // A chapter with no text where it starts (a picture): the next section with some.
    if (!batch.blocks.length && batch.more) batch = await this.next(this.generation);
    leftOutChars += batch.leftOutChars;
    const most = batch.more ? this.source.mostChars?.(start.section) : undefined;
    return {
      title,
      site,
      url,
      source: 'article',
      blocks: batch.blocks,
      leftOutChars,
      tookMs: performance.now() - started,
      docPage: true,
      ...(batch.more ? { more: true } : {}),
      ...(most !== undefined ? { mostChars: most } : {}),
      ...(start.continuePlace ? { continuePlace: true as const } : {}),
      chapters: true,
    };
  }

  /**
   * The next section is read while this one is given: the background asks for it as soon as it has counted
   * this one, and a section parsed on demand (a KF8's took ~0.8 s here) must not leave the player waiting.
   */
  private prefetch(): void {
    if (this.nextSection < this.source.sectionCount) void this.source.text(this.nextSection).catch(() => undefined);
  }

  /** The first section in the reading order from `s` on (the section count when none is left). */
  private firstLinear(s: number): number {
    while (s < this.source.sectionCount && !this.source.linear(s)) s++;
    return s;
  }

  /**
   * The blocks after the first `after` of this reading: the next section with text when the reader has had
   * all it was given; what it was given again when it has less (a restarted background lost an answer);
   * nothing, `incomplete`, for a request that does not follow on (a replaced reading's).
   */
  more(after: number): Promise<TextBatch> {
    const generation = this.generation;
    const step = this.pulling.then((): TextBatch | Promise<TextBatch> => {
      if (this.generation !== generation || after > this.blocks.length) return { blocks: [], leftOutChars: 0, more: false, incomplete: true };
      if (after < this.blocks.length) return { blocks: this.blocks.slice(after).map(asText), leftOutChars: 0, more: this.nextSection < this.source.sectionCount };
      return this.next(generation);
    });
    this.pulling = step.catch(() => undefined);
    return step;
  }

  /** The next section with text (sections with none, pictures, are passed over and counted). */
  private async next(generation: number): Promise<TextBatch> {
    let leftOutChars = 0;
    while (this.generation === generation && this.nextSection < this.source.sectionCount) {
      const s = this.nextSection;
      const text = await this.source.text(s);
      if (this.generation !== generation) break;
      this.nextSection = this.firstLinear(s + 1);
      this.prefetch();
      leftOutChars += text.leftOutChars;
      // The rest of notes begun in the section before (a MOBI's, split where its pages break): left out too.
      if (this.inNotes && notesGoOn(text)) {
        leftOutChars += text.blocks.reduce((n, b) => n + b.text.length, 0);
        continue;
      }
      this.inNotes = text.notesAtEnd === true;
      if (!text.blocks.length) continue;
      const blocks = placed(text.blocks, s, await this.chapterBlocks(s).catch(() => NO_CHAPTERS));
      if (this.generation !== generation) break;
      this.blocks.push(...blocks);
      return { blocks: blocks.map(asText), leftOutChars, more: this.nextSection < this.source.sectionCount };
    }
    if (this.generation !== generation) return { blocks: [], leftOutChars: 0, more: false, incomplete: true };
    return { blocks: [], leftOutChars, more: false };
  }

  /** The index among this reading's blocks of block `index` of section `section`; -1 when the reading was not given it. */
  blockOf(section: number, index: number): number {
    return this.blocks.findIndex((b) => b.section === section && b.index === index);
  }

  /** Where block `block` of this reading is in the book. */
  placeOf(block: number): { section: number; index: number } | undefined {
    const b = this.blocks[block];
    return b && { section: b.section, index: b.index };
  }

  /** Shows the block's section and marks `sentence` in it (and `word`); false when the block is not this reading's. */
  highlight(block: number, sentence: string, word?: WordPlace): boolean {
    const b = this.blocks[block];
    if (!b) return false;
    const mark = () => {
      const node = this.view.nodesOf(b.section)?.[b.index];
      return !!node && this.view.highlighter.show(this.slicesOf(node), sentence, word);
    };
    if (this.view.nodesOf(b.section)) return mark();
    // Another section is on the page: this one is shown (the reading went on into it), then marked.
    void this.view.showSection(b.section).then(mark);
    return true;
  }

  /** The same array while a block stays marked: the highlighter keeps its place in it. */
  private slices: { node: Text; list: { node: Text; start: number; end: number }[] } | null = null;
  private slicesOf(node: Text) {
    if (this.slices?.node !== node) this.slices = { node, list: [{ node, start: 0, end: node.data.length }] };
    return this.slices.list;
  }

  clear(): void {
    this.view.highlighter.clear();
  }
}
