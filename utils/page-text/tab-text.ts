import { browser, type Browser } from 'wxt/browser';
import { type ExtractRequest, isNoReceiver, NOT_AT, type PendingExtract, extractScript, restOfPage, sendToPage, type ExtractMode } from '../messaging/content';
import { pageFacts } from '../text/page-facts';
import { ignore } from '../log';
import { blocksFromPlainText, type ExtractedText, type TextBatch } from '../text/extract';
import { HIGHLIGHT_CSS } from '../text/highlight';
import { SAMPLE_PAGE, sampleFor, sampleText } from '../text/sample';
import { readSettings, settingsNow, cleanupOf, type Settings } from '../storage/settings';
import { titleFirstMax } from '../money/bound';
import { mayBeReadTitleFirst } from '../text/title-first';
import { ReadingError } from '../speech/errors';
import { afterHold } from '../diagnostics/diagnostics';
import { diagnostics } from '../diagnostics/wired';
import { askPdfPage, isDocPage, looksLikeLocalBook, looksLikePdf, openLocalBook, openPdfPage, servesPdf, tabUrl } from './pdf-tab';
import { answerOf, earlyAnswer } from './injection-answers';
import { hashOf } from '../storage/bounds';
import { isRestrictedUrl } from './restricted';
import { untilReady } from './until-ready';
import { deferInjection, dropDeferred, injectionUnderWay, keepRest, lastPrice, loadTabTextState, newStart, rememberInjected, scriptAddress, stateLoaded, surelyWithoutScript, takeRest, tracked } from './tab-channel';

export { loadTabTextState, pageScript } from './tab-channel';

/** The event's tab when it has its address (the activeTab grant the event gave): not looked up again. */
function eventTab(tabId: number, clicked: Browser.tabs.Tab | undefined): Browser.tabs.Tab | null {
  return clicked?.id === tabId && clicked.url ? clicked : null;
}

/** The welcome page's sample (`sample.html`), in a tab of its own. */
export function isSamplePage(url: string | undefined): boolean {
  return !!url && url.startsWith(browser.runtime.getURL(SAMPLE_PAGE));
}

/** Asks one of the extension's own pages, which may still be loading (no receiver yet): again, until it answers (5 s at most). */
function askOwnPage(tabId: number, request: ExtractRequest): Promise<ExtractedText> {
  return untilReady(() => sendToPage('extract', request, tabId), { withinMs: 5_000, every: 50 });
}

/** A page the extract script may be put in: not one the browser protects, not the PDF or book page, not a PDF. */
function scriptable(url: string): boolean {
  return !isRestrictedUrl(url) && !isDocPage(url) && !looksLikePdf(url);
}

/**
 * What the page is asked with. An article (not from the menu) that surely asks nothing first is answered
 * title first (`titleFirstMax`, at the last price the account had): its first part is sent while the page
 * extracts the rest.
 */
function extractRequest(mode: ExtractMode, settings: Settings, whole = false): ExtractRequest {
  const { readCode, leaveOutCaptions, leaveOutTables } = cleanupOf(settings);
  const most = mode === 'normal' && !whole ? titleFirstMax(settings, lastPrice()) : 0;
  return { mode, keepReferences: settings.readReferences === true, readCode, leaveOutCaptions, leaveOutTables, ...(most > 0 ? { titleFirstMax: most } : {}) };
}

