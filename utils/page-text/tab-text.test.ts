import '../../tests/unit/indexeddb.setup';
import { hashOf } from '../storage/bounds';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Browser } from 'wxt/browser';

// The page's answers by message (a page with the resident script): set by each test that needs them.
const sendToPage = vi.hoisted(() => vi.fn());
vi.mock('../messaging/content', async (actual) => ({ ...(await actual<typeof import('../messaging/content')>()), sendToPage }));

// The module keeps state for the worker's life (and watches the storage, which `fakeBrowser.reset` forgets): loaded afresh for each test.
let settings: typeof import('../storage/settings');
let tabText: typeof import('./tab-text');
beforeEach(async () => {
  fakeBrowser.reset();
  vi.resetModules();
  settings = await import('../storage/settings');
  tabText = await import('./tab-text');
});

const URL_READ = 'https://example.com/article';
/** An account with a price: an article may then be read title first (within the bound the threshold leaves). */
const ACCOUNT = { name: 'a', provider: 'p', balanceRub: '100.0000', pricePerMillionRub: '1500.0000', maxConcurrency: 2, checkedAt: 0 };
/** A tab title that may be read first (`mayBeReadTitleFirst`). */
const READABLE_TITLE = 'Статья о реке и мосте — Газета';
const TEXT = { title: 'Заголовок', source: 'article' as const, blocks: [{ text: 'Первый абзац.', kind: 'paragraph' as const }] };

type Injection = { func?: (...args: never[]) => unknown; args?: Array<{ id: string; request: Record<string, unknown> }>; files?: string[] };
const named = (injection: Injection, name: string) => injection.func?.name === name;
/** The injection that carried the script with its request (`extractScript`), of the calls made. */
const scriptCall = (calls: unknown[][], nth = 0) => calls.map(([c]) => c as Injection).filter((c) => named(c, 'extractScript'))[nth];

/**
 * `scripting.executeScript` as a page answers it: the script injected as a function answers the request
 * it carries as its result (`notBuiltIn`: as in `wxt dev`, it only hands the request over and the file
 * answers it); the selection function reads `selection`.
 */
function scriptedPage(selection: unknown = null, notBuiltIn = false) {
  let pendingId: string | null = null;
  const executeScript = vi.fn(async (injection: Injection) => {
    if (named(injection, 'pageFacts')) return [{ frameId: 0, result: selection }];
    if (named(injection, 'extractScript')) {
      pendingId = injection.args![0]!.id;
      return [{ frameId: 0, result: notBuiltIn ? '@@trysasha-extract-script@@' : { ...TEXT, requestId: pendingId } }];
    }
    const answer = pendingId === null ? null : { ...TEXT, requestId: pendingId };
    pendingId = null;
    return [{ frameId: 0, result: answer }];
  });
  Object.assign(fakeBrowser.scripting, { executeScript, insertCSS: vi.fn(async () => undefined) });
  return executeScript;
}

