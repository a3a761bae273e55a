/** The toolbar button in Firefox: the reading starts in the background at the click; the popup then shows it, started once. */
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { evaluate } from './firefox.ts';
import { hashOf } from '../../utils/storage/bounds.ts';
import { type Ext, expect, state, test } from './fixtures.ts';

test('the toolbar click starts reading at once; the popup then shows that reading, started once', async ({ ext, service }) => {
  test.setTimeout(60_000);
  await ext.configure();
  const { tabId } = await ext.openTab('sample-article.html');
  const helper = await ext.extensionPage();
  const readingId = async () => (await ext.readingView()).id ?? '';
  const before = await readingId();
  await evaluate(
    helper,
    async (tabId: number) => {
      const { browser } = globalThis as unknown as Ext;
      const bg = (await browser.runtime.getBackgroundPage()) as unknown as { toolbarClick?: (tab: object) => void };
      if (!bg.toolbarClick) throw new Error('toolbarClick is missing: run the tests on the test build');
      bg.toolbarClick(await browser.tabs.get(tabId));
    },
    tabId,
  );
  await expect.poll(() => service.speechLog().length, { timeout: 30_000 }).toBeGreaterThan(0);
  const id = await readingId();
  expect(id).not.toBe(before);
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup), { timeout: 30_000 }).toMatch(/playing|finished/);
  expect(await readingId()).toBe(id);
  const texts = service.speechLog().map((e) => e.text);
  expect(new Set(texts).size).toBe(texts.length);
  type Action = { browserAction: { getPopup(details: { tabId: number }): Promise<string> } };
  await expect
    .poll(() => evaluate(helper, async (tabId: number) => ((globalThis as unknown as { browser: Action }).browser.browserAction.getPopup({ tabId })), tabId))
    .not.toMatch(/popup\.html/);
});

/**
 * Runs a keyboard command's handler in the background page for the tab, and returns the background's marks
 * of it (test builds): from the command's start to its first part asked for.
 */
const commandTrace = (helper: Parameters<typeof evaluate>[0], tabId: number, command: string) =>
  evaluate(
    helper,
    async ({ tabId, command }: { tabId: number; command: string }) => {
      const { browser } = globalThis as unknown as Ext;
      const bg = (await browser.runtime.getBackgroundPage()) as unknown as { readingTrace?: [string, number][]; commandHandler: (c: string, t: object) => Promise<void> };
      bg.readingTrace = [];
      await bg.commandHandler(command, await browser.tabs.get(tabId));
      return bg.readingTrace.map(([label]) => label);
    },
    { tabId, command },
  );

test("a page's first reading sends its title from what the small function read, before the script is in (no message after it); the next one asks the resident script; both read the same", async ({ ext }) => {
  test.setTimeout(60_000);
  await ext.configure({ threshold: '1000' });
  const { tabId } = await ext.openTab('sample-article.html');
  const helper = await ext.extensionPage();
  const view = ext.readingView;
  const run = (command: string) => commandTrace(helper, tabId, command);
  const readFromShortcut = async () => {
    const labels = await run('read');
    await expect.poll(async () => (await view()).state, { timeout: 30_000 }).toMatch(/playing|finished/);
    return { labels, view: await view() };
  };
  const first = await readFromShortcut();
  // An article read title first (the threshold): the background page found the title from the page's facts;
  // the script, put in once the title plays, answered the same request, and the rest is its.
  expect(first.labels).toContain('extract:title-from-head');
  expect(first.labels).not.toContain('extract:with-injection');
  expect(first.labels).not.toContain('extract:ask');
  // The script came as a function with the request (its code put into the worker by the build), not as its file after one.
  const later = () =>
    evaluate(helper, async () => {
      const bg = (await (globalThis as unknown as Ext).browser.runtime.getBackgroundPage()) as unknown as { readingTrace?: [string, number][] };
      return (bg.readingTrace ?? []).map(([label]) => label);
    });
  await expect.poll(later).toContain('extract:injected');
  expect(await later()).not.toContain('extract:not-built-in');
  await run('stop');
  await expect.poll(async () => (await view()).state).toMatch(/stopped|finished/);
  const second = await readFromShortcut();
  expect(second.labels).toContain('extract:ask');
  expect(second.labels).not.toContain('extract:inject');
  expect(second.view.id).not.toBe(first.view.id);
  expect([second.view.estimateChars, second.view.parts]).toEqual([first.view.estimateChars, first.view.parts]);
  expect(first.view.estimateChars).toBeGreaterThan(1000);
});

test("an article not read title first (its title too short to play alone) gets its whole text with the script's injection, no message after it", async ({ ext, pages }) => {
  test.setTimeout(60_000);
  await ext.configure({ threshold: '1000' });
  pages.put('/short-title.html', makeArticleHtml(3_000, 'Итоги'));
  const { tabId } = await ext.openTab('short-title.html');
  const labels = await commandTrace(await ext.extensionPage(), tabId, 'read');
  expect(labels).toContain('extract:with-injection');
  expect(labels).not.toContain('extract:title-from-head');
  expect(labels).not.toContain('extract:not-built-in');
  expect(labels).not.toContain('extract:ask-after');
  await expect.poll(async () => (await ext.readingView()).state, { timeout: 30_000 }).toMatch(/playing|finished/);
  expect((await ext.readingView()).estimateChars).toBeGreaterThan(2_500);
});

