/**
 * Chromium quits mid-reading (a crash, a restart for an update, the last window closed) and is started again on
 * the same profile: the page offers "Continue from …" at the second the listener had reached, and what was
 * received before plays from the audio cache, unpaid (issue 58; Firefox's: `e2e-firefox/background.spec.ts`).
 */
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { newProfileDir } from '../fixtures/profile-dir.ts';
import { paidTwice } from '../fixtures/paid-twice.ts';
import { rmSync } from 'node:fs';
import { launchWithExtension, serviceWorkerOf } from './chromium.ts';
import { expect, extensionHelpers, player, test } from './fixtures.ts';

// About 6 s of audio a part of 1,500 characters: a place worth offering is reached within seconds.
test.use({ serviceOptions: { msPerChar: 4, minMs: 50 } });

test('Chromium restarts mid-reading: "Continue from …" at the same second, and what was received plays unpaid', async ({ service, pages }) => {
  test.setTimeout(120_000);
  const profileDir = newProfileDir('tts-restart-');
  pages.put('/long.html', makeArticleHtml(6_000, 'Статья, прерванная перезапуском'));
  let open: { close(): Promise<void> } | undefined;
  const launch = async () => {
    const browser = await launchWithExtension({ profileDir });
    open = browser;
    const sw = await serviceWorkerOf(browser.context);
    return { browser, ext: extensionHelpers(browser.context, sw, new URL(sw.url()).host, service, pages) };
  };
  try {
    let { browser, ext } = await launch();
    await ext.configure();
    let { tabId } = await ext.openTab('long.html');
    let popup = await ext.openPopup(tabId);
    await expect(player(popup)).toHaveAttribute('data-state', 'playing', { timeout: 30_000 });
    await expect.poll(async () => Number(await player(popup).getAttribute('data-position')), { timeout: 60_000 }).toBeGreaterThan(8);
    // The browser goes mid-reading: no stop, no pause.
    await browser.close();

    ({ browser, ext } = await launch());
    ({ tabId } = await ext.openTab('long.html'));
    popup = await ext.openPopup(tabId);
    const offer = popup.getByTestId('resume-offer');
    await expect(offer).toBeVisible({ timeout: 30_000 });
    expect(Number(await offer.getAttribute('data-position'))).toBeGreaterThan(4);
    // What arrived whole before the restart (a part cut by the browser's going may be asked for again).
    const paid = new Set(service.speechLog().filter((e) => e.status === 200 && !e.aborted && e.fault !== 'reset').map((e) => e.text));
    const before = service.speechLog().length;
    await offer.click();
    await expect(player(popup)).toHaveAttribute('data-state', 'playing', { timeout: 30_000 });
    await expect.poll(async () => Number(await player(popup).getAttribute('data-position')), { timeout: 30_000 }).toBeGreaterThan(4);
    // Nothing received before the restart was asked for again, and nothing was received twice.
    expect(service.speechLog().slice(before).filter((e) => e.status === 200 && paid.has(e.text))).toEqual([]);
    expect(paidTwice(service.speechLog()).receivedTwice).toEqual([]);
  } finally {
    await open?.close();
    rmSync(profileDir, { recursive: true, force: true });
  }
});