describe('extractFromTab on a page read for the first time', () => {
  let tab: Browser.tabs.Tab;
  beforeEach(async () => {
    tab = (await fakeBrowser.tabs.create({ url: URL_READ })) as Browser.tabs.Tab;
  });

  it("with the event's tab and what it needs in memory, reads the page in the call itself, then puts the script in, and does not look the tab up", async () => {
    const executeScript = scriptedPage();
    const get = vi.spyOn(fakeBrowser.tabs, 'get');
    await settings.accountStorage.setValue(ACCOUNT);
    await Promise.all([settings.readSettings(), tabText.loadTabTextState()]);
    const extracting = tabText.extractFromTab(tab.id!, { clicked: { ...tab, title: READABLE_TITLE } });
    // Before anything is awaited: the selection being read. The script follows once that answered nothing.
    expect(executeScript).toHaveBeenCalledTimes(1);
    await expect(extracting).resolves.toEqual(TEXT);
    expect(executeScript).toHaveBeenCalledTimes(2);
    expect(scriptCall(executeScript.mock.calls)).toMatchObject({ target: { tabId: tab.id }, args: [{ request: { mode: 'normal' } }] });
    expect(get).not.toHaveBeenCalled();
  });

  it("a tab whose title cannot be read first (too short): the script goes in the call itself, beside the small function", async () => {
    const executeScript = scriptedPage();
    await settings.accountStorage.setValue(ACCOUNT);
    await Promise.all([settings.readSettings(), tabText.loadTabTextState()]);
    const extracting = tabText.extractFromTab(tab.id!, { clicked: { ...tab, title: 'Document' } });
    expect(executeScript).toHaveBeenCalledTimes(2);
    expect(scriptCall(executeScript.mock.calls)).toMatchObject({ args: [{ request: { mode: 'normal' } }] });
    await expect(extracting).resolves.toEqual(TEXT);
    expect(executeScript).toHaveBeenCalledTimes(2);
  });

  it('without a tab from the event (the popup), looks it up first', async () => {
    const executeScript = scriptedPage();
    const get = vi.spyOn(fakeBrowser.tabs, 'get');
    await expect(tabText.extractFromTab(tab.id!)).resolves.toEqual(TEXT);
    expect(get).toHaveBeenCalledWith(tab.id);
    expect(executeScript).toHaveBeenCalledTimes(2);
  });

  it('the script not built into its function (`wxt dev`): its file answers the request the function handed over', async () => {
    const executeScript = scriptedPage(null, true);
    await expect(tabText.extractFromTab(tab.id!, { clicked: tab })).resolves.toEqual(TEXT);
    expect(executeScript.mock.calls.at(-1)![0]).toEqual({ target: { tabId: tab.id }, files: ['/extract.js'] });
  });

  it('"Read from here" reads the article whatever is selected: no selection is read', async () => {
    const executeScript = scriptedPage({ selected: 'Выделено.', title: 't', site: 's', url: URL_READ });
    await expect(tabText.extractFromTab(tab.id!, { clicked: tab, mode: 'from-here' })).resolves.toEqual(TEXT);
    expect(executeScript).toHaveBeenCalledTimes(1);
    expect(scriptCall(executeScript.mock.calls)!.args![0]!.request).toMatchObject({ mode: 'from-here' });
  });

  it("an event's tab without its address (no grant) is looked up", async () => {
    scriptedPage();
    const get = vi.spyOn(fakeBrowser.tabs, 'get');
    await expect(tabText.extractFromTab(tab.id!, { clicked: { ...tab, url: undefined } })).resolves.toEqual(TEXT);
    expect(get).toHaveBeenCalledWith(tab.id);
  });
});

describe('readyTab (a start turned down: another reading is under way)', () => {
  let tab: Browser.tabs.Tab;
  beforeEach(async () => {
    tab = (await fakeBrowser.tabs.create({ url: URL_READ })) as Browser.tabs.Tab;
    sendToPage.mockReset();
    sendToPage.mockImplementation(async (type: string) => (type === 'extract' ? TEXT : undefined));
  });

  it('puts the script alone in a page not read before; the next start asks the page instead of injecting', async () => {
    const executeScript = scriptedPage();
    await tabText.readyTab(tab.id!, tab);
    expect(executeScript).toHaveBeenCalledTimes(1);
    expect(executeScript.mock.calls[0]![0]).toEqual({ target: { tabId: tab.id }, files: ['/extract.js'] });
    await expect(tabText.extractFromTab(tab.id!, { clicked: tab })).resolves.toEqual(TEXT);
    expect(executeScript).toHaveBeenCalledTimes(1);
    expect(sendToPage).toHaveBeenCalledWith('extract', expect.objectContaining({ mode: 'normal' }), tab.id);
  });

  it.each([
    ['a browser page', 'chrome://settings/'],
    ['an extension store', 'https://chromewebstore.google.com/detail/x'],
    ['a PDF (read on the PDF page, never scripted)', 'https://example.com/paper.pdf'],
  ])('injects nothing into %s', async (_, url) => {
    const executeScript = scriptedPage();
    const other = (await fakeBrowser.tabs.create({ url })) as Browser.tabs.Tab;
    await tabText.readyTab(other.id!, other);
    expect(executeScript).not.toHaveBeenCalled();
  });

  it('injects nothing into a page that has the script already', async () => {
    const executeScript = scriptedPage();
    await tabText.extractFromTab(tab.id!, { clicked: tab });
    executeScript.mockClear();
    await tabText.readyTab(tab.id!, tab);
    expect(executeScript).not.toHaveBeenCalled();
  });

  it('a start while the script is on its way waits for it, then asks the page (one injection)', async () => {
    let arrive = () => {};
    const executeScript = vi.fn(() => new Promise((resolve) => (arrive = () => resolve([{ frameId: 0, result: null }]))));
    Object.assign(fakeBrowser.scripting, { executeScript, insertCSS: vi.fn(async () => undefined) });
    const readying = tabText.readyTab(tab.id!, tab);
    await vi.waitFor(() => expect(executeScript).toHaveBeenCalledTimes(1));
    const extracting = tabText.extractFromTab(tab.id!, { clicked: tab });
    await Promise.resolve();
    expect(sendToPage).not.toHaveBeenCalled();
    arrive();
    await expect(extracting).resolves.toEqual(TEXT);
    await readying;
    expect(executeScript).toHaveBeenCalledTimes(1);
  });

  it('never fails: a tab that is gone is left alone', async () => {
    const executeScript = scriptedPage();
    await expect(tabText.readyTab(987654)).resolves.toBeUndefined();
    expect(executeScript).not.toHaveBeenCalled();
  });
});

