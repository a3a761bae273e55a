/**
 * What is sent is what the listener wants to hear: pronunciation rules, code blocks, bare URLs.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { billed } from '../fixtures/billed.ts';
import { recordedHighlights, recordHighlights } from '../fixtures/highlights.ts';
import { JUNK_CLEAN_TEXT } from '../fixtures/junk-clean-text.ts';
import { expect, type ExtensionHelpers, newReadingReaches, player, test } from './fixtures.ts';

const PAGE = `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>ИИ в работе</title></head><body><article>
<h1>ИИ в работе</h1>
<p>Системы ИИ пишут код каждый день, и линии поддержки тоже отвечают быстрее. Подробности есть на странице https://www.example.com/research/2026/report?utm=1 в открытом доступе. Запись — на https://www.госуслуги.рф/help/faq?from=1 до пятницы, шаблон www.*.com не подходит.</p>
<p>Вот как выглядит запуск проверки в терминале разработчика:</p>
<pre><code>npm ci
npm run test -- --reporter=dot</code></pre>
<p>После этого команда смотрит на результаты и решает, что делать дальше с этой системой.</p>
</article></body></html>`;

/** Presses Save and waits for "Saved": the background holds the new settings then (the account showed before). */
async function saveOptions(options: Page) {
  await options.getByTestId('save').click();
  await expect(options.locator('.ok')).toBeVisible();
}

/** Adds one pronunciation rule through the options page and saves it; the page stays open. */
async function addRule(ext: ExtensionHelpers, find: string, replace: string) {
  const options = await ext.openOptions();
  await expect(options.getByTestId('account')).toBeVisible();
  await options.getByTestId('pron-add').click();
  await options.getByTestId('pron-find').fill(find);
  await options.getByTestId('pron-replace').fill(replace);
  await saveOptions(options);
  await expect(options.getByTestId('account')).toBeVisible();
  return options;
}


test('a pronunciation rule changes what is sent; rules export to JSON and import back', async ({ ext, service, pages }) => {
  pages.put('/ai.html', PAGE);
  await ext.configure();
  const options = await addRule(ext, 'ИИ', 'искусственный интеллект');
  await expect(options.getByTestId('options-error')).toHaveAttribute('data-code', '');

  const { tabId } = await ext.openTab('ai.html');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 30_000 });
  const text = billed(service);
  expect(text).toContain('Системы искусственный интеллект пишут');
  expect(text).not.toMatch(/(^|[^А-Яа-яЁё])ИИ([^А-Яа-яЁё]|$)/);
  // A whole-word rule leaves "линии" alone.
  expect(text).toContain('линии поддержки');

  await options.reload();
  const [download] = await Promise.all([options.waitForEvent('download'), options.getByTestId('pron-export').click()]);
  const file = (await download.path())!;
  expect(JSON.parse(await readFile(file, 'utf8')).rules).toEqual([{ find: 'ИИ', replace: 'искусственный интеллект', wholeWord: true }]);
  await options.getByTestId('pron-remove').click();
  await expect(options.getByTestId('pron-rules')).toHaveAttribute('data-count', '0');
  await options.getByTestId('pron-import').setInputFiles(file);
  await expect(options.getByTestId('pron-rules')).toHaveAttribute('data-count', '1');
  await expect(options.getByTestId('pron-replace')).toHaveValue('искусственный интеллект');
});

test('code blocks are left out and a URL is said as its site, both counted as left out; the settings bring the code back', async ({ ext, service, pages }) => {
  pages.put('/ai.html', PAGE);
  await ext.configure();
  const { tabId } = await ext.openTab('ai.html');
  let popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 30_000 });
  let text = billed(service);
  expect(text).toContain('на странице example.com в открытом доступе');
  // A site is said as the page writes it, not as sent on the wire (punycode, Chromium's percent-escapes).
  expect(text).toContain('на госуслуги.рф до пятницы');
  expect(text).toContain('шаблон *.com не подходит');
  expect(text).not.toMatch(/xn--|%2A/i);
  expect(text).not.toContain('https');
  expect(text).not.toContain('npm');
  expect(text).toContain('После этого команда');
  expect(Number(await popup.getByTestId('saved').getAttribute('data-chars'))).toBeGreaterThan(60);

  const options = await ext.openOptions();
  await expect(options.getByTestId('account')).toBeVisible();
  await options.getByTestId('read-code').check();
  await options.getByTestId('urls').selectOption('out');
  await saveOptions(options);
  await expect(options.getByTestId('account')).toBeVisible();
  service.resetLog();
  await popup.close();
  // The page's last reading finished: the new one is waited for, not a state the popup may show first.
  const before = (await ext.readingView()).id;
  popup = await ext.openPopup(tabId);
  await newReadingReaches(ext, before);
  await expect(player(popup)).toHaveAttribute('data-state', 'finished');
  text = billed(service);
  expect(text).toContain('npm ci');
  expect(text).not.toContain('example.com');
});

