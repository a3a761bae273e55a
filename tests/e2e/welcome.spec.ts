/**
 * The first run (issue 47): the welcome page takes the key and checks it at once, shows the price and what the
 * sample costs before it is read, and "Try it" reads the bundled sample in a tab of its own; the popup without a
 * key sends the listener there.
 */
import { SAMPLES } from '../../utils/text/sample.ts';
import { costOf, formatRubPlain, parseRub } from '../../utils/money/money.ts';
import { billed, words } from '../fixtures/billed.ts';
import type { Page } from 'playwright-core';
import { expect, test, TEST_KEY } from './fixtures.ts';

const attr = (page: Page, id: string, name: string) => page.getByTestId(id).getAttribute(name).then((v) => v ?? '');
const fill = (page: Page, id: string, value: string) => page.getByTestId(id).fill(value);

test.use({ serviceOptions: { msPerChar: 1, minMs: 30 } });

test('the welcome page checks the key, shows what the sample costs, and "Try it" reads the sample in its own tab', async ({ ext, service, context }) => {
  // The service's address as a developer would set it (the key is the welcome page's to save): saved, then
  // refused for want of a key.
  await expect(ext.configure({ key: '' })).rejects.toThrow('no-key');
  const page = await context.newPage();
  await page.goto(ext.url('welcome.html'));
  await expect(page.getByTestId('try-sample')).toBeDisabled();
  await fill(page, 'welcome-key', 'vk_live_wrong');
  await page.getByTestId('welcome-save').click();
  await expect.poll(() => attr(page, 'options-error', 'data-code')).toBe('unauthorized');

  await fill(page, 'welcome-key', TEST_KEY);
  await page.getByTestId('welcome-save').click();
  await expect(page.getByTestId('account')).toHaveAttribute('data-price', '1500.0000');
  expect(await attr(page, 'options-error', 'data-code')).toBe('');
  // The sample's cost, shown before it is read: its characters at the account's price.
  const chars = Number(await attr(page, 'sample-cost', 'data-chars'));
  expect(chars).toBeGreaterThan(100);
  expect(await attr(page, 'sample-cost', 'data-value')).toBe(formatRubPlain(costOf(chars, parseRub('1500.0000')!)));

  const opened = context.waitForEvent('page');
  await page.getByTestId('try-sample').click();
  const sample = await opened;
  await expect(sample).toHaveURL(/\/sample\.html$/);
  await expect.poll(() => service.speechLog().filter((e) => (e as { status: number }).status === 200).length, { timeout: 20_000 }).toBeGreaterThan(0);
  const wanted = SAMPLES.en;
  await expect.poll(() => words(billed(service)).join(' '), { timeout: 20_000 }).toBe(words([wanted.title, ...wanted.paragraphs].join(' ')).join(' '));
});

test('the popup without a key says what to do, and nothing else, and opens the welcome page', async ({ ext, context, pages }) => {
  pages.put('/plain.html', '<!doctype html><title>Plain</title><article><h1>Plain</h1><p>Some words to read here.</p></article>');
  const { tabId } = await ext.openTab('/plain.html');
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => attr(popup, 'error', 'data-code')).toBe('no-key');
  // A first step, not a failure: one message and its button; no reading's figures or controls.
  await expect(popup.getByTestId('error')).toHaveText(/Add your trySasha API key/);
  await expect(popup.getByTestId('error').locator('p')).toHaveCount(1);
  for (const hidden of ['cost', 'balance', 'play-pause', 'speed', 'volume', 'save-mp3']) await expect(popup.getByTestId(hidden)).toBeHidden();
  const opened = context.waitForEvent('page');
  await popup.getByTestId('open-welcome').click();
  await expect(await opened).toHaveURL(/\/welcome\.html$/);
});