/** Asks the page's resident extract script; injects it first when the page has none yet (first reading of this page). */
async function askPage(tabId: number, mode: ExtractMode, settings: Settings, url: string | undefined, title: string | undefined, whole: boolean): Promise<ExtractedText> {
  const request = extractRequest(mode, settings, whole);
  newStart(tabId);
  const under = injectionUnderWay(tabId);
  if (under) await under.catch(() => undefined);
  if (under || !surelyWithoutScript(tabId, url)) {
    try {
      diagnostics.mark('extract:ask');
      return await sendToPage('extract', request, tabId);
    } catch (err) {
      // Expected on a page not read before: nothing answers until the script is injected.
      if (!isNoReceiver(err)) throw err;
    }
    // A `readyTab` injection began meanwhile: its script is asked, not injected again.
    const late = injectionUnderWay(tabId);
    if (late) {
      await late.catch(() => undefined);
      return sendToPage('extract', request, tabId);
    }
  }
  diagnostics.mark('extract:inject');
  const id = crypto.randomUUID();
  const pending: PendingExtract = { id, request };
  // A selection is read by a small function first, and answered from that (as the script would): the
  // script takes longer to come. "Read from here" reads the article whatever is selected. It also reads
  // what an article's title first is found from: the background finds the title from it.
  const headMax = whole ? 0 : (request.titleFirstMax ?? 0);
  const read = mode === 'normal' ? browser.scripting.executeScript({ target: { tabId }, func: pageFacts, args: [headMax] }) : null;
  read?.then(() => diagnostics.mark('extract:selection-read'), () => undefined);
  let put: ReturnType<typeof injectScript> | undefined;
  const inject = (what: PendingExtract = pending) => (put ??= afterHold(diagnostics, 'extract:script', () => injectScript(tabId, url, what)));
  // The script (far larger) goes in once something needs it where the small function's answer will likely do
  // for the reading's first part: put in at once, its loading and compiling ran beside the first request and
  // its answer, on the same two cores (bench/HISTORY.md, 2026-12-05). A page whose tab title cannot be read
  // first (too short, in other letters) is likely not read title first: its script goes in at once, beside the
  // small function (after it, the script would lose the way there and back).
  if (!whole && !(headMax > 0 && mayBeReadTitleFirst(title))) void inject().catch(() => undefined);
  const selection = read && (await read.then(([result]) => earlyAnswer(result?.result, headMax), () => null));
  if (selection) {
    diagnostics.mark(selection.more ? 'extract:title-from-head' : 'extract:selection-handed');
    // From the menu, a request for the selection alone at this address: by then the page may be another.
    const later: PendingExtract = whole ? { id: crypto.randomUUID(), request: { mode: 'normal', selectionOnly: true, ...(url ? { at: url } : {}) } } : pending;
    // The script keeps where each line is: put in once the first sentence is to be marked (`pageScript`), or
    // the rest of an article read title first is asked for (`moreFromTab`), if not in already.
    deferInjection(tabId, () => void inject(later).catch(ignore('injecting the extract script')));
    if (selection.more) keepRest(tabId, () => inject(later).then(([injected]) => answerOf(injected?.result, id), () => null));
    return selection;
  }
  const [injected] = await inject();
  const answer = answerOf(injected?.result, id);
  if (answer) {
    diagnostics.mark('extract:with-injection');
    return answer;
  }
  diagnostics.mark('extract:ask-after');
  return sendToPage('extract', request, tabId);
}

/**
 * Puts the extract script in the tab's page with `pending`, which it answers as the injection's result
 * (`extractScript`: the script as a function, its request the argument).
 */
function injectScript(tabId: number, url: string | undefined, pending: PendingExtract) {
  const injection = tracked(
    tabId,
    (async () => {
      const results = await browser.scripting.executeScript({ target: { tabId }, func: extractScript, args: [pending] });
      // Not built in (`wxt dev`'s rebuilds): the function only handed the request over; the file answers it.
      if (typeof results[0]?.result !== 'string') return results;
      diagnostics.mark('extract:not-built-in');
      return browser.scripting.executeScript({ target: { tabId }, files: ['/extract.js'] });
    })(),
  );
  injection.then(() => (diagnostics.mark('extract:injected'), rememberInjected(tabId, url)), () => undefined);
  return injection;
}

/**
 * Puts the extract script in the tab's page ahead of a reading the listener is likely to start there:
 * a start from the toolbar or the popup was turned down because another reading is under way (the
 * popup then offers to stop it and read this page). The script only installs its reader and waits;
 * the next start asks it instead of injecting it (`npm run bench`: the popup's play button on a page
 * not read before). Nothing is injected where a start would not inject either: a page that has the
 * script, a restricted page, a PDF. Never fails.
 */
export async function readyTab(tabId: number, clicked?: Browser.tabs.Tab): Promise<void> {
  try {
    await loadTabTextState();
    const url = (eventTab(tabId, clicked) ?? (await browser.tabs.get(tabId))).url;
    if (!url || injectionUnderWay(tabId) || !scriptable(url) || !surelyWithoutScript(tabId, url)) return;
    dropDeferred(tabId);
    diagnostics.mark('extract:ready');
    // Its file, not the function a start injects: off the way to the first audio, and Chrome compiles a
    // file whole as it comes (the compile hint, wxt.config.ts), so the next start's answer compiles nothing.
    await tracked(tabId, browser.scripting.executeScript({ target: { tabId }, files: ['/extract.js'] }));
    rememberInjected(tabId, url);
  } catch {
    // A tab that is gone, or a page the browser protects: a start there finds out and says so.
  }
}

