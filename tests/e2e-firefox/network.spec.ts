import { formatRubPlain } from '../../utils/money/money.ts';
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { paidTwice } from '../fixtures/paid-twice.ts';
import { untilAnswerUnderWay } from '../fixtures/under-way.ts';
import { attr, expect, state, test, type Ext } from './fixtures.ts';
import { click, evaluate } from './firefox.ts';

/**
 * The network gone for a while (issue 58), as `tests/e2e/network.spec.ts` in Chromium: a wait of the
 * reading, not an error. The test past the pause limit (10 minutes) shortens it to 8 s.
 */
test.describe.configure({ mode: 'parallel' });
// Synthesis at 3× real time: a part's audio is still arriving while it plays, as with the real service.
test.use({ serviceOptions: { msPerChar: 4, minMs: 50, realtimeFactor: 3 } });

test('the network gone for 20 s mid-part: the popup says it waits, the reading carries on by itself to the end; only the rest of the cut part is paid twice', async ({
  ext,
  service,
  pages,
}) => {
  test.setTimeout(120_000);
  await ext.configure({ threshold: '1000' });
  pages.put('/long.html', makeArticleHtml(4_000));
  const { tabId } = await ext.openTab('long.html');
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup)).toBe('playing');
  await untilAnswerUnderWay(service);
  service.outage({ seconds: 20 });

  await expect.poll(() => attr(popup, 'player', 'data-wait')).toBe('network');
  expect(await attr(popup, 'wait-note', 'role')).toBe('status');
  expect(await state(popup)).toMatch(/^(playing|loading)$/);
  await expect.poll(() => attr(popup, 'player', 'data-wait'), { timeout: 40_000 }).toBe('');
  await expect.poll(() => state(popup), { timeout: 60_000 }).toBe('finished');
  expect(await attr(popup, 'error', 'data-code')).toBe('');

  const log = service.speechLog();
  const twice = paidTwice(log);
  expect(twice).toMatchObject({ receivedTwice: [], askedWholeAgain: [] });
  expect(twice.cut).toBeGreaterThan(0);
  const cost = log.reduce((n, e) => n + BigInt(e.costUnits), 0n);
  expect(await attr(popup, 'cost', 'data-value')).toBe(formatRubPlain(cost));
  expect(await attr(popup, 'chars', 'data-value')).toBe(String(log.reduce((n, e) => n + e.billedChars, 0)));
});

test('the network gone past the pause limit: paused, not an error, nothing tried while paused; ▶ once it is back reads to the end', async ({ ext, service, pages }) => {
  test.setTimeout(120_000);
  await ext.configure({ threshold: '1000' });
  await evaluate(await ext.extensionPage(), async () => {
    const bg = (await (globalThis as unknown as Ext).browser.runtime.getBackgroundPage()) as unknown as { tuned: Record<string, number> };
    bg.tuned = { 'network-pause-ms': 8_000 };
  });
  pages.put('/long.html', makeArticleHtml(3_500));
  const { tabId } = await ext.openTab('long.html');
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup)).toBe('playing');
  await untilAnswerUnderWay(service);
  service.outage({ seconds: 20 });

  await expect.poll(() => attr(popup, 'player', 'data-wait')).toBe('network');
  await expect.poll(() => state(popup), { timeout: 40_000 }).toBe('paused');
  expect(await attr(popup, 'player', 'data-wait')).toBe('network');
  expect(await attr(popup, 'error', 'data-code')).toBe('');
  const triedWhenPaused = service.outageState().refused;

  await expect.poll(() => service.outageState().until <= Date.now(), { timeout: 30_000 }).toBe(true);
  expect(service.outageState().refused).toBe(triedWhenPaused);
  expect(await state(popup)).toBe('paused');

  await click(popup, '[data-testid="play-pause"]');
  await expect.poll(() => attr(popup, 'player', 'data-wait')).toBe('');
  await expect.poll(() => state(popup), { timeout: 60_000 }).toBe('finished');
  expect(paidTwice(service.speechLog())).toMatchObject({ receivedTwice: [], askedWholeAgain: [] });
});