describe('a start with no tab from its event (the popup) on a page known to have the script', () => {
  let tab: Browser.tabs.Tab;
  beforeEach(async () => {
    tab = (await fakeBrowser.tabs.create({ url: URL_READ })) as Browser.tabs.Tab;
    sendToPage.mockReset();
    // The page answers a request meant for it; one naming another address is refused, as the page reader does.
    sendToPage.mockImplementation(async (_type: string, data: { at?: string }) => {
      if (data.at !== undefined && data.at !== URL_READ && data.at !== hashOf(URL_READ)) throw new Error('not-at-that-address');
      return TEXT;
    });
    scriptedPage();
    await Promise.all([settings.readSettings(), tabText.loadTabTextState()]);
    await tabText.extractFromTab(tab.id!, { clicked: tab });
    sendToPage.mockClear();
  });

  it('asks the page, naming its address, before the tab is looked up, and takes its answer', async () => {
    let lookedUp = false;
    const get = vi.spyOn(fakeBrowser.tabs, 'get').mockImplementation(async () => {
      lookedUp = true;
      return tab;
    });
    let askedBeforeLookup: boolean | null = null;
    sendToPage.mockImplementation(async () => {
      askedBeforeLookup ??= !lookedUp;
      return TEXT;
    });
    await expect(tabText.extractFromTab(tab.id!)).resolves.toEqual(TEXT);
    expect(get).toHaveBeenCalled();
    expect(askedBeforeLookup).toBe(true);
    expect(sendToPage).toHaveBeenCalledTimes(1);
    expect(sendToPage).toHaveBeenCalledWith('extract', expect.objectContaining({ at: hashOf(URL_READ) }), tab.id);
  });

  it('a page that refuses the early ask (another document at that address now) is asked the usual way', async () => {
    sendToPage.mockImplementation(async (_type: string, data: { at?: string }) => {
      if (data.at !== undefined) throw new Error('not-at-that-address');
      return TEXT;
    });
    await expect(tabText.extractFromTab(tab.id!)).resolves.toEqual(TEXT);
    expect(sendToPage).toHaveBeenCalledTimes(2);
    expect(sendToPage.mock.calls[1]![1]).not.toHaveProperty('at');
  });

  it("the page's own failure is the start's: it is not extracted a second time", async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(null, { headers: { 'content-type': 'text/html' } })));
    try {
      sendToPage.mockImplementation(async () => {
        throw new Error('broken page');
      });
      await expect(tabText.extractFromTab(tab.id!)).rejects.toMatchObject({ code: 'restricted-page' });
      expect(sendToPage).toHaveBeenCalledTimes(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('a tab that has moved on since: its early answer is not taken; the new page gets the script and answers', async () => {
    const executeScript = scriptedPage();
    const moved = { ...TEXT, title: 'Другая страница' };
    executeScript.mockImplementation(async (injection: Injection) => [{ frameId: 0, result: named(injection, 'extractScript') ? { ...moved, requestId: injection.args![0]!.id } : null }]);
    vi.spyOn(fakeBrowser.tabs, 'get').mockImplementation(async () => ({ ...tab, url: 'https://example.com/other' }));
    // Whatever the page at the old address would have said (it still answers in this fake) is not read.
    sendToPage.mockImplementation(async () => TEXT);
    await expect(tabText.extractFromTab(tab.id!)).resolves.toEqual(moved);
    expect(executeScript).toHaveBeenCalledTimes(2);
  });
});

describe('an article read title first', () => {
  let tab: Browser.tabs.Tab;
  beforeEach(async () => {
    // The tab lookups other tests replaced.
    vi.restoreAllMocks();
    tab = (await fakeBrowser.tabs.create({ url: URL_READ })) as Browser.tabs.Tab;
    sendToPage.mockReset();
    sendToPage.mockImplementation(async () => TEXT);
  });

  const account = ACCOUNT;
  /** The request the page was handed with the script's injection. */
  const handed = (executeScript: ReturnType<typeof scriptedPage>) => scriptCall(executeScript.mock.calls)!.args![0]!.request;

  it.each<[string, string, { menuSelection?: string } | object, number | undefined]>([
    ['the toolbar, at the last price the account had: up to the default threshold (10 ₽ at 1,500 ₽ a million)', '10', {}, 6_666],
    ['from the context menu (a selection): whole', '10', { menuSelection: 'Выделенный текст.' }, undefined],
    ['no threshold (every reading asks first): whole', '0', {}, undefined],
  ])('%s', async (_name, threshold, how, most) => {
    await settings.accountStorage.setValue(account);
    await settings.settingsStorage.setValue({ ...(await settings.readSettings()), confirmThresholdRub: threshold });
    const executeScript = scriptedPage();
    await Promise.all([settings.readSettings(), tabText.loadTabTextState()]);
    await tabText.extractFromTab(tab.id!, { clicked: tab, ...how });
    expect(handed(executeScript).titleFirstMax).toBe(most);
  });

  it('the rest is taken from a web page by a small injected function, from the PDF page by message', async () => {
    const rest = { blocks: [{ text: 'Остальное.', kind: 'paragraph' }], leftOutChars: 0, more: false };
    const executeScript = vi.fn(async () => [{ frameId: 0, result: rest }]);
    Object.assign(fakeBrowser.scripting, { executeScript });
    await expect(tabText.moreFromTab(tab.id!, 1)).resolves.toEqual(rest);
    expect(executeScript).toHaveBeenCalledWith({ target: { tabId: tab.id }, func: expect.any(Function), args: [1] });
    const pdf = (await fakeBrowser.tabs.create({ url: fakeBrowser.runtime.getURL('/pdf.html?file=x') })) as Browser.tabs.Tab;
    sendToPage.mockImplementation(async () => rest);
    await expect(tabText.moreFromTab(pdf.id!, 3)).resolves.toEqual(rest);
    expect(sendToPage).toHaveBeenCalledWith('extractMore', { after: 3 }, pdf.id);
  });

  it('a page that never gives the rest is not waited for past 20 s: the reading ends with what it has', async () => {
    Object.assign(fakeBrowser.scripting, { executeScript: vi.fn(() => new Promise(() => undefined)) });
    vi.useFakeTimers();
    try {
      const asked = tabText.moreFromTab(tab.id!, 1);
      const failed = expect(asked).rejects.toThrow(/did not give the rest/);
      await vi.advanceTimersByTimeAsync(19_999);
      let settled = false;
      void asked.catch(() => (settled = true));
      await Promise.resolve();
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await failed;
    } finally {
      vi.useRealTimers();
    }
  });

  it('a page that no longer has the rest (reloaded, read again) says so: the reading ends with what it has', async () => {
    Object.assign(fakeBrowser.scripting, { executeScript: vi.fn(async () => [{ frameId: 0, result: null }]) });
    await expect(tabText.moreFromTab(tab.id!, 1)).rejects.toThrow(/no longer has the rest/);
  });
});

describe('a selection on a page read for the first time', () => {
  let tab: Browser.tabs.Tab;
  const SELECTED = 'Первая строка выделения.\n\nВторая  строка.';
  const PAGE = { selected: SELECTED, title: '  Статья \n о  чтении ', site: 'example.com', url: URL_READ };
  beforeEach(async () => {
    vi.restoreAllMocks();
    tab = (await fakeBrowser.tabs.create({ url: URL_READ })) as Browser.tabs.Tab;
  });

  /** A page whose selection function reads `read` and whose script arrives only when `arrive` is called (answering nothing). */
  function slowScript(read: unknown) {
    let arrive = () => {};
    const executeScript = vi.fn((injection: Injection) =>
      named(injection, 'pageFacts') ? Promise.resolve([{ frameId: 0, result: read }]) : new Promise((resolve) => (arrive = () => resolve([{ frameId: 0, result: null }]))),
    );
    Object.assign(fakeBrowser.scripting, { executeScript, insertCSS: vi.fn(async () => undefined) });
    return { executeScript, arrive: () => arrive() };
  }

  const ANSWER = {
    title: 'Статья о чтении',
    source: 'selection',
    blocks: [
      { text: 'Первая строка выделения.', kind: 'paragraph' },
      { text: 'Вторая строка.', kind: 'paragraph' },
    ],
    site: 'example.com',
    url: URL_READ,
  };

  it("from the toolbar: answered from the small function's reading; the script is put in only when the first sentence is to be marked, with the start's request", async () => {
    const page = slowScript(PAGE);
    await settings.accountStorage.setValue(ACCOUNT);
    await Promise.all([settings.readSettings(), tabText.loadTabTextState()]);
    await expect(tabText.extractFromTab(tab.id!, { clicked: { ...tab, title: READABLE_TITLE } })).resolves.toEqual(ANSWER);
    expect(page.executeScript).toHaveBeenCalledTimes(1);
    const injection = tabText.pageScript(tab.id!);
    expect(injection).toBeDefined();
    expect(page.executeScript).toHaveBeenCalledTimes(2);
    expect(scriptCall(page.executeScript.mock.calls)!.args![0]!.request).toMatchObject({ mode: 'normal' });
    page.arrive();
    await injection;
    // Put in once.
    expect(tabText.pageScript(tab.id!)).toBeUndefined();
    expect(page.executeScript).toHaveBeenCalledTimes(2);
  });

  it('from the menu: the script is put in only when the first sentence is to be marked, handed a request for the selection at that address', async () => {
    const page = slowScript(PAGE);
    await Promise.all([settings.readSettings(), tabText.loadTabTextState()]);
    await expect(tabText.extractFromTab(tab.id!, { clicked: tab, menuSelection: 'Первая строка выделения. Вторая строка.' })).resolves.toEqual(ANSWER);
    expect(page.executeScript).toHaveBeenCalledTimes(1);
    const injection = tabText.pageScript(tab.id!);
    expect(injection).toBeDefined();
    expect(page.executeScript).toHaveBeenCalledTimes(2);
    expect(scriptCall(page.executeScript.mock.calls)!.args![0]!.request).toEqual({ mode: 'normal', selectionOnly: true, at: URL_READ });
    page.arrive();
    await injection;
    // Put in once.
    expect(tabText.pageScript(tab.id!)).toBeUndefined();
    expect(page.executeScript).toHaveBeenCalledTimes(2);
  });

  it('from the menu, a new start on the tab before the first mark drops the put-off script (the start puts its own)', async () => {
    const page = slowScript(PAGE);
    await Promise.all([settings.readSettings(), tabText.loadTabTextState()]);
    await tabText.extractFromTab(tab.id!, { clicked: tab, menuSelection: 'Выделение.' });
    await tabText.extractFromTab(tab.id!, { clicked: tab, menuSelection: 'Выделение.' });
    expect(page.executeScript).toHaveBeenCalledTimes(2);
    expect(tabText.pageScript(tab.id!)).toBeDefined();
    expect(page.executeScript).toHaveBeenCalledTimes(3);
  });

  it.each([
    ['no selection (an article): the script answers', null],
    ['a blank selection', { ...PAGE, selected: ' \n ' }],
    ['an answer that is not a selection', { title: 'x' }],
  ])('%s', async (_name, read) => {
    const page = slowScript(read);
    await Promise.all([settings.readSettings(), tabText.loadTabTextState()]);
    sendToPage.mockReset();
    sendToPage.mockImplementation(async () => TEXT);
    const extracting = tabText.extractFromTab(tab.id!, { clicked: tab });
    let done = false;
    void extracting.then(() => (done = true));
    await vi.waitFor(() => expect(page.executeScript).toHaveBeenCalledTimes(2));
    // Every promise that could settle has (one task later): the answer waits for the script.
    await new Promise((r) => setTimeout(r, 0));
    expect(done).toBe(false);
    page.arrive();
    // The script found no handed request to answer: it is asked by message.
    await expect(extracting).resolves.toEqual(TEXT);
  });

  it("makes the answer the page's script would make of the same selection", async () => {
    const { parseHTML } = await import('linkedom');
    const { extractFromPage } = await import('../text/extract');
    const { pageFacts } = await import('../text/page-facts');
    const { earlyAnswer } = await import('./injection-answers');
    const { document } = parseHTML(`<html><head><title> Статья —  Сайт </title></head><body><p>${'Текст статьи. '.repeat(60)}</p></body></html>`);
    Object.assign(document, { getSelection: () => ({ toString: () => SELECTED, rangeCount: 0 }) });
    vi.stubGlobal('document', document);
    Object.defineProperty(document, 'location', { value: { hostname: 'example.com', href: URL_READ } });
    vi.stubGlobal('location', document.location);
    try {
      expect(earlyAnswer(pageFacts())).toEqual({ ...extractFromPage(document).text, tookMs: undefined, site: 'example.com', url: URL_READ });
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe("an article's title read first from what the small function read, while the script loads", () => {
  let tab: Browser.tabs.Tab;
  const TITLE = 'Как читают страницы вслух';
  const READ = {
    selected: '',
    title: `${TITLE} — Газета`,
    site: 'example.com',
    url: URL_READ,
    head: { textLength: 3_000, foldable: 0, elements: 20, metas: [], jsonLd: [], h1: [{ text: ` ${TITLE} `, hidden: false }], h2: [] },
  };
  // Its bound: the page's text, two for each element, the title three times over.
  const EARLY = { title: TITLE, source: 'article', blocks: [{ text: TITLE, kind: 'title' }], more: true, bound: 3_000 + 40 + 3 * TITLE.length, site: 'example.com', url: URL_READ };
  const REST = { blocks: [{ text: 'Первый абзац.', kind: 'paragraph' }], leftOutChars: 0, more: false };

  beforeEach(async () => {
    vi.restoreAllMocks();
    await settings.accountStorage.setValue(ACCOUNT);
    tab = (await fakeBrowser.tabs.create({ url: URL_READ })) as Browser.tabs.Tab;
  });
  /** A page whose script answers `answer` (to the request it was handed) only when `arrive` is called; the rest is `REST`. */
  function slowPage(answer: object) {
    let arrive = () => {};
    let arrived = false;
    const executeScript = vi.fn(async (injection: Injection) => {
      if (named(injection, 'pageFacts')) return [{ frameId: 0, result: READ }];
      if (named(injection, 'restOfPage')) return [{ frameId: 0, result: arrived ? REST : null }];
      const id = injection.args![0]!.id;
      await new Promise<void>((resolve) => (arrive = resolve));
      arrived = true;
      return [{ frameId: 0, result: { ...answer, requestId: id } }];
    });
    Object.assign(fakeBrowser.scripting, { executeScript, insertCSS: vi.fn(async () => undefined) });
    return { executeScript, arrive: () => arrive() };
  }

  it("answers the title before the script is in; the rest is asked of the page's script once it has answered", async () => {
    const page = slowPage({ ...EARLY, site: undefined, url: undefined });
    await Promise.all([settings.readSettings(), tabText.loadTabTextState()]);
    await expect(tabText.extractFromTab(tab.id!, { clicked: tab })).resolves.toEqual(EARLY);
    // The function read the page's facts up to the bound a title-first reading may have.
    expect(page.executeScript.mock.calls.map(([c]) => c as Injection).find((c) => named(c, 'pageFacts'))?.args).toEqual([6_666]);
    // The script is put in only once the rest is asked for (not beside the first request).
    expect(scriptCall(page.executeScript.mock.calls)).toBeUndefined();
    let more: unknown = null;
    const asked = tabText.moreFromTab(tab.id!, 1).then((batch) => (more = batch));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(scriptCall(page.executeScript.mock.calls)).toMatchObject({ args: [{ request: { mode: 'normal', titleFirstMax: 6_666 } }] });
    expect(more).toBeNull();
    page.arrive();
    await asked;
    expect(more).toEqual(REST);
  });

  it('a page whose script answered whole (it changed in between): the rest is that answer after its title', async () => {
    const whole = { title: TITLE, source: 'article', blocks: [{ text: TITLE, kind: 'title' }, ...REST.blocks, { text: 'Второй абзац.', kind: 'paragraph' }], leftOutChars: 7 };
    const page = slowPage(whole);
    await Promise.all([settings.readSettings(), tabText.loadTabTextState()]);
    await expect(tabText.extractFromTab(tab.id!, { clicked: tab })).resolves.toEqual(EARLY);
    const more = tabText.moreFromTab(tab.id!, 1);
    await new Promise((resolve) => setTimeout(resolve, 0));
    page.arrive();
    await expect(more).resolves.toEqual({ blocks: whole.blocks.slice(1), leftOutChars: 7, more: false });
  });

  it('the title marked first puts the script in; the rest is then asked of that script, not of another', async () => {
    const page = slowPage({ ...EARLY, site: undefined, url: undefined });
    await Promise.all([settings.readSettings(), tabText.loadTabTextState()]);
    await expect(tabText.extractFromTab(tab.id!, { clicked: tab })).resolves.toEqual(EARLY);
    const injection = tabText.pageScript(tab.id!);
    expect(injection).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 0));
    page.arrive();
    await injection;
    await expect(tabText.moreFromTab(tab.id!, 1)).resolves.toEqual(REST);
    expect(page.executeScript.mock.calls.filter(([c]) => named(c as Injection, 'extractScript'))).toHaveLength(1);
  });

  it('a script that never answers is not waited for past 20 s: the reading ends with its title', async () => {
    slowPage(EARLY);
    await Promise.all([settings.readSettings(), tabText.loadTabTextState()]);
    await expect(tabText.extractFromTab(tab.id!, { clicked: tab })).resolves.toEqual(EARLY);
    vi.useFakeTimers();
    try {
      const asked = tabText.moreFromTab(tab.id!, 1);
      const failed = expect(asked).rejects.toThrow(/did not give the rest/);
      await vi.advanceTimersByTimeAsync(20_000);
      await failed;
    } finally {
      vi.useRealTimers();
    }
  });

  it('from the context menu (a selection, never title first): the function reads no facts, and the selection is read', async () => {
    const page = slowPage(EARLY);
    await Promise.all([settings.readSettings(), tabText.loadTabTextState()]);
    const extracting = tabText.extractFromTab(tab.id!, { clicked: tab, menuSelection: 'Выделенный текст.' });
    expect(page.executeScript.mock.calls.map(([c]) => c as Injection).find((c) => named(c, 'pageFacts'))?.args).toEqual([0]);
    // No selection on the page (its facts say none): the script is put in and asked; the menu's own text is read.
    await new Promise((resolve) => setTimeout(resolve, 0));
    page.arrive();
    await expect(extracting).resolves.toMatchObject({ source: 'selection', blocks: [{ text: 'Выделенный текст.' }] });
  });
});
