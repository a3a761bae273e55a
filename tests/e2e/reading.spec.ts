import { formatRubPlain } from '../../utils/money/money.ts';
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { recordedHighlights, recordHighlights } from '../fixtures/highlights.ts';
import { selectContents } from '../fixtures/select.ts';
import { settled } from '../fixtures/settled.ts';
import type { Worker } from 'playwright-core';
import { drawnStates, expect, player, test } from './fixtures.ts';

/** Short tones keep a long article's playback to a few seconds of real time. */
test.use({ serviceOptions: { msPerChar: 0.35, minMs: 200, firstByteMs: 30 } });

const speech = (service: { speechLog(): Array<{ status: number; text: string }> }) =>
  service.speechLog().filter((e) => e.status === 200);

const sumCost = (entries: Array<{ costUnits: number | bigint }>) =>
  entries.reduce((n, e) => n + BigInt(e.costUnits), 0n);

const plain = formatRubPlain;

/** Starts a reading of the tab from the shortcut's handler; the worker's marks (test builds) of its steps until the handler returned. */
const shortcutTrace = (sw: Worker, tabId: number) =>
  sw.evaluate(async (tabId) => {
    const g = globalThis as unknown as { readingTrace?: [string, number][]; commandHandler: (c: string, t: object) => Promise<void> };
    g.readingTrace = [];
    await g.commandHandler('read', await chrome.tabs.get(tabId));
    return g.readingTrace.map(([label]) => label);
  }, tabId);

test('a 15,000-character Russian article reads to the end: every sentence requested once, in order, cost exact', async ({
  ext,
  service,
  pages,
}) => {
  await ext.configure();
  pages.put('/long.html', makeArticleHtml(15_000));
  const { tabId } = await ext.openTab('long.html');
  const popup = await ext.openPopup(tabId);
  const p = player(popup);

  // ~22 ₽ estimated at 1500 ₽ per million: above the 10 ₽ threshold, so nothing is sent before confirming.
  await expect(p).toHaveAttribute('data-state', 'confirm');
  const estimate = popup.getByTestId('estimate');
  const chars = Number(await estimate.getAttribute('data-chars'));
  expect(chars).toBeGreaterThan(15_000);
  await expect(estimate).toHaveAttribute('data-value', plain((BigInt(chars) * 15_000_000n + 500_000n) / 1_000_000n));
  expect(service.speechLog()).toHaveLength(0);

  await popup.getByTestId('confirm-read').click();
  await expect(p).toHaveAttribute('data-state', 'playing');
  await expect(p).toHaveAttribute('data-state', 'finished', { timeout: 60_000 });

  const done = speech(service);
  const parts = Number(await p.getAttribute('data-parts'));
  expect(done).toHaveLength(parts);
  expect(parts).toBeGreaterThanOrEqual(8);
  // Requested once each, in order: the texts joined are the article's text, nothing twice.
  const requested = done.map((e) => e.text).join(' ').replace(/\s+/g, ' ');
  const expectedText = await (await ext.openTab('long.html')).page.evaluate(() =>
    [...document.querySelectorAll('article h1, article h2, article p')].map((e) => e.textContent!.trim()).join(' '),
  );
  expect(requested.replace(/(Глава \d+|Длинная статья)\./g, '$1')).toBe(expectedText.replace(/\s+/g, ' '));
  expect(new Set(done.map((e) => e.text)).size).toBe(done.length);
  // The first part is short, for fast first audio; later ones stay within about 2,000 characters.
  expect([...done[0]!.text].length).toBeLessThanOrEqual(200);
  for (const e of done) expect([...e.text].length).toBeLessThanOrEqual(2000);

  const billed = done.reduce((n, e) => n + (e as unknown as { billedChars: number }).billedChars, 0);
  await expect(popup.getByTestId('chars')).toHaveAttribute('data-value', String(billed));
  await expect(popup.getByTestId('cost')).toHaveAttribute('data-value', plain(sumCost(done as never)));
  await expect(popup.getByTestId('balance')).toHaveAttribute('data-value', service.account('vk_live_test_key').balanceRub);
  expect(Number(await p.getAttribute('data-position'))).toBeGreaterThan(4);
  expect(service.maxInFlightSeen).toBeLessThanOrEqual(2);
});

