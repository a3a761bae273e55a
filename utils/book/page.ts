/**
 * The book page's start (runs in the extension's book page, `book.html`, or `book.html?file=URL` for a
 * book at an address): opens the book a file or an address gives, lists its chapters, answers the
 * background's requests for its text (which wait while a book opens), and starts a reading from a chapter
 * or a paragraph the listener chose.
 */
import { NOT_AT, onPageRequest } from '../messaging/content';
import { sendMessage } from '../messaging/protocol';
import { LoadError, loadPdfFile } from '../pdf/load-file';
import { takePdf } from '../storage/pdf-files';
import { BookError, openBook, type BookErrorCode, type OpenedBook } from './open-book';
import { BOOK_MAX_BYTES } from '../net/bounded-fetch';
import { BookReader, blockAtAnchor, startKey, type BookSource, type BookStart } from './book-reader';
import { chapterAt, placeStore, type BookPlace, type PlaceStore } from './place';
import { keptBooks, type KeptBooks } from './kept';
import { BookTextView } from './book-view';
import { chaptersOf, flattenToc, type Chapter } from './toc';
import { sectionBlocks, type SectionText } from './section-blocks';
import { mostCharsFrom } from './most-chars';
import type { FoliateBook } from '@/vendor/foliate-js/book';

export interface BookSession {
  opened: OpenedBook;
  chapters: Chapter[];
  reader: BookReader;
  /** The book's own id: a hash of its bytes, never its name. */
  id: string;
  /** Where the listener stopped in this book last time (null: nowhere kept). */
  place: BookPlace | null;
  /** The book itself is kept on this computer (`kept.ts`): `book.html?book=ID` opens it again. */
  kept: boolean;
  /** Keeping it was refused: it alone is larger than the bound. */
  keepRefused?: true;
}

/** Seconds heard before a place is worth keeping (as on web pages), and between two writes of it. */
const PLACE_MIN_SECONDS = 5;
const PLACE_EVERY_MS = 3_000;

/** What the page follows of the reading's view (`reading/state.ts`). */
export interface ReadingSeen {
  id: string;
  state: string;
  tabId: number | null;
  position: number;
}

export type BookPageState = { status: 'empty' } | { status: 'loading' } | { status: 'ready'; session: BookSession } | { status: 'error'; code: string };

