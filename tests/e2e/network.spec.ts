import { paidTwice } from '../fixtures/paid-twice.ts';
import { expect, player, test } from './fixtures.ts';
import { expectShownAsBilled, readingMidStream, STREAMING_SERVICE } from './streaming.ts';

/** As wide as the page's player gets: the wait's note, shorter, takes its place. */
const LONG_TITLE = 'Как голосовые помощники научились читать вслух длинные статьи, книги и документы';

/**
 * The network gone for a while (issue 58): a wait of the reading, not an error. The service's outage
 * mode cuts every connection unanswered, and the answer on its way too. A reading pauses after 10 minutes
 * without the service; the test past that limit shortens it to 4 s, its outage 10 s (`tuned` in the test build's diagnostics).
 */
test.describe('the network goes away mid-reading', () => {
  test.describe.configure({ mode: 'parallel' });
  test.use({ serviceOptions: STREAMING_SERVICE });

  test('for 20 s: what was received plays on, the popup says it waits, and the reading carries on by itself to the end; only the rest of the cut part is paid twice', async ({
    ext,
    service,
    pages,
  }) => {
    test.setTimeout(120_000);
    // A part's audio on its way, 2 s of it arrived: the outage cuts it where it is.
    const { tabId, popup } = await readingMidStream(ext, service, pages, 4_000, LONG_TITLE);
    const p = player(popup);
    // Where stop is, in the popup and on the page's player: the wait's note must not move it from under the pointer.
    const floating = (testId: string) => ext.control(tabId, 'trysasha-player', testId);
    await expect.poll(async () => (await floating('floating-stop')) !== null).toBe(true);
    const stopPlaces = async () => ({ popup: await popup.getByTestId('stop').boundingBox(), page: (await floating('floating-stop'))?.box });
    const playing = await stopPlaces();
    service.outage({ seconds: 20 });

    await expect(p).toHaveAttribute('data-wait', 'network');
    await expect(popup.getByTestId('wait-note')).toBeVisible();
    await expect.poll(async () => (await floating('wait-note')) !== null).toBe(true);
    expect(await stopPlaces()).toEqual(playing);
    await expect(p).toHaveAttribute('data-state', /^(playing|loading)$/);
    await expect(popup.getByTestId('error')).toHaveAttribute('data-code', '');
    // Back by itself once the service answers: no click.
    await expect(p).toHaveAttribute('data-wait', '', { timeout: 40_000 });
    await expect(p).toHaveAttribute('data-state', 'finished', { timeout: 60_000 });

    expect(service.outageState().cut + service.outageState().refused).toBeGreaterThan(1);
    const log = service.speechLog();
    const twice = paidTwice(log);
    // Nothing received twice; a part cut by the outage asked for again from its cut sentence, never whole.
    expect(twice).toMatchObject({ receivedTwice: [], askedWholeAgain: [] });
    expect(twice.cut).toBeGreaterThan(0);
    await expectShownAsBilled(popup, service);
  });

  test('past the pause limit: paused, not an error, nothing tried while paused; ▶ after the network is back reads to the end', async ({ ext, service, pages }) => {
    test.setTimeout(120_000);
    const { popup } = await readingMidStream(ext, service, pages, 3_500);
    const p = player(popup);
    const sw = await ext.serviceWorker();
    await sw.evaluate(() => void ((globalThis as unknown as { tuned: Record<string, number> }).tuned = { 'network-pause-ms': 4_000 }));
    service.outage({ seconds: 10 });

    await expect(p).toHaveAttribute('data-wait', 'network');
    await expect(p).toHaveAttribute('data-state', 'paused', { timeout: 40_000 });
    await expect(p).toHaveAttribute('data-wait', 'network');
    await expect(popup.getByTestId('error')).toHaveAttribute('data-code', '');
    const triedWhenPaused = service.outageState().refused;
    const position = Number(await p.getAttribute('data-position'));

    // The network comes back; the paused reading tries nothing by itself.
    await expect.poll(() => service.outageState().until <= Date.now(), { timeout: 30_000 }).toBe(true);
    expect(service.outageState().refused).toBe(triedWhenPaused);
    await expect(p).toHaveAttribute('data-state', 'paused');

    await popup.getByTestId('play-pause').click();
    await expect(p).toHaveAttribute('data-wait', '');
    await expect(p).toHaveAttribute('data-state', 'playing');
    expect(Number(await p.getAttribute('data-position'))).toBeGreaterThanOrEqual(position - 0.05);
    await expect(p).toHaveAttribute('data-state', 'finished', { timeout: 60_000 });
    expect(paidTwice(service.speechLog())).toMatchObject({ receivedTwice: [], askedWholeAgain: [] });
  });
});
