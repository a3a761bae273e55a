import { tokens } from '../../utils/text/text-index.ts';
import { recordedHighlights, recordHighlights } from '../fixtures/highlights.ts';
import { expect, player, test } from './fixtures.ts';

// Sentences of about a second or more: the highlight is followed from the player's progress reports, a few a second.
test.use({ serviceOptions: { msPerChar: 18, minMs: 50 } });

const billedWords = (log: Array<{ status: number; text: string }>) => tokens(log.filter((e) => e.status === 200).map((e) => e.text).join(' '));

test('an encyclopedia-shaped page: every word of the article once and in order; references, edit links, markers, drawing and hidden text left out; the highlight stays on the sentence, inside the article', async ({
  ext,
  service,
}) => {
  // The title alone is the first part: 11 characters, 0.2 s of audio at 18 ms a character, which a loaded
  // machine could play before the highlight's first report arrived (seen once in a full run). A second of it.
  service.configure({ minMs: 1_000 });
  await ext.configure({ threshold: '1000' });
  const { page, tabId } = await ext.openTab('wiki-like.html');
  await page.evaluate(recordHighlights, '#content');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 60_000 });
  const expected = [
    'Синтез речи',
    'Синтез речи — это получение звучащей речи из письменного текста с помощью вычислительной машины. Сегодня им пользуются голосовые помощники, навигаторы и программы чтения с экрана, а качество голоса почти не отличается от человеческого.',
    'История',
    'Первые говорящие машины были механическими и появились ещё в восемнадцатом веке. Электронные синтезаторы двадцатого века звучали монотонно, зато впервые могли прочитать любой текст. Нейронные модели последних лет научились передавать интонацию и паузы.',
    'Замечание',
    'Этот абзац написан без тега p, прямо внутри блока после заголовка пятого уровня, и его тоже нужно прочитать целиком.',
    'Сложность простого алгоритма растёт как 2n2 от длины входа. Поэтому длинные тексты делят на части заранее.',
    'Список начинается с обычного текста без пункта.',
    'Первый пункт списка.',
    'Второй пункт списка.',
    'Таблица 1. Скорость синтеза.',
    'Модель',
    'Быстрая',
    'Первая строка адреса',
    'Вторая строка адреса.',
  ];
  expect(billedWords(service.speechLog())).toEqual(tokens(expected.join(' ')));
  // What was left out is said, with what it would have cost.
  expect(Number(await popup.getByTestId('saved').getAttribute('data-chars'))).toBeGreaterThan(150);
  await expect(popup.getByTestId('saved')).toHaveAttribute('data-value', /^\d+\.\d{4}$/);
  // The highlight: never outside the article or on a hidden copy of the title, and on the sentence with the formula.
  const highlights = await page.evaluate(recordedHighlights);
  expect(highlights.length).toBeGreaterThan(5);
  expect(highlights.filter((h) => !h.ok)).toEqual([]);
  expect(highlights.map((h) => h.text)).toContain('Сложность простого алгоритма растёт как 2n2 от длины входа.');
  expect(highlights.map((h) => h.text)).toContain('Синтез речи');
});

test('the setting "read references too" reads the notes and links sections', async ({ ext, service }) => {
  // No highlight is followed here: short audio, so the reading ends sooner.
  service.configure({ msPerChar: 2, minMs: 50 });
  const options = await ext.openOptions();
  await options.getByTestId('api-key').fill('vk_live_test_key');
  await options.getByTestId('base-url').fill(service.url);
  await options.getByTestId('confirm-threshold').fill('1000');
  await options.getByTestId('read-references').check();
  await options.getByTestId('save').click();
  await expect(options.getByTestId('account')).toBeVisible();
  const { tabId } = await ext.openTab('wiki-like.html');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 60_000 });
  const words = billedWords(service.speechLog()).join(' ');
  expect(words).toContain(tokens('Примечания. Иванов И. И. Машинная речь').join(' '));
  expect(words).toContain(tokens('Ссылки. Официальный сайт проекта').join(' '));
  // Citation markers and edit links are never read.
  expect(words).not.toContain('править');
});

test('an RFC-shaped page: wrapped lines read as sentences, the table of contents leaders left out', async ({ ext, service }) => {
  service.configure({ msPerChar: 2, minMs: 50 });
  await ext.configure({ threshold: '1000' });
  const { tabId } = await ext.openTab('rfc-like.html');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 60_000 });
  const sent = service.speechLog().map((e) => e.text).join(' ');
  expect(sent).not.toMatch(/(\.\s?){4,}/);
  expect(sent).toContain('This document describes a protocol by which a browser extension asks a speech service for audio, part after part, and plays it while it arrives.');
  expect(sent).toContain('A part is one request to the service.');
  expect(sent).not.toContain('Introduction . .');
});

test('a page with no word the service can read ends in no-text, and nothing is sent', async ({ ext, service }) => {
  await ext.configure();
  const { tabId } = await ext.openTab('cjk-only.html');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'error');
  await expect(popup.getByTestId('error')).toHaveAttribute('data-code', 'no-text');
  expect(service.speechLog()).toHaveLength(0);
});
