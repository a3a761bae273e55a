/**
 * The book page's text (runs in the book page): the section being read, or chosen, as the page's own
 * headings and paragraphs, one text node a block, so the sentence band and the word mark (the page's CSS
 * highlights) land on exactly the text sent. A click on a paragraph says which block it was.
 */
import { PageHighlighter } from '../text/highlight';
import type { BookView, PlacedBlock } from './book-reader';

/** A section's blocks, as the page shows them. */
export type SectionBlocks = (s: number) => Promise<readonly Pick<PlacedBlock, 'text' | 'kind' | 'line'>[]>;

export class BookTextView implements BookView {
  readonly highlighter: PageHighlighter;
  private shown: { section: number; nodes: Text[] } | null = null;
  /** The section being put on the page (the last asked for wins). */
  private showing: Promise<void> = Promise.resolve();
  private asked = -1;

  constructor(
    private readonly container: HTMLElement,
    private readonly blocksOf: SectionBlocks,
    /** A click on block `index` of section `section`. */
    onPick: (section: number, index: number) => void,
    private readonly doc: Document = document,
  ) {
    this.highlighter = new PageHighlighter(doc);
    container.addEventListener('click', (e) => {
      if (!this.shown || doc.getSelection()?.toString().trim()) return;
      const el = (e.target as Element | null)?.closest?.('[data-block]');
      if (el) onPick(this.shown.section, Number(el.getAttribute('data-block')));
    });
  }

  /** The section on the page, if any. */
  get section(): number | null {
    return this.shown?.section ?? null;
  }

  nodesOf(s: number): Text[] | null {
    return this.shown?.section === s ? this.shown.nodes : null;
  }

  selectionText(): string {
    const sel = this.doc.getSelection();
    if (!sel || sel.isCollapsed || !sel.anchorNode || !this.container.contains(sel.anchorNode)) return '';
    return sel.toString();
  }

  showSection(s: number): Promise<void> {
    if (this.shown?.section === s) return this.showing;
    this.asked = s;
    this.showing = this.blocksOf(s).then((blocks) => {
      if (this.asked !== s) return;
      this.highlighter.clear();
      const nodes: Text[] = [];
      const els = blocks.map((b, i) => {
        const el = this.doc.createElement(b.kind === 'paragraph' ? 'p' : 'h2');
        if (b.line) el.className = 'line';
        el.dataset.block = String(i);
        const node = this.doc.createTextNode(b.text);
        el.append(node);
        nodes.push(node);
        return el;
      });
      this.container.replaceChildren(...els);
      this.container.dataset.section = String(s);
      this.shown = { section: s, nodes };
      this.container.scrollTop = 0;
      this.doc.defaultView?.scrollTo?.(0, 0);
    });
    return this.showing;
  }
}
