/** What is sent is what the listener wants to hear (Firefox): a pronunciation rule, code blocks, bare URLs. */
import { JUNK_CLEAN_TEXT } from '../fixtures/junk-clean-text.ts';
import { billed } from '../fixtures/billed.ts';
import { click } from './firefox.ts';
import { attr, expect, fill, saveOptions, state, test } from './fixtures.ts';

test('a pronunciation rule changes what is sent; code blocks are left out and a URL is said as its site', async ({ ext, service, pages }) => {
  pages.put(
    '/ai.html',
    `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>ИИ в работе</title></head><body><article><h1>ИИ в работе</h1>
<p>Системы ИИ пишут код каждый день, и линии поддержки отвечают быстрее. Подробности на странице https://www.example.com/research/2026/report в открытом доступе. Запись — на https://www.госуслуги.рф/help/faq?from=1 до пятницы.</p>
<pre><code>npm ci
npm test</code></pre>
<p>После этого команда смотрит на результаты и решает, что делать дальше.</p></article></body></html>`,
  );
  await ext.configure();
  const options = await ext.openOptions();
  await expect.poll(() => attr(options, 'account', 'data-balance')).not.toBe('');
  await click(options, '[data-testid="pron-add"]');
  await fill(options, 'pron-find', 'ИИ');
  await fill(options, 'pron-replace', 'искусственный интеллект');
  await saveOptions(options);
  await expect.poll(() => attr(options, 'pron-rules', 'data-count')).toBe('1');
  await expect.poll(() => attr(options, 'account', 'data-balance')).not.toBe('');
  await options.close();
  const { tabId } = await ext.openTab('ai.html');
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('finished');
  const text = billed(service);
  expect(text).toContain('Системы искусственный интеллект пишут');
  expect(text).toContain('линии поддержки');
  expect(text).toContain('на странице example.com в открытом доступе');
  // Said as the page writes it, not as punycode.
  expect(text).toContain('на госуслуги.рф до пятницы');
  expect(text).not.toContain('xn--');
  expect(text).not.toContain('npm');
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
  await expect.poll(() => attr(options, 'account', 'data-balance')).not.toBe('');
  await click(options, '[data-testid="preview-first"]');
  await saveOptions(options);
  await expect.poll(() => attr(options, 'account', 'data-balance')).not.toBe('');
  await options.close();
  const { tabId } = await ext.openTab('preview.html');
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup)).toBe('confirm');
  expect(await attr(popup, 'confirm-reason', 'data-reason')).toBe('preview');
  const before = Number(await attr(popup, 'estimate', 'data-chars'));
  // The advertising paragraph is the third block (title, first paragraph, this one).
  await click(popup, '[data-testid="preview-block"]:nth-child(3) [data-testid="preview-toggle"]');
  await expect.poll(async () => Number(await attr(popup, 'estimate', 'data-chars'))).toBeLessThan(before - 50);
  expect(service.speechLog()).toHaveLength(0);
  await click(popup, '[data-testid="confirm-read"]');
  await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('finished');
  const text = billed(service);
  expect(text).not.toContain('Рекламный');
  expect(text).toContain('Последний абзац');
});

test('a page full of junk: the billed text is exactly the clean text, and what was left out is counted', async ({ ext, service }) => {
  await ext.configure();
  const { tabId } = await ext.openTab('junk-cleanup.html');
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('finished');
  const text = billed(service);
  expect(text.replace(/\s+/g, ' ')).toBe(JUNK_CLEAN_TEXT);
  expect(Number(await attr(popup, 'saved', 'data-chars'))).toBeGreaterThan(300);
});
