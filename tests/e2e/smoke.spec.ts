import { expect, test } from './fixtures.ts';

test('the extension loads, its service worker runs and the options page opens', async ({ sw, ext }) => {
  expect(sw.url()).toMatch(/^chrome-extension:\/\/[a-p]{32}\/background\.js$/);
  const manifest = await sw.evaluate(() => chrome.runtime.getManifest());
  expect(manifest.permissions).toEqual(expect.arrayContaining(['activeTab', 'scripting', 'offscreen', 'storage', 'contextMenus']));
  expect(manifest.host_permissions).not.toContain('<all_urls>');
  expect(manifest.content_scripts ?? []).toHaveLength(0); // injected on demand only
  // The context menu item exists: updating it succeeds.
  await sw.evaluate(() => chrome.contextMenus.update('read-selection', {}));

  const options = await ext.openOptions();
  await expect(options.getByTestId('api-key')).toHaveAttribute('type', 'password');
});