test('the article is read without navigation, ads, sidebar, comments or footer; headings as sentences', async ({
  ext,
  service,
}) => {
  await ext.configure();
  const { tabId } = await ext.openTab('sample-article.html');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 60_000 });
  const all = speech(service).map((e) => e.text).join('\n');
  expect(all).toContain('Синтез речи давно перестал быть забавой');
  expect(all).toContain('Интонация и паузы.');
  expect(all).toContain('A few words in English.');
  for (const junk of ['Реклама', 'Популярное', 'Комментарии', 'Пользователь 1', 'Все права защищены', 'Войти']) {
    expect(all).not.toContain(junk);
  }
  // Context is sent and never billed; an empty voice setting leaves the field out.
  const second = service.speechLog()[1]!;
  expect(second.previousText.length).toBeGreaterThan(0);
  expect(second.billedChars).toBe([...second.text].length);
  expect(second.body).not.toHaveProperty('voice');
  expect(second.body).toMatchObject({ stream: true, format: 'mp3' });
});

test('playback starts on the first bytes, before the first part has finished arriving', async ({ ext, service, pages }) => {
  // The first part's audio trickles in, slower than it plays: a first part (the title) of ~130 characters
  // takes many seconds to arrive (a short one arrived whole in the ~2 s Chromium waits for enough data).
  service.configure({ msPerChar: 40, chunkBytes: 1024, chunkIntervalMs: 400 });
  await ext.configure({ threshold: '1000' });
  pages.put('/slow.html', makeArticleHtml(1_000, 'Медленная статья о том, как звук начинает играть раньше, чем приходит весь первый фрагмент, и почему это важно слушателю'));
  const { tabId } = await ext.openTab('slow.html');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'playing');
  const first = service.speechLog()[0]!;
  expect(first.endedAt).toBeNull(); // still streaming while we already play
  expect(service.speechLog().length).toBeLessThanOrEqual(2); // the first part and, alongside, the second
  await popup.getByTestId('stop').click();
});

test('words in scripts the service refuses are left out, and the popup says how many', async ({ ext, service, pages }) => {
  await ext.configure();
  pages.put(
    '/mixed.html',
    `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Смесь</title></head><body><article>
     <p>Слово Ἀθῆναι по-гречески значит Афины, а 東京 — это Токио. Café Müller остаётся на месте.</p>
     <p>Иврит שלום и арабский سلام сервис не читает, зато эмодзи 🎉 просто пропадут.</p></article></body></html>`,
  );
  const { tabId } = await ext.openTab('mixed.html');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'finished');
  await expect(popup.getByTestId('notice')).toHaveAttribute('data-code', 'skipped-words');
  await expect(popup.getByTestId('notice')).toHaveAttribute('data-count', '4');
  const sent = service.speechLog().map((e) => e.text).join(' ');
  expect(sent).toContain('Cafe Muller');
  expect(sent).not.toMatch(/[Ἀ-῾東京שלוםسلام🎉]/u);
  const estimate = Number(await popup.getByTestId('estimate').getAttribute('data-chars'));
  expect(estimate).toBe(service.speechLog().reduce((n, e) => n + e.billedChars, 0));
});

