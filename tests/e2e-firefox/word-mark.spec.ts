/**
 * The word being said is marked inside the sentence's band (issue 48), in Firefox: the player in the
 * background page times each part's words from its audio. The local service speaks with its timed voice.
 */
import { FIRST_PARAGRAPH_WORDS, marksShown, markedSentences, pageWords, recordedWordMarks, recordWordMarks, stillStreaming, WORD_MARK_PAGE, WORD_MARK_SENTENCES, wordSamples } from '../fixtures/word-marks.ts';
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { evaluate } from './firefox.ts';
import { attr, type Ext, expect, state, test } from './fixtures.ts';

test.use({ serviceOptions: { audio: 'timed' } });

/** Played at 2× (the listener's rate, as the popup sets it): the marks follow the same words in half the time. */
const twice = async (ext: { extensionPage(): Promise<Parameters<typeof evaluate>[0]> }) =>
  evaluate(await ext.extensionPage(), () => (globalThis as unknown as Ext).browser.storage.local.set({ playback: { rate: 2, volume: 1 } }));

const press = (popup: Parameters<typeof state>[0], testId: string) =>
  evaluate(popup, (id) => (document.querySelector(`[data-testid="${id}"]`) as HTMLElement).click(), testId);

test('the word mark moves through each sentence in order, never leaves it, and stops and goes on with playback', async ({ ext, pages }) => {
  test.setTimeout(90_000);
  await ext.configure();
  await twice(ext);
  pages.put('/words.html', WORD_MARK_PAGE);
  const { page, tabId } = await ext.openTab('words.html');
  await evaluate(page, recordWordMarks);
  const popup = await ext.openPopup(tabId);
  // The page in front: Firefox runs a background tab's timers once a second, and the recorder samples every 20 ms.
  await page.bringToFront();
  await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('playing');
  await expect.poll(() => evaluate(page, recordedWordMarks).then((s) => s.length), { timeout: 20_000 }).toBeGreaterThanOrEqual(6);

  // Paused: the mark stays on its word while time passes (half a second of samples).
  await press(popup, 'play-pause');
  await expect.poll(() => state(popup)).toBe('paused');
  const atPause = (await evaluate(page, recordedWordMarks)).length;
  const from = await evaluate(page, wordSamples);
  await expect.poll(() => evaluate(page, wordSamples)).toBeGreaterThan(from + 25);
  expect((await evaluate(page, recordedWordMarks)).length).toBe(atPause);
  expect((await evaluate(page, marksShown)).word).toBe(1);

  // Played again: it goes on from there, to the end.
  await press(popup, 'play-pause');
  await expect.poll(() => evaluate(page, recordedWordMarks).then((s) => s.length)).toBeGreaterThan(atPause);
  await expect.poll(() => state(popup), { timeout: 60_000 }).toBe('finished');

  const seen = await evaluate(page, recordedWordMarks);
  // Each sentence marked whole, in order; every word marked inside the sentence marked with it.
  expect(await evaluate(page, markedSentences)).toEqual(WORD_MARK_SENTENCES);
  expect(seen.filter((s) => !s.inside)).toEqual([]);
  expect(seen.filter((s) => s.order < 0)).toEqual([]);
  const words = pageWords(WORD_MARK_PAGE);
  let at = 0;
  for (const { word } of seen) {
    const next = words.indexOf(word, at);
    expect(next, `«${word}» after word ${at} of the page`).toBeGreaterThanOrEqual(at);
    at = next + 1;
  }
  expect(seen.length).toBeGreaterThanOrEqual(Math.floor(words.length * 0.9));
  expect(await attr(popup, 'player', 'data-state')).toBe('finished');
});

test('with the word mark off, the sentence is marked and no word', async ({ ext, pages }) => {
  test.setTimeout(60_000);
  await ext.configure();
  const helper = await ext.extensionPage();
  await evaluate(helper, () => (globalThis as unknown as Ext).browser.storage.local.set({ 'page-options': { floatingPlayer: true, clickToRead: false, wordMark: false }, playback: { rate: 2, volume: 1 } }));
  pages.put('/words.html', WORD_MARK_PAGE);
  const { page, tabId } = await ext.openTab('words.html');
  await evaluate(page, recordWordMarks);
  const popup = await ext.openPopup(tabId);
  await page.bringToFront();
  await expect.poll(() => state(popup), { timeout: 60_000 }).toBe('finished');
  expect(await evaluate(page, markedSentences)).toEqual(WORD_MARK_SENTENCES);
  expect(await evaluate(page, recordedWordMarks)).toEqual([]);
});

test('the view follows the words down a tall page, and stays where the user scrolled it', async ({ ext, pages }) => {
  test.setTimeout(60_000);
  await ext.configure({ threshold: '1000' });
  await twice(ext);
  pages.put('/tall.html', makeArticleHtml(1_500, 'Высокая страница').replace('<body>', '<body style="font-size:60px;line-height:4">'));
  const { page, tabId } = await ext.openTab('tall.html');
  const popup = await ext.openPopup(tabId);
  await page.bringToFront();
  await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('playing');
  // Followed until the words are more than a window below the top.
  await expect.poll(() => evaluate(page, () => scrollY - innerHeight), { timeout: 30_000 }).toBeGreaterThan(0);
  // The user takes the page back to the top by its scrollbar: no wheel, no key, only the page moving.
  await evaluate(page, () => scrollTo({ top: 0, behavior: 'instant' }));
  const position = async () => Number(await attr(popup, 'player', 'data-position'));
  const left = await position();
  await expect.poll(position, { timeout: 30_000 }).toBeGreaterThan(left + 2);
  expect(await evaluate(page, () => scrollY < innerHeight / 4)).toBe(true);
});

test.describe('a part whose audio still streams', () => {
  // The service sends each part's audio over its length ÷ 1.25, as a synthesizer does; played at 1×.
  test.use({ serviceOptions: { audio: 'timed', realtimeFactor: 1.25 } });

  test('its words are marked as it plays, before its audio is whole', async ({ ext, pages, service }) => {
    test.setTimeout(60_000);
    await ext.configure();
    pages.put('/words.html', WORD_MARK_PAGE);
    const { page, tabId } = await ext.openTab('words.html');
    await evaluate(page, recordWordMarks);
    await ext.openPopup(tabId);
    await page.bringToFront();
    await expect.poll(() => evaluate(page, recordedWordMarks).then((s) => s.some((m) => FIRST_PARAGRAPH_WORDS.includes(m.word))), { timeout: 30_000 }).toBe(true);
    // A word of the first paragraph marked while the service still sends that paragraph's audio.
    expect(stillStreaming(service.speechLog(), 'Утром')).toBe(true);
  });
});