/**
 * A start with no tab from its event (the popup's play button) on a page known to have the script:
 * the page is asked at once, while the tab is looked up. Only a page still at the address the
 * script was put in answers (`at`: any other, the extension's PDF page too, refuses and does nothing),
 * and the answer is taken only if the tab is there too (`answerAt`); else the start goes the usual way.
 * Null when the page is not known to have the script, or the settings are not in memory.
 */
function askEarly(tabId: number, mode: ExtractMode): { answerAt(url: string | undefined): Promise<ExtractedText | null> } | null {
  const settings = settingsNow();
  // A hash of the address (`hashOf`): the page compares it with its own.
  const known = scriptAddress(tabId);
  if (!settings || !known) return null;
  diagnostics.mark('extract:ask-early');
  const asked = sendToPage('extract', { ...extractRequest(mode, settings), at: known }, tabId).then(
    (text) => ({ text }),
    (error: unknown) => ({ error }),
  );
  return {
    async answerAt(url) {
      if (url === undefined || !scriptable(url) || hashOf(url) !== known) return null;
      const answer = await asked;
      if ('text' in answer) return (diagnostics.mark('extract:early-taken'), answer.text);
      // Not there (the page refused, or has no script): the usual way. The page's own failure is the start's.
      if (isNoReceiver(answer.error) || (answer.error instanceof Error && answer.error.message.includes(NOT_AT))) return null;
      throw answer.error;
    },
  };
}

/** How long a page may take to give the rest of an article read title first (its Readability, on a page small enough for that: well under a second). */
const REST_WAIT_MS = 20_000;

/**
 * The rest of a document the tab's page is reading in batches: the PDF page's next batch, or the rest of
 * an article its page answered title first (taken by a small injected function: no message handler needed).
 */
export async function moreFromTab(tabId: number, after: number): Promise<TextBatch> {
  const tab = await browser.tabs.get(tabId);
  if (isDocPage(await tabUrl(tab))) return sendToPage('extractMore', { after }, tabId);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('The page did not give the rest of the article in time.')), REST_WAIT_MS)));
  try {
    // Its title read from what `pageFacts` read: the page's script has the rest once it has answered.
    const early = takeRest(tabId);
    const answer = early && (await Promise.race([early, late]));
    // The page answered it whole (it changed in between): the rest is that answer's after the title.
    if (answer && !answer.more) return { blocks: answer.blocks.slice(after), leftOutChars: answer.leftOutChars ?? 0, more: false };
    const asked = browser.scripting.executeScript({ target: { tabId }, func: restOfPage, args: [after] });
    // Never waited for in vain: a page that does not answer ends the reading with its title, said (`incomplete`).
    const [injected] = await Promise.race([asked, late]);
    const batch = injected?.result as TextBatch | null | undefined;
    if (!batch || !Array.isArray(batch.blocks)) throw new Error('The page no longer has the rest of the article (reloaded, or read again).');
    diagnostics.mark('extract:rest');
    return batch;
  } finally {
    clearTimeout(timer);
  }
}

export interface ExtractHow {
  /** From the context menu: the menu's `selectionText` (only a selection is read). */
  menuSelection?: string;
  mode?: ExtractMode;
  /** The tab as the click, shortcut or menu event gave it. */
  clicked?: Browser.tabs.Tab;
}

/**
 * Returns the selection or the article of tab `tabId`, from the extract script (injected on demand,
 * then resident). From the context menu (`menuSelection` given) only a selection is read: the
 * page's own when it can be scripted, else the menu's `selectionText` (the PDF viewer).
 *
 * What the page is asked with (the settings, the tab's address, whether the page has the script) is
 * usually in memory: then the page is asked, or the script injected, in the call itself, before the
 * rest of the reading's start (ending the last one, writing the first view) takes the worker's turns.
 * Waiting for them, and for `tabs.get`, showed in `npm run bench`'s first steps.
 */