test('if Chrome has closed the offscreen document, the next reading opens it again', async ({ ext, service, sw }) => {
  await ext.configure();
  const { tabId } = await ext.openTab('sample-article.html');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'finished');
  await sw.evaluate(() => chrome.offscreen.closeDocument());
  expect(await sw.evaluate(async () => (await chrome.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT' as chrome.runtime.ContextType] })).length)).toBe(0);
  const before = service.speechLog().length;
  const again = await ext.openPopup(tabId);
  await expect(player(again)).toHaveAttribute('data-state', 'playing');
  await expect(player(again)).toHaveAttribute('data-state', 'finished');
  // Read again from the cache: the same text is never requested or billed twice.
  expect(service.speechLog().length).toBe(before);
});

test("a popup opened over a reading that is over shows the new reading it starts from its first frame, never the last one's end", async ({ ext, service }) => {
  await ext.configure();
  const { tabId } = await ext.openTab('sample-article.html');
  const first = await ext.openPopup(tabId);
  await expect(player(first)).toHaveAttribute('data-state', 'finished');
  await first.close();
  const again = await ext.openPopup(tabId);
  // The article again, from the audio cache: played to its end.
  await expect.poll(() => drawnStates(again)).toEqual(expect.arrayContaining(['playing', 'finished']));
  const states = await drawnStates(again);
  // Drawn as the new reading at once (not `idle`, nor the last reading's `finished`), then as it goes.
  expect(states[0], states.join(' → ')).toBe('extracting');
  expect(states.indexOf('finished')).toBeGreaterThan(states.indexOf('playing'));
  expect(states.filter((s) => s === 'finished')).toHaveLength(1);
  expect(speech(service).length).toBeGreaterThan(0);
});

test.describe('with a first byte that never comes in time', () => {
  test.use({ serviceOptions: { firstByteMs: 20_000 } });

  test("a popup opened shows its name and that the reading starts as its page loads, without its bundle, which runs while the reading starts (at the latest a moment after it began)", async ({ context, ext }) => {
    await ext.configure();
    const { tabId } = await ext.openTab('sample-article.html');
    const popup = await context.newPage();
    // Before the page's own scripts: what its first frame says once it has loaded.
    await popup.addInitScript(() => addEventListener('load', () => ((globalThis as unknown as { opening: string }).opening = document.getElementById('app')?.textContent ?? '')));
    await popup.goto(ext.url(`popup.html?tabId=${tabId}`));
    await expect(player(popup)).toHaveAttribute('data-state', 'loading');
    const seen = await popup.evaluate(() => ({
      opening: (globalThis as unknown as { opening: string }).opening,
      ranAt: (globalThis as unknown as { bundleRanAt: number }).bundleRanAt,
      loadedAt: performance.timeOrigin + (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd,
    }));
    expect(seen.opening).toBe('trySasha ReaderStarting…');
    // The bundle's fetch, compile and drawing were not part of the page's load (which the reading's start shares the cores with).
    expect(seen.ranAt).toBeGreaterThan(seen.loadedAt);
    await expect(popup.getByTestId('stop')).toBeEnabled();
  });
});

test('the popup reads the selection when there is one, and closing it never stops the reading', async ({ ext, service }) => {
  service.configure({ msPerChar: 10 }); // about 2.5 s: still playing when the popup closes
  await ext.configure();
  const { page, tabId } = await ext.openTab('sample-article.html');
  await page.evaluate(selectContents, '#p3');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'playing');
  await popup.close();

  const again = await ext.openPopup(tabId);
  await expect(player(again)).toHaveAttribute('data-state', 'finished');
  const texts = speech(service).map((e) => e.text).join(' ');
  expect(texts).toContain('Затем система решает');
  expect(texts).not.toContain('Синтез речи давно');
  expect(service.speechLog().length).toBe(speech(service).length); // nothing failed, nothing requested twice
  expect(new Set(speech(service).map((e) => e.text)).size).toBe(speech(service).length);
});

test('pause holds the position, resume continues, stop leaves at most the next part paid for', async ({ ext, service, pages }) => {
  service.configure({ msPerChar: 3 });
  await ext.configure({ threshold: '1000' });
  pages.put('/long.html', makeArticleHtml(12_000));
  const { tabId } = await ext.openTab('long.html');
  const popup = await ext.openPopup(tabId);
  const p = player(popup);
  await expect(p).toHaveAttribute('data-state', 'playing');
  await expect.poll(async () => Number(await p.getAttribute('data-position'))).toBeGreaterThan(0.5);

  await popup.getByTestId('play-pause').click();
  await expect(p).toHaveAttribute('data-state', 'paused');
  // While paused the position settles (a report already on its way may land) and then stays.
  // A player that kept playing would never pass this.
  const held = await settled(async () => (await p.getAttribute('data-position'))!);

  await popup.getByTestId('play-pause').click();
  await expect(p).toHaveAttribute('data-state', 'playing');
  await expect.poll(async () => Number(await p.getAttribute('data-position'))).toBeGreaterThan(Number(held) + 0.3);

  await popup.getByTestId('stop').click();
  await expect(p).toHaveAttribute('data-state', 'stopped');
  const playingPart = Number(await p.getAttribute('data-part'));
  const billed = service.speechLog().filter((e) => e.billedChars > 0).length;
  expect(billed).toBeLessThanOrEqual(playingPart + 2);
  // A part under way is paid for: it arrives into the cache (not cut off), and nothing more is asked for.
  await expect.poll(() => service.inFlight('vk_live_test_key')).toBe(0);
  expect(service.speechLog().filter((e) => e.aborted)).toEqual([]);
  expect(service.speechLog().filter((e) => e.billedChars > 0)).toHaveLength(billed);
});

test('stop during the confirmation sends nothing', async ({ ext, service, pages }) => {
  await ext.configure({ threshold: '0.001' });
  pages.put('/short.html', makeArticleHtml(1_500));
  const { tabId } = await ext.openTab('short.html');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'confirm');
  await expect(popup.getByTestId('balance')).toHaveAttribute('data-value', '100.0000');
  await popup.getByTestId('stop').click();
  await expect(player(popup)).toHaveAttribute('data-state', 'stopped');
  expect(service.speechLog()).toHaveLength(0);
});

test('starting a new reading stops the old one', async ({ ext, service, pages }) => {
  service.configure({ msPerChar: 3 });
  await ext.configure({ threshold: '1000' });
  pages.put('/a.html', makeArticleHtml(6_000, 'Первая статья'));
  const { tabId } = await ext.openTab('a.html');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'playing');
  const { tabId: second } = await ext.openTab('sample-article.html');
  // The menu's handler, as Chrome would call it for a selection on the second tab.
  await ext.menuClick(second, 'Сколько это стоит');
  await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 30_000 });
  const last = service.speechLog().at(-1)!;
  expect(last.text).toContain('Сколько это стоит');
  expect(service.speechLog().filter((e) => e.text.includes('Первая статья')).length).toBeLessThanOrEqual(1);
});

