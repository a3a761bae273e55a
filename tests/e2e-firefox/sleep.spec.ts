/** The sleep timer in Firefox: it pauses once the time is up, and nothing past that point is requested. */
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { click, evaluate } from './firefox.ts';
import { attr, expect, state, test } from './fixtures.ts';

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
