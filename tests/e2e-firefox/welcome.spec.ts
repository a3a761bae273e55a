/**
 * The first run in Firefox (issue 47): the welcome page takes the key and checks it at once, shows what the
 * sample costs before it is read, and "Try it" reads the bundled sample in a tab of its own; the popup without
 * a key sends the listener there.
 */
import { SAMPLES } from '../../utils/text/sample.ts';
import { costOf, formatRubPlain, parseRub } from '../../utils/money/money.ts';
import { billed, words } from '../fixtures/billed.ts';
import { attr, expect, fill, test, TEST_KEY, type Ext } from './fixtures.ts';
import { click, evaluate, openExtensionPage } from './firefox.ts';

test.use({ serviceOptions: { msPerChar: 1, minMs: 30 } });

test('the welcome page checks the key, shows what the sample costs, and "Try it" reads the sample in its own tab', async ({ ext, service, firefox }) => {
  // The service's address as a developer would set it (the key is the welcome page's to save): saved, then
  // refused for want of a key.
  await expect(ext.configure({ key: '' })).rejects.toThrow('no-key');
  const page = await openExtensionPage(firefox.browser, ext.url('welcome.html'));
  expect(await evaluate(page, () => (document.querySelector('[data-testid="try-sample"]') as HTMLButtonElement).disabled)).toBe(true);
  await fill(page, 'welcome-key', 'vk_live_wrong');
  await click(page, '[data-testid="welcome-save"]');
  await expect.poll(() => attr(page, 'options-error', 'data-code')).toBe('unauthorized');

  await fill(page, 'welcome-key', TEST_KEY);
  await click(page, '[data-testid="welcome-save"]');
  await expect.poll(() => attr(page, 'account', 'data-price')).toBe('1500.0000');
  expect(await attr(page, 'options-error', 'data-code')).toBe('');
  const chars = Number(await attr(page, 'sample-cost', 'data-chars'));
  expect(chars).toBeGreaterThan(100);
  expect(await attr(page, 'sample-cost', 'data-value')).toBe(formatRubPlain(costOf(chars, parseRub('1500.0000')!)));

  await click(page, '[data-testid="try-sample"]');
  const tabs = () => evaluate(page, async () => (await (globalThis as unknown as Ext).browser.tabs.query({})).map((t) => t.url ?? ''));
  await expect.poll(async () => (await tabs()).some((u) => u.endsWith('/sample.html'))).toBe(true);
  const wanted = SAMPLES.en;
  await expect.poll(async () => JSON.stringify(await ext.readingView()), { timeout: 20_000 }).toContain('"finished"');
  await expect.poll(() => words(billed(service)).join(' '), { timeout: 20_000 }).toBe(words([wanted.title, ...wanted.paragraphs].join(' ')).join(' '));
});

test('the popup without a key says what to do and opens the welcome page', async ({ ext, pages }) => {
  pages.put('/plain.html', '<!doctype html><title>Plain</title><article><h1>Plain</h1><p>Some words to read here.</p></article>');
  const { tabId } = await ext.openTab('/plain.html');
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => attr(popup, 'error', 'data-code')).toBe('no-key');
  const helper = await ext.extensionPage();
  await click(popup, '[data-testid="open-welcome"]');
  await expect
    .poll(async () => (await evaluate(helper, async () => (await (globalThis as unknown as Ext).browser.tabs.query({})).map((t) => t.url ?? ''))).some((u) => u.endsWith('/welcome.html')))
    .toBe(true);
});
