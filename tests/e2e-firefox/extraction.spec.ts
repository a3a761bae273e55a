import { tokens } from '../../utils/text/text-index.ts';
import { recordedHighlights, recordHighlights } from '../fixtures/highlights.ts';
import { attr, expect, state, test } from './fixtures.ts';
import { evaluate } from './firefox.ts';

// Sentences of one to two seconds: the highlight is followed from the player's progress reports, a few a second.
test.use({ serviceOptions: { msPerChar: 22, minMs: 50, firstByteMs: 30 } });

type Entry = { status: number; text: string };

test('an encyclopedia-shaped page: the article once and in order, without references, markers, drawing or hidden text; the highlight stays inside the article', async ({
  ext,
  service,
}) => {
  await ext.configure({ threshold: '1000' });
  const { page, tabId } = await ext.openTab('wiki-like.html');
  await evaluate(page, recordHighlights, '#content');
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup), { timeout: 60_000 }).toBe('finished');
  const billed = tokens((service.speechLog() as Entry[]).filter((e) => e.status === 200).map((e) => e.text).join(' ')).join(' ');
  expect(billed.startsWith(tokens('Синтез речи. Синтез речи — это получение звучащей речи').join(' '))).toBe(true);
  expect(billed).toContain(tokens('Сложность простого алгоритма растёт как 2n2 от длины входа').join(' '));
  expect(billed).toContain(tokens('Этот абзац написан без тега p').join(' '));
  for (const left of ['скрыт стилем', 'иванов', 'официальныи', 'править', 'модель голос']) expect(billed).not.toContain(left);
  expect(billed.endsWith(tokens('Первая строка адреса. Вторая строка адреса.').join(' '))).toBe(true);
  expect(Number(await attr(popup, 'saved', 'data-chars'))).toBeGreaterThan(150);
  const highlights = await evaluate(page, recordedHighlights);
  expect(highlights.length).toBeGreaterThan(5);
  expect(highlights.filter((h) => !h.ok)).toEqual([]);
  expect(highlights.map((h) => h.text)).toContain('Сложность простого алгоритма растёт как 2n2 от длины входа.');
});

test('a page with no word the service can read ends in no-text, and nothing is sent', async ({ ext, service }) => {
  await ext.configure();
  const { tabId } = await ext.openTab('cjk-only.html');
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup)).toBe('error');
  expect(await attr(popup, 'error', 'data-code')).toBe('no-text');
  expect(service.speechLog()).toHaveLength(0);
});
