import { formatRubPlain } from '../../utils/money/money.ts';
import type { Page } from '@playwright/test';
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { settled } from '../fixtures/settled.ts';
import { paidTwice } from '../fixtures/paid-twice.ts';
import { expectShownAsBilled, readingMidStream, STREAMING_SERVICE } from './streaming.ts';
import { expect, player, test, TEST_KEY } from './fixtures.ts';

// Each test has its own browser, service and pages: they run on both workers, not one after another (the suite's longest file).
test.describe.configure({ mode: 'parallel' });

type Log = Array<{ status: number; text: string; billedChars: number }>;

const position = async (popup: Page) => Number(await player(popup).getAttribute('data-position'));
const okTexts = (log: Log) => log.filter((e) => e.status === 200).map((e) => e.text);

/** Every text the service answered was asked for once. */
function expectEachOnce(log: Log) {
  const texts = okTexts(log);
  expect(new Set(texts).size).toBe(texts.length);
}

test.describe('the service worker is stopped', () => {
  test.use({ serviceOptions: { msPerChar: 1.2, minMs: 50 } });

  test('mid-reading: the reading goes on to the end, nothing requested twice, the popup shows it all', async ({
    ext,
    service,
    pages,
  }) => {
    await ext.configure({ threshold: '1000' });
    pages.put('/long.html', makeArticleHtml(7_000));
    const { tabId } = await ext.openTab('long.html');
    const popup = await ext.openPopup(tabId);
    const p = player(popup);
    await expect.poll(async () => Number(await p.getAttribute('data-part'))).toBeGreaterThanOrEqual(1);
    const before = await position(popup);

    const costBefore = await popup.getByTestId('cost').getAttribute('data-value');
    // Stopped as Chrome stops a worker: idle, with no request in flight (a fetch under way keeps it
    // alive). Stopped by force mid-download, the part under way would be lost with the worker and asked
    // for again: likely what failed once in a full run under load (six answers for five parts; alone, and
    // beside a CPU hog, no request was in flight here in 9 runs, each part downloading in well under 0.1 s).
    await expect.poll(() => service.inFlight(TEST_KEY)).toBe(0);
    await ext.stopServiceWorker();

    // A popup opened now reconnects to the same reading: state, cost and position carry on.
    const again = await ext.openPopup(tabId);
    await expect(player(again)).toHaveAttribute('data-state', 'playing');
    expect(Number(await again.getByTestId('cost').getAttribute('data-value'))).toBeGreaterThanOrEqual(Number(costBefore));
    expect(await position(again)).toBeGreaterThanOrEqual(before);

    await expect(player(again)).toHaveAttribute('data-state', 'finished', { timeout: 40_000 });
    expectEachOnce(service.speechLog());
    expect(okTexts(service.speechLog())).toHaveLength(Number(await player(again).getAttribute('data-parts')));
    const billed = service.speechLog().reduce((n, e) => n + e.billedChars, 0);
    await expect(again.getByTestId('chars')).toHaveAttribute('data-value', String(billed));
    const cost = service.speechLog().reduce((n, e) => n + BigInt(e.costUnits), 0n);
    await expect(again.getByTestId('cost')).toHaveAttribute('data-value', formatRubPlain(cost));
  });

  test('during a long pause, with the offscreen document closed too: resume continues from the same second, unpaid', async ({
    ext,
    service,
    pages,
  }) => {
    await ext.configure({ threshold: '1000' });
    pages.put('/long.html', makeArticleHtml(5_000));
    const { tabId } = await ext.openTab('long.html');
    const popup = await ext.openPopup(tabId);
    const p = player(popup);
    await expect.poll(async () => Number(await p.getAttribute('data-part'))).toBeGreaterThanOrEqual(1);
    await expect.poll(() => position(popup)).toBeGreaterThan(1);
    await popup.getByTestId('play-pause').click();
    await expect(p).toHaveAttribute('data-state', 'paused');
    await settled(async () => `${await p.getAttribute('data-part')} ${await position(popup)}`);
    const heldPart = await p.getAttribute('data-part');
    const held = await position(popup);
    const requested = service.speechLog().length;

    // What Chrome does to a silent extension after ~30 s: both go.
    const sw = await ext.serviceWorker();
    await sw.evaluate(() => chrome.offscreen.closeDocument());
    await ext.stopServiceWorker();

    await popup.getByTestId('play-pause').click();
    await expect(p).toHaveAttribute('data-state', 'playing');
    await expect(p).toHaveAttribute('data-part', heldPart!);
    const resumedAt = await position(popup);
    expect(resumedAt).toBeGreaterThanOrEqual(held - 0.05);
    expect(resumedAt).toBeLessThan(held + 1.5);
    await expect(p).toHaveAttribute('data-state', 'finished', { timeout: 40_000 });
    // Parts fetched before the pause came from the cache.
    expectEachOnce(service.speechLog());
    expect(service.speechLog().length).toBeGreaterThanOrEqual(requested);
  });
});

