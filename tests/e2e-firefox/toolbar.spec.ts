/** The toolbar button in Firefox: the reading starts in the background at the click; the popup then shows it, started once. */
import { evaluate } from './firefox.ts';
import { type Ext, expect, state, test } from './fixtures.ts';

test('the toolbar click starts reading at once; the popup then shows that reading, started once', async ({ ext, service }) => {
  test.setTimeout(60_000);
  await ext.configure();
  const { tabId } = await ext.openTab('sample-article.html');
  const helper = await ext.extensionPage();
  const readingId = () =>
    evaluate(helper, async () => ((await (globalThis as unknown as Ext).browser.storage.session.get('reading-view'))['reading-view'] as { id?: string } | undefined)?.id ?? '');
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
