/**
 * The sleep timer: the listening stops at the end of a sentence once the time is up, and nothing past
 * that point is requested.
 */
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { expect, player, test } from './fixtures.ts';

test('the sleep timer pauses at the end of a sentence; no part that would start after it is requested; resume carries on', async ({ ext, service, pages }) => {
  test.setTimeout(90_000);
  await ext.configure();
  // A first reading, to the end; then the timer is set (it outlives a reading).
  const first = await ext.openTab('sample-article.html');
  let popup = await ext.openPopup(first.tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 30_000 });
  // The choices are 5 to 60 minutes; the test picks six seconds through the same control.
  await popup.getByTestId('sleep-timer').evaluate((select: HTMLSelectElement) => select.add(new Option('6 s', '0.1')));
  await popup.getByTestId('sleep-timer').selectOption('0.1');
  await expect(popup.getByTestId('sleep-left')).not.toHaveAttribute('data-at', '0');
  const sleepAt = Number(await popup.getByTestId('sleep-left').getAttribute('data-at'));
  await popup.close();

  service.resetLog();
  pages.put('/long.html', makeArticleHtml(6_000));
  const long = await ext.openTab('long.html');
  popup = await ext.openPopup(long.tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'paused', { timeout: 45_000 });
  await expect(popup.getByTestId('sleep-left')).toHaveAttribute('data-at', '0');
  const pausedPart = Number(await player(popup).getAttribute('data-part'));
  const position = Number(await player(popup).getAttribute('data-position'));
  // It played until the timer was up (and on to the sentence's end), not longer than a sentence past it.
  const playedUntil = (sleepAt - service.speechLog()[0]!.arrivedAt) / 1000;
  expect(position).toBeGreaterThan(playedUntil - 1.5);
  // Nothing past the point where it stopped: only the parts up to the one paused in were asked for.
  const requested = service.speechLog().filter((e) => e.status === 200).length;
  expect(requested).toBe(pausedPart + 1);

  await popup.getByTestId('play-pause').click();
  await expect(player(popup)).toHaveAttribute('data-state', 'playing');
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
    const p = player(popup);
    const position = async () => Number(await p.getAttribute('data-position'));
    await expect(p).toHaveAttribute('data-state', 'playing');
    const sw = await ext.serviceWorker();
    // What the background sees of a machine that slept: the wall clock moved on, its timers did not.
    const sleepFor = (minutes: number) =>
      sw.evaluate((ms) => {
        const g = globalThis as unknown as { realNow?: () => number; slept?: number };
        const real = (g.realNow ??= Date.now.bind(Date));
        g.slept = (g.slept ?? 0) + ms;
        Date.now = () => real() + g.slept!;
      }, minutes * 60_000);

    await popup.getByTestId('sleep-timer').selectOption('15');
    await expect(popup.getByTestId('sleep-left')).not.toHaveAttribute('data-at', '0');
    // Ten minutes asleep while playing: it plays on.
    await sleepFor(10);
    const at = await position();
    await expect.poll(position).toBeGreaterThan(at + 1);
    await expect(p).toHaveAttribute('data-state', 'playing');
    // Five more: the timer's fifteen minutes are up by the wall clock (its own delay would be 15 minutes off).
    await sleepFor(5);
    await expect(p).toHaveAttribute('data-state', 'paused', { timeout: 30_000 });
    await expect(popup.getByTestId('sleep-left')).toHaveAttribute('data-at', '0');

    // Ten minutes asleep while paused: still paused; ▶ carries on from there.
    await sleepFor(10);
    const again = await ext.openPopup(tabId);
    await expect(player(again)).toHaveAttribute('data-state', 'paused');
    const pausedAt = Number(await player(again).getAttribute('data-position'));
    await again.getByTestId('play-pause').click();
    await expect(player(again)).toHaveAttribute('data-state', 'playing');
    await expect.poll(async () => Number(await player(again).getAttribute('data-position'))).toBeGreaterThan(pausedAt + 1);
    const ok = service.speechLog().filter((e) => e.status === 200).map((e) => e.text);
    expect(new Set(ok).size).toBe(ok.length);
    expect(service.maxInFlightSeen).toBeLessThanOrEqual(2);
    await expect(again.getByTestId('error')).toHaveAttribute('data-code', '');
  });
});
