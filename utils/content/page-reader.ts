import { type ExtractRequest, NOT_AT, onPageRequest } from '../messaging/content';
import { type Extraction, type ExtractedText, extractFromPage, type TextBatch } from '../text/extract';
import { titleFirst } from '../text/title-first';
import { hashOf } from '../storage/bounds';
import { PageHighlighter, startBlockText } from '../text/highlight';
import { tokens } from '../text/text-index';

interface PageReader {
  highlighter: PageHighlighter;
  /** The node last right-clicked, or the start of the block whose ▶ was clicked: where "from here" starts. */
  lastContextTarget: Node | null;
  /** Where the last extraction's blocks are on the page: the highlight looks only there. */
  last: Extraction | null;
  /** Whether the background's messages are handled yet (`listen`). */
  listening: boolean;
  /**
   * The rest of an article read title first (its blocks after the title), extracted when the background
   * first asks for it (`restOfPage`), the same promise after.
   */
  rest: (() => Promise<TextBatch>) | null;
  /** The answer to the background's `extract`. */
  extract(request: ExtractRequest): ExtractedText;
}

/**
 * Runs `f` in a task of its own, soon: a message to itself, not a timer, which a tab in the background
 * (the popup's page opened as a tab, another tab chosen meanwhile) delays to its next second (as
 * Firefox's bench found).
 */
function nextTask(f: () => void): void {
  const channel = new MessageChannel();
  // Held until its message comes: a channel nothing refers to may be collected with the message unsent
  // (the page's message handlers would then never be installed).
  pendingTasks.add(channel);
  channel.port1.onmessage = () => {
    pendingTasks.delete(channel);
    channel.port1.close();
    f();
  };
  channel.port2.postMessage(null);
}
const pendingTasks = new Set<MessageChannel>();

declare global {
  // The content script's isolated world outlives each injection: a second injection finds the first's reader.
  var __trysashaPageReader: PageReader | undefined;
}

/**
 * The injection's result: the answer to the request handed over before it (with its id), or null when
 * there is none (the background then asks by message). Taken once. The reader's message handlers are
 * installed at once when there is no answer (the background's message follows the result), else in the
 * task after the answer: the extension API the handlers need is built on its first touch (slow in
 * Firefox), and the background asks nothing more until the audio plays.
 */
export function answerPendingExtract(reader: PageReader, later: (f: () => void) => void = nextTask): (ExtractedText & { requestId: string }) | null {
  const pending = globalThis.__trysashaPendingExtract;
  globalThis.__trysashaPendingExtract = undefined;
  let answer: (ExtractedText & { requestId: string }) | null = null;
  if (pending && typeof pending.id === 'string') {
    try {
      answer = { ...reader.extract(pending.request), requestId: pending.id };
    } catch {
      // Asked again by message, whose answer carries the error.
    }
  }
  if (answer) later(() => listen(reader));
  else listen(reader);
  return answer;
}

/**
 * The page's reader, made once per page however often the extract script is injected (it stays
 * resident after the first): the highlighter and the right-click target for "Read from here". Its
 * handlers of the background's messages are installed by `listen`.
 */
