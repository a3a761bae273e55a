/**
 * The toolbar button starts the reading in the background, at the click (the popup's page load is off
 * the way to the first audio); the popup it opens shows that reading and does not start another.
 */
import type { Worker } from '@playwright/test';
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { hashOf } from '../../utils/storage/bounds.ts';
import { expect, type ExtensionHelpers, player, test } from './fixtures.ts';

test('the toolbar click starts reading at once (the page hears nothing of the scripts put in it); the popup then shows that reading, started once', async ({ ext, sw, service }) => {
  test.setTimeout(60_000);
  await ext.configure();
  const { page, tabId } = await ext.openTab('sample-article.html');
  await page.bringToFront();
  const readingId = async () => (await ext.readingView()).id ?? '';
  const before = await readingId();
  // What the page's own scripts would hear of the extension's scripts coming in: nothing.
  await page.evaluate(() => {
    const heard: string[] = ((globalThis as { heard?: string[] }).heard = []);
    addEventListener('message', (e) => heard.push(JSON.stringify(e.data)));
  });
  await sw.evaluate(async (tabId) => {
    const hook = (globalThis as { toolbarClick?: (tab: object) => void }).toolbarClick;
    if (!hook) throw new Error('toolbarClick is missing: run the tests on the test build (npx wxt build --mode test)');
    hook(await chrome.tabs.get(tabId));
  }, tabId);
  // No popup page is needed for the reading to start and be heard; the popup opens too, over the page.
  await expect.poll(() => service.speechLog().length, { timeout: 30_000 }).toBeGreaterThan(0);
  await expect
    .poll(() => sw.evaluate(async () => (await chrome.runtime.getContexts({ contextTypes: [chrome.runtime.ContextType.POPUP] })).map((c) => (c.documentUrl ? new URL(c.documentUrl).pathname + new URL(c.documentUrl).search : '(loading)'))))
    .toEqual(['/popup.html?from=toolbar']);
  const id = await readingId();
  expect(id).not.toBe(before);
  // The popup the click opens (here: as a page) shows the same reading, and starts nothing of its own.
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', /playing|finished/, { timeout: 30_000 });
  expect(await readingId()).toBe(id);
  expect(await page.evaluate(() => (globalThis as { heard?: string[] }).heard)).toEqual([]);
  const texts = service.speechLog().map((e) => e.text);
  expect(new Set(texts).size).toBe(texts.length);
  // The button's popup was set for that click only: the next click comes to the background again.
  await expect.poll(() => sw.evaluate((tabId) => chrome.action.getPopup({ tabId }), tabId)).toBe('');
});

test('a toolbar click while a reading is active opens its popup and starts nothing new', async ({ ext, sw }) => {
  test.setTimeout(60_000);
  await ext.configure();
  const { tabId } = await ext.openTab('sample-article.html');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'playing', { timeout: 30_000 });
  const readingId = async () => (await ext.readingView()).id ?? '';
  const id = await readingId();
  await sw.evaluate(async (tabId) => (globalThis as unknown as { toolbarClick: (tab: object) => void }).toolbarClick(await chrome.tabs.get(tabId)), tabId);
  await expect.poll(() => sw.evaluate((tabId) => chrome.action.getPopup({ tabId }), tabId)).toBe('');
  expect(await readingId()).toBe(id);
  await expect(player(popup)).toHaveAttribute('data-state', /playing|finished/);
});

test("a toolbar click turned down (another reading under way) readies its page: once that reading is stopped, the popup's play button reads the page by asking the script already in it", async ({ ext, sw, service, pages }) => {
  test.setTimeout(90_000);
  await ext.configure({ threshold: '100000' });
  const click = (tabId: number) => sw.evaluate(async (tabId) => (globalThis as unknown as { toolbarClick: (tab: object) => void }).toolbarClick(await chrome.tabs.get(tabId)), tabId);
  const readingId = async () => (await ext.readingView()).id ?? '';
  pages.put('/first.html', makeArticleHtml(6_000, 'Первая статья'));
  const first = await ext.openTab('first.html');
  await click(first.tabId);
  await expect.poll(async () => (await ext.readingView()).state, { timeout: 30_000 }).toBe('playing');
  const id = await readingId();
  pages.put('/second.html', makeArticleHtml(700, 'Вторая статья'));
  const second = await ext.openTab('second.html');
  await click(second.tabId);
  // Nothing new starts; the script is put in the clicked page (the worker remembers it there).
  const injected = () => sw.evaluate(async () => (await chrome.storage.session.get('extract-injected'))['extract-injected'] as Record<string, string> | undefined);
  await expect.poll(async () => (await injected())?.[second.tabId]).toBe(hashOf(second.page.url()));
  expect(await readingId()).toBe(id);
  const popup = await ext.openPopup(second.tabId);
  await popup.getByTestId('stop').click();
  await expect(player(popup)).toHaveAttribute('data-state', /stopped|idle/);
  await sw.evaluate(() => void ((globalThis as { readingTrace?: unknown[] }).readingTrace = []));
  const sent = service.speechLog().length;
  await popup.getByTestId('play-pause').click();
  await expect(player(popup)).toHaveAttribute('data-state', /playing|finished/, { timeout: 30_000 });
  const labels = await sw.evaluate(() => ((globalThis as { readingTrace?: [string, number][] }).readingTrace ?? []).map(([label]) => label));
  // Asked at once (the tab looked up meanwhile), not injected again.
  expect(labels).toContain('extract:ask-early');
  expect(labels).toContain('extract:early-taken');
  expect(labels).not.toContain('extract:inject');
  // And it is that page that is read.
  expect(await readingId()).not.toBe(id);
  expect(service.speechLog()[sent]?.text).toContain('Вторая статья');
});