test.describe('audio already paid for is never requested again', () => {
  test.use({ serviceOptions: { msPerChar: 1.5, minMs: 50 } });

  test('going back a part, and reading the same text again later, come from the cache', async ({ ext, service, pages }) => {
    await ext.configure({ threshold: '1000' });
    pages.put('/long.html', makeArticleHtml(5_000));
    const { tabId } = await ext.openTab('long.html');
    const popup = await ext.openPopup(tabId);
    const p = player(popup);
    await expect.poll(async () => Number(await p.getAttribute('data-part'))).toBeGreaterThanOrEqual(2);
    await popup.getByTestId('prev').click();
    await expect.poll(async () => Number(await p.getAttribute('data-part'))).toBeLessThanOrEqual(1);
    await expect(p).toHaveAttribute('data-state', 'playing');
    await expect(p).toHaveAttribute('data-state', 'finished', { timeout: 40_000 });
    expectEachOnce(service.speechLog());
    const count = service.speechLog().length;

    // Later, with a new service worker: the same page reads again at no cost.
    await ext.stopServiceWorker();
    const again = await ext.openPopup(tabId);
    await expect(player(again)).toHaveAttribute('data-state', 'playing');
    await again.getByTestId('stop').click();
    expect(service.speechLog()).toHaveLength(count);
    await expect(again.getByTestId('cost')).toHaveAttribute('data-value', '0.0000');
  });

  test('removing the key clears the cache', async ({ ext, service }) => {
    await ext.configure();
    const { tabId } = await ext.openTab('sample-article.html');
    await expect(player(await ext.openPopup(tabId))).toHaveAttribute('data-state', 'finished');
    const first = service.speechLog().length;
    const options = await ext.openOptions();
    await options.getByTestId('remove-key').click();
    await expect(options.getByTestId('key-mask')).toHaveCount(0);
    await ext.configure();
    const popup = await ext.openPopup(tabId);
    await expect.poll(() => service.speechLog().length).toBe(first * 2);
    await expect(player(popup)).toHaveAttribute('data-state', 'finished');
  });
});