export function pageReader(doc: Document = document): PageReader {
  const existing = globalThis.__trysashaPageReader;
  if (existing) return existing;
  const reader: PageReader = {
    highlighter: new PageHighlighter(doc),
    lastContextTarget: null,
    last: null,
    listening: false,
    rest: null,
    extract(data) {
      // `at`: the address asked about, or its hash (what the background keeps of a page it put the script in).
      const href = doc.location?.href ?? '';
      if (data.at !== undefined && data.at !== href && data.at !== hashOf(href)) throw new Error(NOT_AT);
      if (data.selectionOnly && !doc.getSelection?.()?.toString().trim()) throw new Error('The selection is gone.');
      // The browser's PDF viewer: its page holds no text of the PDF (the background reads it on the extension's PDF page).
      if (doc.contentType === 'application/pdf') return { title: doc.title, source: 'article' as const, blocks: [] };
      reader.rest = null;
      const early = data.mode === 'normal' && data.titleFirstMax ? titleFirst(doc, data.titleFirstMax) : null;
      if (early) {
        // The title answers now (its part is sent at once); the article is extracted when the background asks.
        reader.last = early;
        reader.highlighter.clear();
        reader.rest = restAfter(early, data, doc, (full) => reader.last === early && (reader.last = full));
        return { ...early.text, site: doc.location?.hostname ?? '', url: doc.location?.href ?? '' };
      }
      const extraction = extractFromPage(doc, { ...data, articleOnly: data.mode === 'from-here' });
      reader.last = data.mode === 'from-here' ? fromHere(extraction, reader.lastContextTarget, doc) : extraction;
      reader.highlighter.clear();
      return { ...reader.last.text, site: doc.location?.hostname ?? '', url: doc.location?.href ?? '' };
    },
  };
  // Only the user's own right click: a page's script may send a contextmenu of its own to move "Read from here".
  doc.addEventListener('contextmenu', (e) => {
    if (e.isTrusted) reader.lastContextTarget = e.target instanceof Element ? e.target : null;
  }, true);
  globalThis.__trysashaPageReader = reader;
  return reader;
}

/**
 * The article after its title (read title first), with the title the reading sent: every block after
 * it, as `extractFromPage` gives them, extracted at the first call (the background asks once the
 * title's audio plays: run at once, the page's Readability took a core from the player's set-up, and
 * Firefox's first audio on a large page came later than on a small one), the same promise
 * after. `took` gets the whole extraction.
 */
function restAfter(early: Extraction, data: ExtractRequest, doc: Document, took: (full: Extraction) => void): () => Promise<TextBatch> {
  let rest: Promise<TextBatch> | null = null;
  return () =>
    (rest ??= new Promise<TextBatch>((resolve) => {
      const headline = { text: early.text.title, segments: early.segments[0] ?? [] };
      const full = extractFromPage(doc, { ...data, articleOnly: true, headline });
      // The page grew past what the reading was bounded by (its scripts added text since): not read on
      // that bound, which let the title go without asking. The reading ends with the title, and says so.
      if (full.text.blocks.reduce((n, b) => n + b.text.length + 2, 0) > (early.text.bound ?? 0)) throw new Error('The page grew past its bound.');
      took(full);
      resolve({ blocks: full.text.blocks.slice(1), leftOutChars: full.text.leftOutChars ?? 0, more: false });
    }));
}

/** The handlers of the background's messages, once per page (@webext-core allows one handler per type in a context). */
function listen(reader: PageReader): void {
  if (reader.listening) return;
  reader.listening = true;
  onPageRequest('extract', ({ data }) => reader.extract(data));
  onPageRequest('highlight', ({ data }) => {
    const slices = reader.last?.segments[data.block];
    return slices?.length ? reader.highlighter.show(slices, data.text, data.word) : false;
  });
  onPageRequest('clearHighlight', () => reader.highlighter.clear());
}

/** The reader with its message handlers at once (click-to-read's script, which answers no injection). */
export function installPageReader(doc: Document = document): PageReader {
  const reader = pageReader(doc);
  listen(reader);
  return reader;
}

/** "Read from here": the article from the block the user pointed at (the block holding the clicked node, else by its words). */
export function fromHere(extraction: Extraction, clicked: Node | null, doc: Document = document): Extraction {
  const { text, segments } = extraction;
  let at = clicked ? segments.findIndex((slices) => slices.some((s) => clicked.contains(s.node))) : -1;
  if (at < 0) {
    const want = tokens(startBlockText(doc, clicked instanceof Element ? clicked : (clicked?.parentElement ?? null))).slice(0, 8).join(' ');
    if (!want) return extraction;
    at = text.blocks.findIndex((b) => {
      const have = tokens(b.text).join(' ');
      return have.startsWith(want) || want.startsWith(have.slice(0, Math.max(want.length, 1)));
    });
  }
  if (at <= 0) return extraction;
  return { text: { ...text, blocks: text.blocks.slice(at) }, segments: segments.slice(at) };
}