test("the toolbar's popup, opened once a short reading has ended, shows it and reads nothing again", async ({ ext, sw, service, context }) => {
  await ext.configure({ threshold: '1000' });
  const { tabId } = await ext.openTab('sample-article.html');
  const view = ext.readingView;
  // The reading runs to its end before the popup opens (as when the audio is short or the page refused).
  await sw.evaluate(async (tabId) => (globalThis as unknown as { toolbarClick: (tab: object) => void }).toolbarClick(await chrome.tabs.get(tabId)), tabId);
  await expect.poll(async () => (await view()).state, { timeout: 60_000 }).toBe('finished');
  const { id } = await view();
  const sent = service.speechLog().length;
  // The popup as the button opens it (the address it sets for the click).
  const popup = await context.newPage();
  await popup.goto(ext.url(`popup.html?from=toolbar&tabId=${tabId}`));
  await expect(popup.getByTestId('player')).toHaveAttribute('data-state', 'finished');
  // Its own start would have made a new reading (the state would leave "finished"): none is made, nothing more is sent.
  expect((await view()).id).toBe(id);
  expect(service.speechLog().length).toBe(sent);
});

/**
 * With the key saved, opens the sample article and clicks the toolbar for it (the popup's latest opening
 * set to `popupWaitMs`, else the product's), then watches from the worker every 5 ms the reading's state,
 * as the popup would read it, until the popup first exists.
 */
const clickAndWatch = async (ext: ExtensionHelpers, sw: Worker, popupWaitMs?: number) => {
  await ext.configure();
  const { page, tabId } = await ext.openTab('sample-article.html');
  await page.bringToFront();
  return sw.evaluate(
    async ([tabId, popupWaitMs]) => {
      (globalThis as unknown as { toolbarClick: (tab: object, wait?: number) => void }).toolbarClick(await chrome.tabs.get(tabId), popupWaitMs);
      const states: string[] = [];
      for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
        const [contexts, stored] = await Promise.all([chrome.runtime.getContexts({ contextTypes: [chrome.runtime.ContextType.POPUP] }), chrome.storage.session.get('reading-view')]);
        const state = (stored['reading-view'] as { state?: string } | undefined)?.state ?? '';
        if (states.at(-1) !== state) states.push(state);
        if (contexts.length > 0) return { opened: true, states };
        await new Promise((r) => setTimeout(r, 5));
      }
      return { opened: false, states };
    },
    [tabId, popupWaitMs] as const,
  );
};

test.describe('with a slow first byte', () => {
  test.use({ serviceOptions: { firstByteMs: 400 } });

  test("the toolbar's popup opens once the audio plays, not while the text is found or the first part asked for", async ({ ext, sw }) => {
    test.setTimeout(60_000);
    // The latest opening put far off: a busy machine can take over a second to reach the audio.
    const seen = await clickAndWatch(ext, sw, 20_000);
    expect(seen.opened).toBe(true);
    // It went through finding the text and asking for the first part with no popup, and the popup came with the audio.
    expect(seen.states).toEqual(expect.arrayContaining(['loading']));
    expect(seen.states.at(-1)).toBe('playing');
  });
});

test.describe('with a first byte that never comes in time', () => {
  test.use({ serviceOptions: { firstByteMs: 20_000 } });

  test("the toolbar's popup opens after a second all the same, showing the part being asked for", async ({ ext, sw }) => {
    test.setTimeout(60_000);
    // The product's own latest opening (a second): a click never goes unanswered while the service is slow.
    const seen = await clickAndWatch(ext, sw);
    expect(seen.opened).toBe(true);
    expect(seen.states.at(-1)).toBe('loading');
  });
});