test.describe('faults of the service', () => {
  test.use({ serviceOptions: { msPerChar: 1.5, minMs: 50 } });

  for (const kind of ['reset', 'stall'] as const) {
    test(`${kind === 'reset' ? 'a connection dropped' : 'a body that stalls'} mid-part: the rest is asked for from the cut sentence, and the reading finishes`, async ({
      ext,
      service,
      pages,
    }) => {
      test.setTimeout(90_000);
      await ext.configure({ threshold: '1000' });
      pages.put('/a.html', makeArticleHtml(4_500));
      // The third part (the second long one, after the reading has measured its speech rate):
      // about 2 s of its 3 s of audio arrive, then the fault.
      service.addFault({ match: { nth: 3 }, kind, afterBytes: 12_000 });
      const { tabId } = await ext.openTab('a.html');
      const popup = await ext.openPopup(tabId);
      await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 60_000 });
      const log = service.speechLog();
      const cut = log.find((e) => e.fault === kind);
      const rest = log.find((e) => e !== cut && e.status === 200 && cut!.text.endsWith(e.text) && e.text !== cut!.text);
      expect(cut!.aborted || kind === 'reset').toBe(true);
      // The retry is a tail of the cut part that starts at a sentence, shorter than the part.
      expect(cut!.text.endsWith(rest!.text)).toBe(true);
      expect(rest!.text.length).toBeLessThan(cut!.text.length);
      expect(rest!.text).toMatch(/^[А-ЯЁA-Z]/);
      await expect(popup.getByTestId('error')).toHaveAttribute('data-code', '');
      if (kind === 'stall') return;
      // The part made of the cut stream and its rest was kept like the others (before, it was bought again
      // whole whenever it was needed again: a player opened again, going back, the page read again).
      const count = log.length;
      await popup.close();
      const again = await ext.openPopup(tabId);
      await expect(player(again)).toHaveAttribute('data-state', 'playing');
      await expect(player(again)).toHaveAttribute('data-state', 'finished', { timeout: 60_000 });
      expect(service.speechLog()).toHaveLength(count);
      await expect(again.getByTestId('cost')).toHaveAttribute('data-value', '0.0000');
    });
  }

  test('429 without Retry-After and a burst of 5xx are retried within bounds; each part billed once', async ({ ext, service }) => {
    await ext.configure();
    service.addFault({ match: { nth: 1 }, kind: 'status', status: 429, code: 'concurrency_limit' });
    for (const nth of [2, 3, 4]) service.addFault({ match: { nth }, kind: 'status', status: 502, code: 'synthesis_failed' });
    const { tabId } = await ext.openTab('sample-article.html');
    const popup = await ext.openPopup(tabId);
    await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 40_000 });
    expectEachOnce(service.speechLog());
    expect(service.speechLog().filter((e) => e.status !== 200)).toHaveLength(4);
  });

  test('missing or malformed X-* headers: the cost is computed from the price, exactly', async ({ ext, service }) => {
    await ext.configure();
    service.addFault({ match: {}, times: Infinity, kind: 'headers', omit: ['X-Cost-Rub', 'X-Characters-Billed'], malformed: ['X-Balance-Rub'] });
    const { tabId } = await ext.openTab('sample-article.html');
    const popup = await ext.openPopup(tabId);
    await expect(player(popup)).toHaveAttribute('data-state', 'finished');
    const estimate = popup.getByTestId('estimate');
    await expect(popup.getByTestId('cost')).toHaveAttribute('data-value', (await estimate.getAttribute('data-value'))!);
    await expect(popup.getByTestId('chars')).toHaveAttribute('data-value', (await estimate.getAttribute('data-chars'))!);
    await expect(popup.getByTestId('balance')).toHaveAttribute('data-value', /^-?\d+\.\d{4}$/);
  });

  test('a 200 that claims audio/mpeg but carries JSON is never played', async ({ ext, service }) => {
    await ext.configure();
    service.addFault({ match: { nth: 1 }, kind: 'not-audio-200' });
    const { tabId } = await ext.openTab('sample-article.html');
    const popup = await ext.openPopup(tabId);
    await expect(player(popup)).toHaveAttribute('data-state', 'error');
    await expect(popup.getByTestId('error')).toHaveAttribute('data-code', 'bad-audio');
  });
});