export async function extractFromTab(tabId: number, how: ExtractHow = {}): Promise<ExtractedText> {
  const { menuSelection, mode = 'normal', clicked } = how;
  // The settings (the clean-up choices) are read while the tab is looked up. A tab that is gone reads as one that cannot be scripted.
  const settingsRead = readSettings();
  settingsRead.catch(() => undefined);
  const stateRead = loadTabTextState();
  stateRead.catch(() => undefined);
  const fromEvent = eventTab(tabId, clicked);
  // No tab from the event (the popup): a page known to have the script is asked while the tab is looked up.
  const early = menuSelection === undefined && !fromEvent ? askEarly(tabId, mode) : null;
  const tab = fromEvent ?? (await browser.tabs.get(tabId).catch(() => null));
  const fromMenu = (): ExtractedText => {
    if (!menuSelection?.trim()) throw new ReadingError('no-text');
    // The menu's own text (a frame, the PDF viewer, a page that cannot be scripted) belongs to the page the
    // tab shows now: recorded, so the mini-player and the sentence text never follow the tab to the next site.
    return { title: tab?.title ?? '', source: 'selection', blocks: blocksFromPlainText(menuSelection), url: tab?.url ?? tab?.pendingUrl ?? '' };
  };
  const unscriptable = (): ExtractedText => {
    if (menuSelection !== undefined) return fromMenu();
    throw new ReadingError('restricted-page');
  };
  // Awaited only when the tab hides its address: a known one is used in the call itself.
  const url = tab?.url ?? tab?.pendingUrl ?? (tab ? await tabUrl(tab) : undefined);
  const pdfText = async () => {
    const fromPdf = await askPdfPage(tabId);
    if (menuSelection !== undefined && fromPdf.source !== 'selection') return fromMenu();
    // A scanned PDF has no text layer: nothing to send.
    if (fromPdf.blocks.every((b) => !b.text.trim())) throw new ReadingError('no-text');
    return fromPdf;
  };
  // The extension's PDF page reads its PDF: the selection on it, or its pages from the one in view; the book
  // page its book, from the chapter chosen.
  if (tab && isDocPage(url)) return pdfText();
  // The welcome page's sample answers for itself (no script can be put in an extension page). Firefox does not
  // deliver a tab's messages to an extension page: there its text is the bundled one, without the highlight.
  if (tab && isSamplePage(url)) {
    if (import.meta.env.FIREFOX) return sampleText(sampleFor(browser.i18n.getUILanguage()), url!);
    return askOwnPage(tabId, extractRequest(mode, settingsNow() ?? (await settingsRead), true));
  }
  // A book file open from this computer: read on the book page, from its start.
  if (tab && menuSelection === undefined && looksLikeLocalBook(url)) {
    await openLocalBook(tabId, url!);
    return pdfText();
  }
  if (!tab || isRestrictedUrl(url)) return unscriptable();
  // A PDF (the browser's viewer): read through the extension's PDF page, opened in this tab. From the
  // context menu only the selection is read, and the viewer stays.
  const readPdf = async () => {
    await openPdfPage(tabId, url!);
    return pdfText();
  };
  if (menuSelection === undefined && looksLikePdf(url)) return readPdf();
  let extracted: ExtractedText | undefined;
  try {
    // Unknown whether the page has the script (the state unread, or failing to read): it is asked first.
    if (!stateLoaded()) await stateRead.catch(() => undefined);
    extracted = (early && (await early.answerAt(tab.url))) || (await askPage(tabId, mode, settingsNow() ?? (await settingsRead), tab.url, tab.title, menuSelection !== undefined));
    diagnostics.mark('extract:answered');
    if (extracted.bound !== undefined) diagnostics.mark('extract:title-first');
    // A user style sheet for the highlight (the page's own DOM is left alone); not waited for: the first
    // sentence is marked only once its audio plays.
    void browser.scripting.insertCSS({ target: { tabId }, css: HIGHLIGHT_CSS }).catch(ignore('highlight style'));
  } catch {
    // The PDF viewer and pages the browser protects cannot be scripted; a PDF is read on the PDF page.
    if (menuSelection === undefined && (await servesPdf(url))) return readPdf();
    return unscriptable();
  }
  if (!extracted || !Array.isArray(extracted.blocks)) return unscriptable();
  if (menuSelection !== undefined && extracted.source !== 'selection') return fromMenu();
  if (extracted.blocks.every((b) => !b.text.trim())) {
    if (menuSelection === undefined && (await servesPdf(url))) return readPdf();
    throw new ReadingError('no-text');
  }
  return extracted;
}