test("a reading after another has the last one's init segment in its player before its first bytes come, and plays to the end", async ({ ext, service, pages }) => {
  test.setTimeout(60_000);
  await ext.configure({ threshold: '100000' });
  // A real service's first byte: the player's MediaSource opens while it is awaited (the fake's 0 ms
  // could beat the opening under load, and the part's bytes would then come before any priming).
  service.configure({ firstByteMs: 100 });
  const helper = await ext.extensionPage();
  /** Reads the page from the shortcut to the end; the background's marks (test builds) of that reading. */
  const readToTheEnd = async (path: string) => {
    const { tabId } = await ext.openTab(path);
    const before = (await ext.readingView()).id;
    await evaluate(
      helper,
      async (tabId: number) => {
        const { browser } = globalThis as unknown as Ext;
        const bg = (await browser.runtime.getBackgroundPage()) as unknown as { readingTrace?: [string, number][]; commandHandler: (c: string, t: object) => Promise<void> };
        bg.readingTrace = [];
        await bg.commandHandler('read', await browser.tabs.get(tabId));
      },
      tabId,
    );
    await expect.poll(async () => { const v = await ext.readingView(); return v.id !== before && v.state; }, { timeout: 30_000 }).toBe('finished');
    return evaluate(helper, async () => {
      const { browser } = globalThis as unknown as Ext;
      const bg = (await browser.runtime.getBackgroundPage()) as unknown as { readingTrace?: [string, number][] };
      return (bg.readingTrace ?? []).map(([label]) => label);
    });
  };
  pages.put('/first.html', makeArticleHtml(700, 'Первая статья'));
  pages.put('/second.html', makeArticleHtml(700, 'Вторая статья'));
  await readToTheEnd('first.html');
  const requested = service.speechLog().length;
  const second = await readToTheEnd('second.html');
  // Its first part went to the service (a new title), and the player had the init segment in first.
  expect(service.speechLog().length).toBeGreaterThan(requested);
  expect(second).toContain('player:primed');
  expect(second.indexOf('player:primed')).toBeLessThan(second.indexOf('player:bytes'));
  // Its own init segment, the same bytes though wrapped seconds later, was not appended again.
  expect(second).toContain('player:init-left-out');
  expect(second).toContain('player:playing-event');
});

test("a toolbar click turned down (another reading under way) readies its page: once that reading is stopped, the popup's play button reads the page by asking the script already in it", async ({ ext, service, pages }) => {
  test.setTimeout(90_000);
  await ext.configure({ threshold: '100000' });
  const helper = await ext.extensionPage();
  const click = (tabId: number) =>
    evaluate(
      helper,
      async (tabId: number) => {
        const { browser } = globalThis as unknown as Ext;
        const bg = (await browser.runtime.getBackgroundPage()) as unknown as { toolbarClick: (tab: object) => void };
        bg.toolbarClick(await browser.tabs.get(tabId));
      },
      tabId,
    );
  const readingId = async () => (await ext.readingView()).id ?? '';
  pages.put('/first.html', makeArticleHtml(6_000, 'Первая статья'));
  const first = await ext.openTab('first.html');
  await click(first.tabId);
  await expect.poll(async () => (await ext.readingView()).state, { timeout: 30_000 }).toBe('playing');
  const id = await readingId();
  pages.put('/second.html', makeArticleHtml(700, 'Вторая статья'));
  const second = await ext.openTab('second.html');
  await click(second.tabId);
  // Nothing new starts; the script is put in the clicked page (the background remembers it there).
  const injected = () =>
    evaluate(helper, async () => {
      const saved = await (globalThis as unknown as Ext).browser.storage.session.get('extract-injected');
      return (saved['extract-injected'] ?? {}) as Record<string, string>;
    });
  await expect.poll(async () => (await injected())[second.tabId]).toBe(hashOf(`${pages.url}/second.html`));
  expect(await readingId()).toBe(id);
  const popup = await ext.openPopup(second.tabId);
  await popup.waitForSelector('[data-testid="stop"]');
  await popup.click('[data-testid="stop"]');
  await expect.poll(() => state(popup)).toMatch(/stopped|idle/);
  const trace = (clear: boolean) =>
    evaluate(
      helper,
      async (clear: boolean) => {
        const { browser } = globalThis as unknown as Ext;
        const bg = (await browser.runtime.getBackgroundPage()) as unknown as { readingTrace?: [string, number][] };
        const labels = (bg.readingTrace ?? []).map(([label]) => label);
        if (clear) bg.readingTrace = [];
        return labels;
      },
      clear,
    );
  await trace(true);
  const sent = service.speechLog().length;
  await popup.click('[data-testid="play-pause"]');
  await expect.poll(() => state(popup), { timeout: 30_000 }).toMatch(/playing|finished/);
  const labels = await trace(false);
  // Asked at once (the tab looked up meanwhile), not injected again.
  expect(labels).toContain('extract:ask-early');
  expect(labels).toContain('extract:early-taken');
  expect(labels).not.toContain('extract:inject');
  // And it is that page that is read.
  expect(await readingId()).not.toBe(id);
  expect(service.speechLog()[sent]?.text).toContain('Вторая статья');
});
