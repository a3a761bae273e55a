import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Browser } from 'wxt/browser';

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
const TEXT = { title: 'Заголовок', source: 'article' as const, blocks: [{ text: 'Первый абзац.', kind: 'paragraph' as const }] };

/** `scripting.executeScript` as a page answers it: the handed request is kept, the script answers it as its result. */
function scriptedPage() {
  let pendingId: string | null = null;
  const executeScript = vi.fn(async (injection: { func?: unknown; args?: Array<{ id: string }>; files?: string[] }) => {
    if (injection.func) {
      pendingId = injection.args![0]!.id;
      return [{ frameId: 0, result: null }];
    }
    return [{ frameId: 0, result: { ...TEXT, requestId: pendingId } }];
  });
  Object.assign(fakeBrowser.scripting, { executeScript, insertCSS: vi.fn(async () => undefined) });
  return executeScript;
}

describe('extractFromTab on a page read for the first time', () => {
  let tab: Browser.tabs.Tab;
  beforeEach(async () => {
    tab = (await fakeBrowser.tabs.create({ url: URL_READ })) as Browser.tabs.Tab;
  });

  it("with the event's tab and what it needs in memory, injects in the call itself and does not look the tab up", async () => {
    const executeScript = scriptedPage();
    const get = vi.spyOn(fakeBrowser.tabs, 'get');
    await Promise.all([settings.readSettings(), tabText.loadTabTextState()]);
    const extracting = tabText.extractFromTab(tab.id!, { clicked: tab });
    // Before anything is awaited: the request handed over and the script on its way.
    expect(executeScript).toHaveBeenCalledTimes(2);
    expect(executeScript.mock.calls[1]![0]).toMatchObject({ files: ['/extract.js'] });
    await expect(extracting).resolves.toEqual(TEXT);
    expect(get).not.toHaveBeenCalled();
  });

  it('without a tab from the event (the popup), looks it up first', async () => {
    const executeScript = scriptedPage();
    const get = vi.spyOn(fakeBrowser.tabs, 'get');
    await expect(tabText.extractFromTab(tab.id!)).resolves.toEqual(TEXT);
    expect(get).toHaveBeenCalledWith(tab.id);
    expect(executeScript).toHaveBeenCalledTimes(2);
  });

  it("an event's tab without its address (no grant) is looked up", async () => {
    scriptedPage();
    const get = vi.spyOn(fakeBrowser.tabs, 'get');
    await expect(tabText.extractFromTab(tab.id!, { clicked: { ...tab, url: undefined } })).resolves.toEqual(TEXT);
    expect(get).toHaveBeenCalledWith(tab.id);
  });
});
