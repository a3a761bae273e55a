/** Coming back to a page in Firefox offers to continue where the listener stopped, from the cache, unpaid. */
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { click } from './firefox.ts';
import { attr, expect, state, test } from './fixtures.ts';

type Entry = { status: number; text: string };

test('coming back to a page offers "continue from", which plays from the cache with no new charge', async ({ ext, service, pages }) => {
  test.setTimeout(90_000);
  await ext.configure();
  pages.put('/long.html', makeArticleHtml(6_000));
  const { tabId } = await ext.openTab('long.html');
  let popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('playing');
  await click(popup, '[data-testid="next"]');
  await expect.poll(async () => Number(await attr(popup, 'player', 'data-position')), { timeout: 30_000 }).toBeGreaterThan(6);
  await click(popup, '[data-testid="stop"]');
  await expect.poll(() => state(popup)).toBe('stopped');
  const stopPart = await attr(popup, 'player', 'data-part');
  await popup.close();
  const log = () => service.speechLog() as Entry[];
  const paid = new Set(log().filter((e) => e.status === 200).map((e) => e.text));
  const before = log().length;

  popup = await ext.openPopup(tabId);
  await expect.poll(() => attr(popup, 'resume-offer', 'data-part'), { timeout: 30_000 }).toBe(stopPart);
  await click(popup, '[data-testid="resume-offer"]');
  await expect.poll(() => attr(popup, 'player', 'data-part')).toBe(stopPart);
  await expect.poll(() => state(popup)).toBe('playing');
  expect(log().slice(before).filter((e) => paid.has(e.text))).toEqual([]);
});
