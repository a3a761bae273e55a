import { expect, menuItemExists, test } from './fixtures.ts';

test('the extension loads, its service worker runs and the options page opens', async ({ sw, ext, context }) => {
  expect(sw.url()).toMatch(/^chrome-extension:\/\/[a-p]{32}\/background\.js$/);
  const manifest = await sw.evaluate(() => chrome.runtime.getManifest());
  expect(manifest.permissions).toEqual(expect.arrayContaining(['activeTab', 'scripting', 'offscreen', 'storage', 'contextMenus']));
  expect(manifest.host_permissions).not.toContain('<all_urls>');
  expect(manifest.content_scripts ?? []).toHaveLength(0); // injected on demand only
  // Strict CSP: only the extension's own scripts run in its pages; no remote code.
  expect((manifest.content_security_policy as { extension_pages: string }).extension_pages).toBe("script-src 'self'; object-src 'self'");
  expect(manifest.externally_connectable).toBeUndefined();
  // The extract script carries V8's compile-all hint (put in after minifying, which drops comments):
  // a page that has the script compiles it as it is injected, not at the reading's start.
  const extractScript = await sw.evaluate(async () => (await fetch(chrome.runtime.getURL('/extract.js'))).text());
  expect(extractScript.startsWith('//# allFunctionsCalledOnLoad\n')).toBe(true);
  // The context menu items are made.
  await expect.poll(() => menuItemExists(sw, 'read-selection')).toBe(true);
  await expect.poll(() => menuItemExists(sw, 'read-from-here')).toBe(true);

  const options = await ext.openOptions();
  await expect(options.getByTestId('api-key')).toHaveAttribute('type', 'password');

  // The suite's own cost: Chromium runs none of the omnibox's web-page popups (a renderer and over a
  // second of CPU at each of the suite's launches; tests/e2e/chromium.ts turns them off).
  const cdp = await context.newCDPSession(options);
  const { targetInfos } = await cdp.send('Target.getTargets');
  expect(targetInfos.map((t) => t.url).filter((u) => u.startsWith('chrome://omnibox'))).toEqual([]);
});