test.describe('bad input', () => {
  test('an empty or whitespace selection from the menu: no-text, nothing sent', async ({ ext, service }) => {
    await ext.configure();
    const { tabId } = await ext.openTab('sample-article.html');
    await ext.menuClick(tabId, '  \n\t ');
    // No popup is open for a menu reading: the error is kept in the reading's state and shown on the icon.
    const sw = await ext.serviceWorker();
    const view = () =>
      sw.evaluate(async () => (await chrome.storage.session.get('reading-view'))['reading-view'] as { state: string; error: { code: string } | null });
    await expect.poll(async () => (await view()).error?.code).toBe('no-text');
    expect(await sw.evaluate(() => chrome.action.getBadgeText({}))).toBe('!');
    expect(service.speechLog()).toHaveLength(0);
  });

  test('a page of 1,000,000 characters: estimate and confirmation before anything is sent; the popup stays responsive', async ({
    ext,
    service,
    pages,
  }) => {
    test.setTimeout(90_000);
    await ext.configure();
    pages.put('/huge.html', makeArticleHtml(1_000_000, 'Огромная страница'));
    const { tabId } = await ext.openTab('huge.html');
    const popup = await ext.openPopup(tabId);
    const p = player(popup);
    await expect(p).toHaveAttribute('data-state', 'confirm', { timeout: 60_000 });
    expect(Number(await popup.getByTestId('estimate').getAttribute('data-chars'))).toBeGreaterThan(1_000_000);
    expect(Number(await p.getAttribute('data-parts'))).toBeGreaterThan(500);
    expect(service.speechLog()).toHaveLength(0);
    await popup.getByTestId('stop').click();
    await expect(p).toHaveAttribute('data-state', 'stopped');
    expect(service.speechLog()).toHaveLength(0);
  });
});

test.describe('the key never leaves the background', () => {
  test('neither a content script nor the web page can read it, and a content script cannot start a paid reading', async ({
    ext,
    service,
    sw,
  }) => {
    await ext.configure();
    const { page, tabId } = await ext.openTab('sample-article.html');
    const seen = await sw.evaluate(async (tabId) => {
      const [frame] = await chrome.scripting.executeScript({
        target: { tabId },
        func: async () => {
          // Chromium closes storage.local to content scripts (TRUSTED_CONTEXTS): the settings are out of reach.
          let local: unknown;
          try {
            local = await chrome.storage.local.get(null);
          } catch (err) {
            local = `refused: ${String(err)}`;
          }
          let session: unknown;
          try {
            session = await chrome.storage.session.get(null);
          } catch (err) {
            session = String(err);
          }
          // A content script asking the background to read: refused.
          let answer: unknown;
          try {
            answer = await chrome.runtime.sendMessage({ id: 1, type: 'startReading', data: { tabId: 0, force: true }, timestamp: Date.now() });
          } catch (err) {
            answer = String(err);
          }
          let settings: unknown;
          try {
            settings = await chrome.runtime.sendMessage({ id: 2, type: 'getSettings', timestamp: Date.now() });
          } catch (err) {
            settings = String(err);
          }
          return JSON.stringify({ local, session, answer, settings });
        },
      });
      return frame?.result as string;
    }, tabId);
    expect(seen).not.toContain('vk_live_test_key');
    expect(seen).toContain('refused');
    expect((JSON.parse(seen) as { local: unknown }).local).toMatch(/^refused/);
    expect(await page.evaluate(() => typeof (globalThis as { chrome?: { runtime?: { sendMessage?: unknown } } }).chrome?.runtime?.sendMessage)).toBe('undefined');
    expect(await page.content()).not.toContain('vk_live_test_key');
    expect(service.speechLog()).toHaveLength(0);
    const popup = await ext.openPopup(tabId);
    expect(await popup.content()).not.toContain('vk_live_test_key');
  });
});

test.describe('the service worker is stopped while a part streams (issue 58)', () => {
  test.use({ serviceOptions: STREAMING_SERVICE });

  test('the reading finishes; the part is asked for again from the cut sentence, never whole; the cost shown is what was billed', async ({ ext, service, pages }) => {
    test.setTimeout(90_000);
    const { tabId } = await readingMidStream(ext, service, pages, 4_000);
    // Stopped by force mid-download (Chrome may, and chrome://serviceworker-internals does): the answer is cut.
    await ext.stopServiceWorker();

    const again = await ext.openPopup(tabId);
    await expect(player(again)).toHaveAttribute('data-state', 'finished', { timeout: 60_000 });
    const twice = paidTwice(service.speechLog());
    expect(twice).toMatchObject({ receivedTwice: [], askedWholeAgain: [] });
    expect(twice.cut).toBeGreaterThan(0);
    await expectShownAsBilled(again, service);
  });
});

