/**
 * What the screenshot scripts (`store-screenshots.ts`, `review-screenshots.ts`) share: the extension's pages
 * by path, a tab's id by its page, and a key of the local service saved through the options page.
 */
import type { BrowserContext, Page, Worker } from 'playwright-core';

export const KEY = 'vk_live_test_key';

/** The address of one of the extension's pages. */
export const extensionUrl = (sw: Worker, path: string) => `chrome-extension://${new URL(sw.url()).host}/${path}`;

/** The id of the tab showing `page` (found by its address, which each script keeps distinct). */
export const tabOf = (sw: Worker, page: Page) => sw.evaluate(async (u) => (await chrome.tabs.query({ url: u }))[0]?.id ?? -1, page.url());

/** The options page with the local service's address, its key and `threshold` saved, its account shown. */
export async function optionsWithKey(context: BrowserContext, sw: Worker, serviceUrl: string, threshold: string): Promise<Page> {
  const options = await context.newPage();
  await options.goto(extensionUrl(sw, 'options.html'));
  await options.getByTestId('base-url').fill(serviceUrl);
  await options.getByTestId('api-key').fill(KEY);
  await options.getByTestId('confirm-threshold').fill(threshold);
  await options.getByTestId('save').click();
  await options.getByTestId('account').waitFor();
  return options;
}