test('the preview lists the blocks with their cost; a block switched off is not paid for', async ({ ext, service, pages }) => {
  pages.put(
    '/preview.html',
    `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Обзор</title></head><body><article><h1>Обзор</h1>
<p>Первый абзац статьи рассказывает, о чём пойдёт речь, и зачем это нужно читателю.</p>
<p>Рекламный абзац предлагает подписаться на рассылку и получить скидку на всё.</p>
<p>Последний абзац подводит итог и благодарит читателя за внимание к статье.</p></article></body></html>`,
  );
  await ext.configure();
  const options = await ext.openOptions();
  await expect(options.getByTestId('account')).toBeVisible();
  await options.getByTestId('preview-first').check();
  await saveOptions(options);
  await expect(options.getByTestId('account')).toBeVisible();

  const { tabId } = await ext.openTab('preview.html');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'confirm');
  await expect(popup.getByTestId('confirm-reason')).toHaveAttribute('data-reason', 'preview');
  const ad = popup.getByTestId('preview-block').filter({ hasText: 'Рекламный' });
  const adChars = Number(await ad.getAttribute('data-chars'));
  expect(adChars).toBeGreaterThan(50);
  const before = Number(await popup.getByTestId('estimate').getAttribute('data-chars'));
  await ad.getByTestId('preview-toggle').uncheck();
  await expect(ad).toHaveAttribute('data-on', 'false');
  await expect.poll(async () => Number(await popup.getByTestId('estimate').getAttribute('data-chars'))).toBeLessThanOrEqual(before - adChars);
  expect(service.speechLog()).toHaveLength(0);
  await popup.getByTestId('confirm-read').click();
  await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 30_000 });
  const text = billed(service);
  expect(text).not.toContain('Рекламный');
  expect(text).toContain('Последний абзац');
});

test.describe('the highlight', () => {
  // Sentences of one to three seconds: the highlight follows the player's progress reports, a few a second.
  test.use({ serviceOptions: { msPerChar: 22, minMs: 50, firstByteMs: 30 } });

  test('a sentence changed by a pronunciation rule or a shortened URL is still highlighted exactly', async ({ ext, pages }) => {
    pages.put(
      '/ai.html',
      `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Заметка</title></head><body><article>
<p>Вступление к заметке короткое. ИИ пишут код каждый день и отвечают быстро. Подробности есть на https://www.example.com/r/2026?utm=1 в открытом доступе. Конец заметки.</p>
</article></body></html>`,
    );
    await ext.configure();
    await addRule(ext, 'ИИ', 'искусственный интеллект');
    const { page, tabId } = await ext.openTab('ai.html');
    await page.evaluate(recordHighlights, 'article');
    const popup = await ext.openPopup(tabId);
    await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 30_000 });
    const texts = (await page.evaluate(recordedHighlights)).map((h) => h.text);
    expect(texts).toContain('ИИ пишут код каждый день и отвечают быстро.');
    expect(texts).toContain('Подробности есть на https://www.example.com/r/2026?utm=1 в открытом доступе.');
  });
});

test('a page full of junk: the billed text is exactly the clean text, and what was left out is counted', async ({ ext, service }) => {
  await ext.configure();
  const { tabId } = await ext.openTab('junk-cleanup.html');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 30_000 });
  expect(billed(service).replace(/\s+/g, ' ')).toBe(JUNK_CLEAN_TEXT);
  expect(Number(await popup.getByTestId('saved').getAttribute('data-chars'))).toBeGreaterThan(300);
});
