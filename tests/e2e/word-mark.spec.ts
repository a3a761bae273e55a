/**
 * The word being said is marked inside the sentence's band (issue 48), placed by the part's own audio: the
 * local service speaks with its timed voice (espeak-ng word by word, known pauses).
 */
import { FIRST_PARAGRAPH_WORDS, marksShown, markedSentences, pageWords, recordedWordMarks, recordWordMarks, stillStreaming, WORD_MARK_PAGE, WORD_MARK_SENTENCES, wordSamples } from '../fixtures/word-marks.ts';
import { expect, player, test } from './fixtures.ts';

test.use({ serviceOptions: { audio: 'timed' } });

/** Played at 2× (the listener's rate, as the popup sets it): the marks follow the same words in half the time. */
const twice = (sw: import('playwright-core').Worker) => sw.evaluate(() => chrome.storage.local.set({ playback: { rate: 2, volume: 1 } }));

test('the word mark moves through each sentence in order, never leaves it, and stops and goes on with playback', async ({ ext, sw, pages }) => {
  test.setTimeout(90_000);
  await ext.configure();
  await twice(sw);
  pages.put('/words.html', WORD_MARK_PAGE);
  const { page, tabId } = await ext.openTab('words.html');
  await page.evaluate(recordWordMarks);
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'playing', { timeout: 30_000 });
  await expect.poll(() => page.evaluate(recordedWordMarks).then((s) => s.length), { timeout: 20_000 }).toBeGreaterThanOrEqual(6);

  // Paused: the mark stays on its word while time passes (half a second of samples).
  await popup.getByTestId('play-pause').click();
  await expect(player(popup)).toHaveAttribute('data-state', 'paused');
  const atPause = (await page.evaluate(recordedWordMarks)).length;
  const from = await page.evaluate(wordSamples);
  await expect.poll(() => page.evaluate(wordSamples)).toBeGreaterThan(from + 25);
  expect((await page.evaluate(recordedWordMarks)).length).toBe(atPause);
  expect((await page.evaluate(marksShown)).word).toBe(1);

  // Played again: it goes on from there, to the end.
  await popup.getByTestId('play-pause').click();
  await expect.poll(() => page.evaluate(recordedWordMarks).then((s) => s.length)).toBeGreaterThan(atPause);
  await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 60_000 });

  const seen = await page.evaluate(recordedWordMarks);
  // Each sentence marked whole, in order; every word marked inside the sentence marked with it.
  expect(await page.evaluate(markedSentences)).toEqual(WORD_MARK_SENTENCES);
  expect(seen.filter((s) => !s.inside)).toEqual([]);
  expect(seen.filter((s) => s.order < 0)).toEqual([]);
  // The marks went through the article's words in order, missing few.
  const words = pageWords(WORD_MARK_PAGE);
  const marked = seen.map((s) => s.word);
  let at = 0;
  for (const w of marked) {
    const next = words.indexOf(w, at);
    expect(next, `«${w}» after word ${at} of the page`).toBeGreaterThanOrEqual(at);
    at = next + 1;
  }
  expect(marked.length).toBeGreaterThanOrEqual(Math.floor(words.length * 0.9));
});

test('with the word mark off in the options, the sentence is marked and no word', async ({ ext, sw, pages }) => {
  test.setTimeout(60_000);
  await ext.configure();
  await twice(sw);
  const options = await ext.openOptions();
  await options.getByTestId('word-mark-option').uncheck();
  await options.close();
  pages.put('/words.html', WORD_MARK_PAGE);
  const { page, tabId } = await ext.openTab('words.html');
  await page.evaluate(recordWordMarks);
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 60_000 });
  // Each sentence was marked whole as it was read (through inline markup, citation marks and a hidden word), and no word at any sample.
  expect(await page.evaluate(markedSentences)).toEqual(WORD_MARK_SENTENCES);
  expect(await page.evaluate(recordedWordMarks)).toEqual([]);
});

test.describe('a part whose audio still streams', () => {
  // The service sends each part's audio over its length ÷ 1.25, as a synthesizer does; played at 1×.
  test.use({ serviceOptions: { audio: 'timed', realtimeFactor: 1.25 } });

  test('its words are marked as it plays, before its audio is whole', async ({ ext, pages, service }) => {
    test.setTimeout(60_000);
    await ext.configure();
    pages.put('/words.html', WORD_MARK_PAGE);
    const { page, tabId } = await ext.openTab('words.html');
    await page.evaluate(recordWordMarks);
    await ext.openPopup(tabId);
    await expect.poll(() => page.evaluate(recordedWordMarks).then((s) => s.some((m) => FIRST_PARAGRAPH_WORDS.includes(m.word))), { timeout: 30_000 }).toBe(true);
    // A word of the first paragraph marked while the service still sends that paragraph's audio.
    expect(stillStreaming(service.speechLog(), 'Утром')).toBe(true);
  });
});