test("a page's first reading sends its title from what the small function read, before the script is in (no message after it); the next one asks the resident script; both read the same", async ({ ext, sw, service }) => {
  test.setTimeout(60_000);
  await ext.configure({ threshold: '1000' });
  const { page, tabId } = await ext.openTab('sample-article.html');
  await page.bringToFront();
  const view = ext.readingView;
  // The worker's marks of a reading's first steps (test builds), from the shortcut's start to its first part asked for.
  const readFromShortcut = async () => {
    const labels = await shortcutTrace(sw, tabId);
    await expect.poll(async () => (await view()).state, { timeout: 30_000 }).toMatch(/playing|finished/);
    return { labels, view: await view() };
  };
  const first = await readFromShortcut();
  // An article read title first (the threshold): the worker found the title from the page's facts; the
  // script, put in once the title plays, answered the same request, and the rest is its.
  expect(first.labels).toContain('extract:title-from-head');
  expect(first.labels).not.toContain('extract:with-injection');
  expect(first.labels).not.toContain('extract:ask');
  expect(first.labels).not.toContain('extract:ask-after');
  // The script came as a function with the request (its code put into the worker by the build), not as its file after one.
  const later = () => sw.evaluate(() => ((globalThis as unknown as { readingTrace?: [string, number][] }).readingTrace ?? []).map(([label]) => label));
  await expect.poll(later).toContain('extract:injected');
  expect(await later()).not.toContain('extract:not-built-in');
  expect(speech(service).length).toBeGreaterThan(0);
  await sw.evaluate(async (tabId) => {
    const g = globalThis as unknown as { commandHandler: (c: string, t: object) => Promise<void> };
    await g.commandHandler('stop', await chrome.tabs.get(tabId));
  }, tabId);
  await expect.poll(async () => (await view()).state).toMatch(/stopped|finished/);
  const second = await readFromShortcut();
  expect(second.labels).toContain('extract:ask');
  expect(second.labels).not.toContain('extract:inject');
  // The same text, in the same parts (what was received plays again from the cache, unpaid).
  expect(second.view.id).not.toBe(first.view.id);
  expect([second.view.estimateChars, second.view.parts]).toEqual([first.view.estimateChars, first.view.parts]);
  expect(first.view.estimateChars).toBeGreaterThan(1000);
});

test('an article read title first: its script goes into the page once the title plays, not while the first part is asked for', async ({ ext, sw, service, pages }) => {
  // The title's audio comes 3 s after its request: the script, put in beside it, would be in long before.
  service.configure({ firstByteMs: 3_000 });
  await ext.configure({ threshold: '1000' });
  pages.put('/title-then-script.html', makeArticleHtml(3_000, 'Статья о реке и мосте'));
  const { page, tabId } = await ext.openTab('title-then-script.html');
  await page.bringToFront();
  await shortcutTrace(sw, tabId);
  await expect.poll(async () => (await ext.readingView()).state, { timeout: 60_000 }).toBe('finished');
  const trace = await sw.evaluate(() => ((globalThis as unknown as { readingTrace: [string, number][] }).readingTrace).map(([label]) => label));
  // The title's answer came, then the script went in: after the title's part was answered, not beside its request.
  expect(trace.indexOf('response')).toBeGreaterThan(-1);
  expect(trace.indexOf('extract:injected')).toBeGreaterThan(trace.indexOf('response'));
  // And the rest was read from it, to the end.
  const read = speech(service).map((e) => e.text);
  expect(read[0]).toBe('Статья о реке и мосте.');
  expect(read.length).toBeGreaterThan(1);
  expect((await ext.readingView()).notice?.code).toBe('');
});