/** The book's id: SHA-256 of its size, its first and its last 64 KB (the same file gives the same id wherever it comes from). */
export async function bookId(file: Blob): Promise<string> {
  const edge = 64 * 1024;
  const parts = [new TextEncoder().encode(String(file.size)), new Uint8Array(await file.slice(0, edge).arrayBuffer()), new Uint8Array(await file.slice(Math.max(0, file.size - edge)).arrayBuffer())];
  const digest = await crypto.subtle.digest('SHA-256', await new Blob(parts).arrayBuffer());
  return [...new Uint8Array(digest).slice(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A section's document: as the book gives it, or read again as HTML when it is not well-formed XML (common in EPUBs). */
async function sectionDocument(book: FoliateBook, s: number): Promise<Document> {
  const section = book.sections[s]!;
  const doc = await section.createDocument();
  if (!doc.querySelector('parsererror')) return doc;
  const loadText = (book as { loadText?: (name: string) => Promise<string | null> | string | null }).loadText;
  const text = typeof section.id === 'string' && loadText ? await loadText.call(book, section.id) : null;
  return text ? new DOMParser().parseFromString(text, 'text/html') : doc;
}

/**
 * The book's sections as the reader reads them; the last few kept (a section's document is let go after).
 * `sized`: its sections' sizes are their markup's bytes (not a MOBI's), and bound what its text can bill.
 */
export function bookSource(book: FoliateBook, { keep = 4, sized = false } = {}): BookSource {
  const cache = new Map<number, Promise<SectionText & { doc?: Document }>>();
  return {
    sectionCount: book.sections.length,
    linear: (s) => book.sections[s]?.linear !== 'no',
    ...(sized ? { mostChars: (s: number) => mostCharsFrom(book.sections, s) } : {}),
    text(s) {
      const known = cache.get(s);
      if (known) {
        cache.delete(s);
        cache.set(s, known);
        return known;
      }
      const made = sectionDocument(book, s).then(
        (doc) => ({ ...sectionBlocks(doc), doc }),
        // A section that cannot be read is passed over (said as text left out: none known).
        () => ({ blocks: [], leftOutChars: 0 }),
      );
      cache.set(s, made);
      while (cache.size > keep) cache.delete(cache.keys().next().value!);
      return made;
    },
  };
}

export class BookPage {
  state: BookPageState = { status: 'empty' };
  private listeners = new Set<(state: BookPageState) => void>();
  readonly view: BookTextView;
  private source: BookSource | null = null;
  /** This page's tab (the reading's view names the tab it reads). */
  private readonly tabId = browser.tabs.getCurrent().then((t) => t?.id ?? null, () => null);
  /** The reading of this book under way, as the page follows it for the place it keeps. */
  private track = { reading: '', start: null as BookPlace['start'] | null, chapter: -1, chapterStart: 0, position: 0, savedAt: 0, holdUntil: 0 };
  /** The place a reading about to start goes on from ("Continue from …"). */
  private continued: BookPlace | null = null;
  /** The file the open book came from (kept only when the listener asks). */
  private file: { blob: Blob; name: string } | null = null;
  /** Where each chapter starts, as seen from a section being read (its own chapters' first blocks found in it): once a section. */
  private chapterStarts = new Map<number, Promise<{ section: number; block: number }[]>>();

  constructor(
    container: HTMLElement,
    private readonly untitled: (n: number) => string,
    private readonly uiLanguage = '',
    /** Calls back with the reading's view as the background writes it (`readingViewStorage.watch`). */
    watchReading: (cb: (view: ReadingSeen) => void) => void,
    private readonly places: PlaceStore = placeStore(),
    private readonly kept: KeptBooks = keptBooks(),
  ) {
    this.view = new BookTextView(
      container,
      async (s) => (this.source ? (await this.source.text(s)).blocks : []),
      (section, block) => void this.clicked(section, block),
    );
    const withReader = async <T>(f: (reader: BookReader) => T | Promise<T>): Promise<T> => {
      const state = this.state;
      if (state.status !== 'ready') throw new Error(state.status === 'error' ? state.code : 'no-text');
      return f(state.session.reader);
    };
    onPageRequest('extract', ({ data }) => (data.at !== undefined ? Promise.reject(new Error(NOT_AT)) : withReader((r) => r.extract())));
    onPageRequest('extractMore', ({ data }) => withReader((r) => r.more(data.after)));
    onPageRequest('highlight', ({ data }) =>
      withReader((r) => {
        void this.marked(r, data.block);
        return r.highlight(data.block, data.text, data.word);
      }),
    );
    watchReading((view) => void this.followed(view));
    onPageRequest('clearHighlight', () => withReader((r) => r.clear()));
  }

  subscribe(listener: (state: BookPageState) => void): () => void {
    this.listeners.add(listener);
    listener(this.state);
    return () => this.listeners.delete(listener);
  }

  private set(state: BookPageState) {
    this.state = state;
    for (const l of this.listeners) l(state);
  }

  /**
   * Opens the book at `url` (the `file` parameter): the copy the background fetched for it (`id`, from a link's
   * menu), else fetched by the page within the same bounds as a PDF's; `error`: the background's download was refused.
   */
  async openUrl(url: string, id: string | null = null, error: string | null = null): Promise<void> {
    this.set({ status: 'loading' });
    if (error === 'too-large' || error === 'redirect-refused') return this.set({ status: 'error', code: error });
    let bytes: ArrayBuffer | null = id ? await takePdf(id, url).catch(() => null) : null;
    try {
      bytes ??= await loadPdfFile(url, BOOK_MAX_BYTES);
    } catch (err) {
      // A file on this computer the extension may not read: the picker on this very page is the way.
      return this.set({ status: 'error', code: err instanceof LoadError ? (err.code === 'file-access' ? 'book-file-access' : err.code) : 'network' });
    }
    await this.open(new Blob([bytes]), decodeURIComponent(new URL(url).pathname.split('/').pop() ?? ''));
  }

  /** Opens the book in `file` (picked, dropped or fetched); a book open before is closed. */
  async open(file: Blob, name: string): Promise<void> {
    const last = this.state;
    if (last.status === 'ready') last.session.opened.book.destroy?.();
    this.set({ status: 'loading' });
    try {
      const [opened, id] = await Promise.all([openBook(file, name, this.uiLanguage), bookId(file)]);
      const source = bookSource(opened.book, { sized: opened.format !== 'mobi' });
      const chapters = await chaptersOf(flattenToc(opened.book.toc), opened.book.sections, (href) => opened.book.resolveHref(href), this.untitled);
      if (!chapters.length) throw new BookError('no-text');
      this.source = source;
      const reader = new BookReader(source, this.view, () => ({ title: opened.title, site: opened.author }), (start) => {
        // Going on from a place: the chapter it stopped in, and where that chapter began in the reading, stay the
        // same; nothing is noted until the reading is back there (its first part may play before it goes there).
        const c = start.continuePlace ? this.continued : null;
        this.continued = null;
        const from = { section: start.section, ...(start.block !== undefined ? { block: start.block } : {}), ...(start.chapter !== undefined ? { chapter: start.chapter } : {}) };
        this.track = { reading: '', start: from, chapter: c?.chapter ?? -1, chapterStart: c?.chapterStart ?? 0, position: 0, savedAt: 0, holdUntil: c ? c.position - 1 : 0 };
        return `${location.origin}${location.pathname}?book=${id}&start=${startKey(start)}`;
      }, async (s) => new Set((await this.startsIn(source, chapters, s)).filter((c) => c.section === s).map((c) => c.block)));
      const params = new URLSearchParams(location.search);
      params.set('book', id);
      history.replaceState(null, '', `?${params}`);
      document.title = opened.title;
      this.chapterStarts.clear();
      const [place, kept] = await Promise.all([this.places.get(id).catch(() => null), this.kept.has(id).catch(() => false)]);
      this.file = { blob: file, name };
      this.set({ status: 'ready', session: { opened, chapters, reader, id, place: place && place.chapter < chapters.length ? place : null, kept } });
      await this.view.showSection(chapters[0]!.section);
    } catch (err) {
      const code: BookErrorCode = err instanceof BookError ? err.code : 'bad-book';
      this.set({ status: 'error', code });
    }
  }

  /** Opens the book kept under `id` (`book.html?book=ID`); none kept: the page asks for the file. */
  async openKept(id: string): Promise<void> {
    this.set({ status: 'loading' });
    const kept = await this.kept.get(id).catch(() => null);
    if (!kept) return this.set({ status: 'empty' });
    await this.open(kept.file, kept.name);
  }

  /** Keeps the open book on this computer, or lets it go ("Keep this book on this computer"). */
  async keepBook(on: boolean): Promise<void> {
    const state = this.state;
    if (state.status !== 'ready' || !this.file) return;
    const { id } = state.session;
    let kept = false;
    let refused = false;
    if (on) {
      const result = await this.kept.keep(id, { name: this.file.name, title: state.session.opened.title, file: this.file.blob }).catch(() => 'failed' as const);
      kept = result === 'kept';
      refused = result === 'too-large';
    } else {
      await this.kept.forget(id).catch(() => undefined);
    }
    const now = this.state;
    if (now.status !== 'ready' || now.session.id !== id) return;
    const { keepRefused: _was, ...session } = now.session;
    this.set({ status: 'ready', session: { ...session, kept, ...(refused ? { keepRefused: true as const } : {}) } });
  }

  /** Reads chapter `i` from its start to the book's end. */
  readChapter(i: number): Promise<void> {
    const state = this.state;
    if (state.status !== 'ready') return Promise.resolve();
    const chapter = state.session.chapters[i];
    if (!chapter) return Promise.resolve();
    return this.readFrom({ section: chapter.section, anchor: chapter.anchor, chapter: i });
  }

  /** Goes on from where the listener stopped last time: the same reading started again, gone on from its place. */
  continueReading(): Promise<void> {
    const state = this.state;
    const place = state.status === 'ready' ? state.session.place : null;
    if (state.status !== 'ready' || !place) return Promise.resolve();
    const chapter = place.start.chapter !== undefined ? state.session.chapters[place.start.chapter] : undefined;
    this.set({ status: 'ready', session: { ...state.session, place: null } });
    this.continued = place;
    return this.readFrom({ ...place.start, anchor: chapter?.anchor ?? null, continuePlace: true });
  }

  /** Where each chapter starts, as seen from section `section` (its own chapters' first blocks found in it; others at their section's start). */
  private startsIn(source: BookSource, chapters: readonly Chapter[], section: number): Promise<{ section: number; block: number }[]> {
    let starts = this.chapterStarts.get(section);
    if (!starts) {
      starts = Promise.all(
        chapters.map(async (c) => {
          if (c.section !== section || !c.anchor) return { section: c.section, block: 0 };
          const text = await source.text(c.section);
          return { section: c.section, block: text.doc ? blockAtAnchor(text.blocks, c.anchor(text.doc)) : 0 };
        }),
      );
      this.chapterStarts.set(section, starts);
    }
    return starts;
  }

  /** The reading marked block `block`: the chapter it is in is noted (the place kept says which). */
  private async marked(reader: BookReader, block: number): Promise<void> {
    const state = this.state;
    const at = reader.placeOf(block);
    if (state.status !== 'ready' || !at || !this.source || this.track.position < this.track.holdUntil) return;
    const chapter = chapterAt(await this.startsIn(this.source, state.session.chapters, at.section), at.section, at.index);
    if (chapter !== this.track.chapter) {
      this.track.chapter = chapter;
      this.track.chapterStart = this.track.position;
    }
    await this.keep(false);
  }

  /** The reading's view changed: where it is, and whether it stopped or ended (this page's tab only). */
  private async followed(view: ReadingSeen): Promise<void> {
    const tabId = await this.tabId;
    if (tabId === null || view.tabId !== tabId || !view.id) return;
    this.track.reading = view.id;
    this.track.position = view.position;
    if (view.state === 'finished') {
      const state = this.state;
      if (state.status === 'ready') await this.places.forget(state.session.id).catch(() => undefined);
      return;
    }
    if (view.state === 'paused' || view.state === 'stopped') await this.keep(true);
  }

  /** Keeps where the listener is in this book (every few seconds, and at once on a pause or a stop). */
  private async keep(now: boolean): Promise<void> {
    const state = this.state;
    const { start, chapter, chapterStart, position } = this.track;
    if (state.status !== 'ready' || !start || chapter < 0 || position < PLACE_MIN_SECONDS) return;
    if (!now && Date.now() - this.track.savedAt < PLACE_EVERY_MS) return;
    this.track.savedAt = Date.now();
    await this.places.set(state.session.id, { start, chapter, chapterStart: Math.min(chapterStart, position), position, at: Date.now() }).catch(() => undefined);
  }

  /**
   * A paragraph clicked: the reading under way moves to it when it holds it (its parts, and the audio already
   * received for them, stay as they are: nothing is bought again); else a reading starts there.
   */
  private async clicked(section: number, index: number): Promise<void> {
    const state = this.state;
    if (state.status !== 'ready') return;
    const block = this.track.reading ? state.session.reader.blockOf(section, index) : -1;
    if (block >= 0) {
      const { jumped } = await sendMessage('jumpToBlock', { block }).catch(() => ({ jumped: false }));
      if (jumped) return;
    }
    await this.readFrom({ section, block: index });
  }

  private async readFrom(start: BookStart): Promise<void> {
    const state = this.state;
    if (state.status !== 'ready') return;
    state.session.reader.nextStart = start;
    void this.view.showSection(start.section);
    const tab = await browser.tabs.getCurrent();
    if (tab?.id !== undefined) await sendMessage('startReading', { tabId: tab.id, force: true });
  }
}
