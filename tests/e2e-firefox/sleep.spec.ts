/** The sleep timer in Firefox: it pauses once the time is up, and nothing past that point is requested. */
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { click, evaluate } from './firefox.ts';
import { attr, expect, state, test, type Ext } from './fixtures.ts';

type Entry = { status: number; arrivedAt: number };

test('the sleep timer pauses the reading; no part that would start after it is requested; resume carries on', async ({ ext, service, pages }) => {
  test.setTimeout(90_000);
  await ext.configure();
  const first = await ext.openTab('sample-article.html');
  let popup = await ext.openPopup(first.tabId);
  await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('finished');
  // The choices are 5 to 60 minutes; the test picks six seconds through the same control.
  await evaluate(popup, () => {
    const select = document.querySelector('[data-testid="sleep-timer"]') as HTMLSelectElement;
    select.add(new Option('6 s', '0.1'));
    select.value = '0.1';
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await expect.poll(() => attr(popup, 'sleep-left', 'data-at')).not.toBe('0');
  await popup.close();

  service.resetLog();
  pages.put('/long.html', makeArticleHtml(6_000));
  const long = await ext.openTab('long.html');
  popup = await ext.openPopup(long.tabId);
  await expect.poll(() => state(popup), { timeout: 45_000 }).toBe('paused');
  expect(await attr(popup, 'sleep-left', 'data-at')).toBe('0');
  const pausedPart = Number(await attr(popup, 'player', 'data-part'));
  const requested = (service.speechLog() as Entry[]).filter((e) => e.status === 200).length;
  expect(requested).toBe(pausedPart + 1);
  await click(popup, '[data-testid="play-pause"]');
  await expect.poll(() => state(popup)).toBe('playing');
  await expect.poll(() => service.speechLog().length, { timeout: 30_000 }).toBeGreaterThan(requested);
});

test.describe('the machine sleeps mid-reading (issue 58)', () => {
  test.use({ serviceOptions: { msPerChar: 6, minMs: 50 } });

  test('the wall clock jumps: playing goes on, paused stays paused, no burst of requests; the sleep timer counts the wall clock', async ({ ext, service, pages }) => {
    test.setTimeout(90_000);
    await ext.configure({ threshold: '1000' });
    pages.put('/long.html', makeArticleHtml(6_000));
    const { tabId } = await ext.openTab('long.html');
    const popup = await ext.openPopup(tabId);
    const position = async () => Number(await attr(popup, 'player', 'data-position'));
    await expect.poll(() => state(popup)).toBe('playing');
    const page = await ext.extensionPage();
    // What the background page sees of a machine that slept: the wall clock moved on, its timers did not.
    const sleepFor = (minutes: number) =>
      evaluate(
        page,
        async (ms: number) => {
          const bg = (await (globalThis as unknown as Ext).browser.runtime.getBackgroundPage()) as unknown as { Date: DateConstructor; realNow?: () => number; slept?: number };
          const real = (bg.realNow ??= bg.Date.now.bind(bg.Date));
          bg.slept = (bg.slept ?? 0) + ms;
          bg.Date.now = () => real() + bg.slept!;
        },
        minutes * 60_000,
      );

    await evaluate(popup, () => {
      const select = document.querySelector('[data-testid="sleep-timer"]') as HTMLSelectElement;
      select.value = '15';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await expect.poll(() => attr(popup, 'sleep-left', 'data-at')).not.toBe('0');
    await sleepFor(10);
    const at = await position();
    await expect.poll(position).toBeGreaterThan(at + 1);
    expect(await state(popup)).toBe('playing');
    await sleepFor(5);
    await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('paused');
    expect(await attr(popup, 'sleep-left', 'data-at')).toBe('0');

    await sleepFor(10);
    const again = await ext.openPopup(tabId);
    await expect.poll(() => state(again)).toBe('paused');
    const pausedAt = Number(await attr(again, 'player', 'data-position'));
    await click(again, '[data-testid="play-pause"]');
    await expect.poll(() => state(again)).toBe('playing');
    await expect.poll(async () => Number(await attr(again, 'player', 'data-position'))).toBeGreaterThan(pausedAt + 1);
    const ok = (service.speechLog() as Entry[]).filter((e) => e.status === 200).map((e) => (e as unknown as { text: string }).text);
    expect(new Set(ok).size).toBe(ok.length);
    expect(service.maxInFlightSeen).toBeLessThanOrEqual(2);
    expect(await attr(again, 'error', 'data-code')).toBe('');
  });
});
