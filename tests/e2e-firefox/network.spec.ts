import { paidTwice } from '../fixtures/paid-twice.ts';
import { expectShownAsBilled, readingMidStream, STREAMING_SERVICE } from './streaming.ts';
import { attr, expect, state, test, type Ext } from './fixtures.ts';
import { click, evaluate } from './firefox.ts';

/**
 * The network gone for a while (issue 58), as `tests/e2e/network.spec.ts` in Chromium: a wait of the
 * reading, not an error. The test past the pause limit (10 minutes) shortens it to 4 s, its outage to 10 s.
 */
test.describe.configure({ mode: 'parallel' });
test.use({ serviceOptions: STREAMING_SERVICE });
/** As wide as the page's player gets: the wait's note, shorter, takes its place. */
const LONG_TITLE = 'Как голосовые помощники научились читать вслух длинные статьи, книги и документы';

test('the network gone for 20 s mid-part: the popup says it waits, the reading carries on by itself to the end; only the rest of the cut part is paid twice', async ({
  ext,
  service,
  pages,
}) => {
  test.setTimeout(120_000);
  const { tabId, popup } = await readingMidStream(ext, service, pages, 4_000, LONG_TITLE);
  // Where stop is, in the popup and on the page's player: the wait's note must not move it from under the pointer.
  const floating = (testId: string) => ext.control(tabId, 'trysasha-player', testId);
  await expect.poll(async () => (await floating('floating-stop')) !== null).toBe(true);
  const popupStop = () => evaluate(popup, () => JSON.stringify(document.querySelector('[data-testid="stop"]')!.getBoundingClientRect()));
  const stopPlaces = async () => ({ popup: await popupStop(), page: (await floating('floating-stop'))?.box });
  const playing = await stopPlaces();
  service.outage({ seconds: 20 });

  await expect.poll(() => attr(popup, 'player', 'data-wait')).toBe('network');
  expect(await attr(popup, 'wait-note', 'role')).toBe('status');
  await expect.poll(async () => (await floating('wait-note')) !== null).toBe(true);
  expect(await stopPlaces()).toEqual(playing);
  expect(await state(popup)).toMatch(/^(playing|loading)$/);
  await expect.poll(() => attr(popup, 'player', 'data-wait'), { timeout: 40_000 }).toBe('');
  await expect.poll(() => state(popup), { timeout: 60_000 }).toBe('finished');

  const twice = paidTwice(service.speechLog());
  expect(twice).toMatchObject({ receivedTwice: [], askedWholeAgain: [] });
  expect(twice.cut).toBeGreaterThan(0);
  await expectShownAsBilled(popup, service);
});

test('the network gone past the pause limit: paused, not an error, nothing tried while paused; ▶ once it is back reads to the end', async ({ ext, service, pages }) => {
  test.setTimeout(120_000);
  const { popup } = await readingMidStream(ext, service, pages, 3_500);
  await evaluate(await ext.extensionPage(), async () => {
    const bg = (await (globalThis as unknown as Ext).browser.runtime.getBackgroundPage()) as unknown as { tuned: Record<string, number> };
    bg.tuned = { 'network-pause-ms': 4_000 };
  });
  service.outage({ seconds: 10 });

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