test("an article not read title first (its title too short to play alone) gets its whole text with the script's injection, no message after it", async ({ ext, sw, pages }) => {
  await ext.configure({ threshold: '1000' });
  pages.put('/short-title.html', makeArticleHtml(3_000, 'Итоги'));
  const { page, tabId } = await ext.openTab('short-title.html');
  await page.bringToFront();
  const labels = await shortcutTrace(sw, tabId);
  expect(labels).toContain('extract:with-injection');
  expect(labels).not.toContain('extract:title-from-head');
  expect(labels).not.toContain('extract:not-built-in');
  expect(labels).not.toContain('extract:ask-after');
  await expect.poll(async () => (await ext.readingView()).state, { timeout: 30_000 }).toMatch(/playing|finished/);
  expect((await ext.readingView()).estimateChars).toBeGreaterThan(2_500);
});

test("a selection on a page read for the first time is answered as the request is handed over, before the script is in: the same text, its first sentence highlighted", async ({ ext, sw, service }) => {
  // Sentences of one to two seconds, the first byte at once: the first highlight is asked for as soon as can be.
  service.configure({ msPerChar: 25, firstByteMs: 0 });
  await ext.configure({ threshold: '1000' });
  const { page, tabId } = await ext.openTab('sample-article.html');
  const selected = await page.evaluate(selectContents, '#p3');
  await page.evaluate(recordHighlights, '#p3');
  await sw.evaluate(() => void ((globalThis as { readingTrace?: unknown[] }).readingTrace = []));
  await ext.menuClick(tabId, selected);
  await expect.poll(() => page.evaluate(recordedHighlights).then((h) => h.length)).toBeGreaterThan(1);
  const labels = await sw.evaluate(() => ((globalThis as { readingTrace?: [string, number][] }).readingTrace ?? []).map(([label]) => label));
  expect(labels).toContain('extract:selection-handed');
  expect(labels).not.toContain('extract:ask-after');
  // What is read is the selection, as the script reads it.
  expect(speech(service).map((e) => e.text).join(' ')).toBe(selected.trim());
  const seen = await page.evaluate(recordedHighlights);
  expect(seen[0]).toEqual({ text: 'Затем система решает, где сделать паузу и какое слово выделить.', ok: true });
  expect(seen[1]!.text).toBe('Вопрос звучит иначе, чем утверждение, а перечисление — иначе, чем восклицание.');
});

test('an article that cannot cost more than the threshold is read title first (its part asked for while the page finds the rest), and the whole is read in the same parts as when counted first', async ({ ext, sw, service, pages }) => {
  test.setTimeout(60_000);
  await ext.configure({ threshold: '1000' });
  pages.put('/title-first.html', makeArticleHtml(6_000, 'Статья о реке и мосте'));
  const { page, tabId } = await ext.openTab('title-first.html');
  await page.bringToFront();
  const view = ext.readingView;
  const labels = await shortcutTrace(sw, tabId);
  expect(labels).toContain('extract:title-first');
  await expect.poll(async () => (await view()).state, { timeout: 30_000 }).toBe('finished');
  const read = speech(service);
  // The page answered with the title alone (its part asked for at once), then gave the rest.
  expect(read[0]!.text).toBe('Статья о реке и мосте.');
  const trace = await sw.evaluate(() => ((globalThis as unknown as { readingTrace: [string, number][] }).readingTrace).map(([label]) => label));
  expect(trace).toContain('extract:rest');
  const whole = await view();
  expect(whole.estimateChars).toBe(read.reduce((n, e) => n + [...e.text].length, 0));
  // Read again, counted whole first (a threshold it passes: it asks): every part is the same text, so
  // every one plays from the cache and nothing is sent again.
  await ext.configure({ threshold: '0.0001' });
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'confirm');
  await expect(popup.getByTestId('estimate')).toHaveAttribute('data-chars', String(whole.estimateChars));
  await popup.getByTestId('confirm-read').click();
  await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 30_000 });
  expect(speech(service)).toHaveLength(read.length);
});