test.describe('Chrome closes the offscreen document mid-part (issue 58)', () => {
  test.use({ serviceOptions: STREAMING_SERVICE });

  test('closed while the part being heard still streams, well into it: that part is asked for again from the sentence being heard, not whole', async ({ ext, service, pages }) => {
    test.setTimeout(90_000);
    await ext.configure({ threshold: '1000' });
    // The third request (a long part, after the title and a part heard whole: the pace is measured) stops after
    // about 5 s of its audio and stays open: it is the part being heard when the document goes.
    service.addFault({ match: { nth: 3 }, kind: 'stall', afterBytes: 30_000, stallMs: 60_000 });
    pages.put('/long.html', makeArticleHtml(6_000));
    const { tabId } = await ext.openTab('long.html');
    const popup = await ext.openPopup(tabId);
    const p = player(popup);
    await expect(p).toHaveAttribute('data-part', '2', { timeout: 30_000 });
    const partStart = await position(popup);
    await expect.poll(() => position(popup)).toBeGreaterThan(partStart + 3.5);
    const stalled = service.speechLog().find((e) => e.nth === 3)!;
    expect(stalled.endedAt).toBeNull();
    const held = await position(popup);
    await (await ext.serviceWorker()).evaluate(() => chrome.offscreen.closeDocument());

    // Playing again, on from about where it was (the sentence being heard), with that part's rest asked for once.
    const again = () => service.speechLog().filter((e) => e !== stalled && e.status === 200 && stalled.text.endsWith(e.text));
    await expect.poll(() => again().length, { timeout: 30_000 }).toBe(1);
    expect(again()[0]!.text.length).toBeLessThan(stalled.text.length);
    expect(again()[0]!.text).toMatch(/^[А-ЯЁA-Z]/);
    await expect.poll(() => position(popup), { timeout: 30_000 }).toBeGreaterThan(held + 1);
    await expect(p).toHaveAttribute('data-part', '2');
    expect(paidTwice(service.speechLog()).receivedTwice).toEqual([]);
    await expect(popup.getByTestId('error')).toHaveAttribute('data-code', '');
  });

  test('it is opened again and the reading goes on from the same second to the end, nothing bought twice', async ({ ext, service, pages }) => {
    test.setTimeout(90_000);
    const { popup } = await readingMidStream(ext, service, pages, 4_000);
    const p = player(popup);
    await expect.poll(() => position(popup)).toBeGreaterThan(1);
    // Closed when nothing more is on its way to it (the part ahead all handed over): no command would find
    // out; the document's port closing tells the reader (before, the reading stood still, "playing"). And
    // by a worker started again meanwhile, which carries on with the player's reading without loading it.
    await expect.poll(() => service.inFlight(TEST_KEY), { timeout: 30_000 }).toBe(0);
    await ext.stopServiceWorker();
    await expect.poll(() => position(popup)).toBeGreaterThan((await position(popup)) + 0.5);
    const sw = await ext.serviceWorker();
    const held = await position(popup);
    // Under memory pressure Chrome may close it, sounding or not.
    await sw.evaluate(() => chrome.offscreen.closeDocument());

    // Every position seen from then to the end: never back (a reload from the part's start would go back).
    const seen: number[] = [];
    await expect
      .poll(async () => (seen.push(await position(popup)), await p.getAttribute('data-state')), { timeout: 60_000, intervals: [100] })
      .toBe('finished');
    expect(seen.every((at, i) => at >= held - 0.3 && (i === 0 || at >= seen[i - 1]! - 0.3))).toBe(true);
    expect(Math.max(...seen)).toBeGreaterThan(held + 0.5);
    const twice = paidTwice(service.speechLog());
    expect(twice).toMatchObject({ receivedTwice: [], askedWholeAgain: [], repaidChars: 0 });
    await expect(popup.getByTestId('error')).toHaveAttribute('data-code', '');
  });
});
