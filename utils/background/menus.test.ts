import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Browser } from 'wxt/browser';
import type { Reader } from '../reading/reader';
import { init } from './menus';

type OnClicked = (info: Browser.contextMenus.OnClickData, tab?: Browser.tabs.Tab) => void;

/** `contextMenus` as the browser has it, menus kept and clicks fired by the test (the fake browser leaves it unmocked). */
function contextMenus() {
  const listeners = new Set<OnClicked>();
  const created: Browser.contextMenus.CreateProperties[] = [];
  return {
    created,
    create: (props: Browser.contextMenus.CreateProperties) => void created.push(props),
    onClicked: {
      addListener: (listener: OnClicked) => void listeners.add(listener),
      removeListener: (listener: OnClicked) => void listeners.delete(listener),
      hasListeners: () => listeners.size > 0,
    },
    click: (info: Partial<Browser.contextMenus.OnClickData> & { linkText?: string }, tab?: Browser.tabs.Tab) =>
      listeners.forEach((listener) => listener({ editable: false, pageUrl: tab?.url ?? '', ...info } as Browser.contextMenus.OnClickData, tab)),
  };
}

const TAB = { id: 7, url: 'https://example.com/article', title: 'The article', index: 0, windowId: 1 } as Browser.tabs.Tab;

let menus: ReturnType<typeof contextMenus>;
let start: ReturnType<typeof vi.fn<Reader['start']>>;
let addToQueue: ReturnType<typeof vi.fn<(url: string, title: string) => void>>;
let feature: AbortController;
beforeEach(() => {
  fakeBrowser.reset();
  menus = contextMenus();
  Object.assign(fakeBrowser.contextMenus, menus);
  // The message's name as its title: `i18n.t` reads `browser.i18n`.
  vi.spyOn(fakeBrowser.i18n, 'getMessage').mockImplementation((name: string) => `«${name}»`);
  start = vi.fn<Reader['start']>(async () => undefined);
  addToQueue = vi.fn();
  feature = new AbortController();
  // The feature alone: a reader that only records its starts, and a queue that only records its additions.
  init(feature.signal, { reader: { start } as unknown as Reader, addToQueue });
});

describe('the context menu, alone', () => {
  it('Chrome: its items are made once, at install (Chrome keeps them across restarts of the worker)', async () => {
    expect(menus.created).toEqual([]);
    await fakeBrowser.runtime.onInstalled.trigger({ reason: 'install' } as Browser.runtime.InstalledDetails);
    expect(menus.created.map(({ id, contexts }) => [id, contexts])).toEqual([
      ['read-selection', ['selection']],
      ['read-from-here', ['page']],
      ['queue-add-link', ['link']],
      ['queue-add-page', ['page']],
      ['read-book', ['link']],
    ]);
    expect(menus.created[0]!.title).toBe('«menuReadSelection»');
    // "Read this book aloud" only on links to book files, with or without a query.
    const book = menus.created.find((m) => m.id === 'read-book') as { targetUrlPatterns?: string[] };
    expect(book.targetUrlPatterns).toEqual(expect.arrayContaining(['*://*/*.epub', '*://*/*.fb2', '*://*/*.fb2.zip', '*://*/*.fbz', '*://*/*.mobi', '*://*/*.azw3', '*://*/*.epub?*']));
    expect(book.targetUrlPatterns).not.toContain('<all_urls>');
  });

  it('"Read selection" reads the selection in the clicked tab', () => {
    menus.click({ menuItemId: 'read-selection', selectionText: 'Некий текст.' }, TAB);
    expect(start).toHaveBeenCalledOnce();
    expect(start.mock.calls[0]![0]).toMatchObject({ tabId: TAB.id, source: 'selection' });
  });

  it('"Read from here" reads the article in the clicked tab', () => {
    menus.click({ menuItemId: 'read-from-here' }, TAB);
    expect(start.mock.calls[0]![0]).toMatchObject({ tabId: TAB.id, source: 'article' });
  });

  it.each([
    ['a link, with its text', { menuItemId: 'queue-add-link', linkUrl: 'https://example.org/next', linkText: 'Next one' }, ['https://example.org/next', 'Next one']],
    ['a link without text', { menuItemId: 'queue-add-link', linkUrl: 'https://example.org/next' }, ['https://example.org/next', '']],
    ['the page, with its title', { menuItemId: 'queue-add-page' }, [TAB.url, TAB.title]],
  ])('adds %s to the listening queue, and reads nothing', (_, info, added) => {
    menus.click(info, TAB);
    expect(addToQueue).toHaveBeenCalledExactlyOnceWith(...added);
    expect(start).not.toHaveBeenCalled();
  });

  it('a click outside a tab (no tab, or one without an id) does nothing', () => {
    menus.click({ menuItemId: 'read-selection', selectionText: 'x' });
    menus.click({ menuItemId: 'queue-add-page' }, { ...TAB, id: undefined });
    expect(start).not.toHaveBeenCalled();
    expect(addToQueue).not.toHaveBeenCalled();
  });

  it('once its signal aborts, the feature has left the browser: neither an install nor a click reaches it', async () => {
    feature.abort();
    expect(menus.onClicked.hasListeners()).toBe(false);
    await fakeBrowser.runtime.onInstalled.trigger({ reason: 'install' } as Browser.runtime.InstalledDetails);
    menus.click({ menuItemId: 'read-from-here' }, TAB);
    expect(menus.created).toEqual([]);
    expect(start).not.toHaveBeenCalled();
  });
});
