import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { newProfileDir } from '../fixtures/profile-dir.ts';
import type { Page } from 'puppeteer-core';
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { settled } from '../fixtures/settled.ts';
import { attr, expect, extensionHelpers, state, test, type Ext } from './fixtures.ts';
import { click, evaluate, launchFirefoxWithExtension } from './firefox.ts';

test.use({ serviceOptions: { msPerChar: 0.35, minMs: 200, firstByteMs: 30 } });

/** Which of the menu items exist (update() refuses an id that does not). */
const menuItems = (page: Page) =>
  evaluate(page, async () => {
    const { browser } = globalThis as unknown as Ext;
    const found = async (id: string) =>
      (browser.contextMenus.update(id, {}) as unknown as Promise<void>).then(
        () => true,
        () => false,
      );
    return { readSelection: await found('read-selection'), readFromHere: await found('read-from-here'), other: await found('no-such-item') };
  });
const ALL_THERE = { readSelection: true, readFromHere: true, other: false };

test('after Firefox restarts, the menu items are back and the saved key still reads', async ({ service, pages }) => {
  // Installed into the profile (not as a temporary add-on, which a restart removes). At the second start
  // there is no onInstalled: Firefox never keeps a persistent page's menus, so they must be made again.
  const profileDir = newProfileDir('tts-firefox-restart-');
  const uuid = randomUUID();
  try {
    const first = await launchFirefoxWithExtension({ permanent: true, profileDir, uuid });
    try {
      const ext = extensionHelpers(first, service, pages);
      await expect.poll(async () => menuItems(await ext.extensionPage())).toEqual(ALL_THERE);
      await ext.configure();
    } finally {
      await first.close();
    }

    const second = await launchFirefoxWithExtension({ permanent: true, profileDir, uuid });
    try {
      const ext = extensionHelpers(second, service, pages);
      await expect.poll(async () => menuItems(await ext.extensionPage())).toEqual(ALL_THERE);
      const { tabId } = await ext.openTab('sample-article.html');
      const popup = await ext.openPopup(tabId);
      await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('finished');
      expect(Number(await attr(popup, 'player', 'data-position'))).toBeGreaterThan(0.5); // it played
      expect(service.speechLog().length).toBeGreaterThan(0);
      expect(service.speechLog().every((e) => e.status === 200)).toBe(true);
    } finally {
      await second.close();
    }
  } finally {
    rmSync(profileDir, { recursive: true, force: true });
  }
});

test.describe('a long pause', () => {
  test.use({ serviceOptions: { msPerChar: 1.2, minMs: 50 } });

  test('with the background page started again meanwhile: resume continues from the same second, unpaid', async ({ ext, service, pages }) => {
    await ext.configure({ threshold: '1000' });
    pages.put('/long.html', makeArticleHtml(5_000));
    const { tabId } = await ext.openTab('long.html');
    const popup = await ext.openPopup(tabId);
    const position = async () => Number(await attr(popup, 'player', 'data-position'));
    await expect.poll(async () => Number(await attr(popup, 'player', 'data-part'))).toBeGreaterThanOrEqual(1);
    await expect.poll(position).toBeGreaterThan(1);
    await click(popup, '[data-testid="play-pause"]');
    await expect.poll(() => state(popup)).toBe('paused');
    await settled(async () => `${await attr(popup, 'player', 'data-part')} ${await position()}`);
    const heldPart = await attr(popup, 'player', 'data-part');
    const held = await position();

    // A persistent page is not unloaded for idleness, but it starts again when Firefox restarts its
    // extension process (after a crash, or an update): the player and everything in memory go.
    const page = await ext.extensionPage();
    await page.evaluate(async () => {
      const bg = await (globalThis as unknown as Ext).browser.runtime.getBackgroundPage();
      bg!.location.reload();
    });
    await expect
      .poll(() =>
        evaluate(page, async () => {
          // While the old window is being replaced, getBackgroundPage() either answers null or
          // rejects with an error from the dying window's compartment, which cannot be handed over
          // ("non-unwrappable cross-compartment wrapper"). Both only mean: not back yet.
          try {
            const bg = (await (globalThis as unknown as Ext).browser.runtime.getBackgroundPage()) as unknown as (Window & { player?: { stats: { loads: number } } }) | null;
            return bg?.document.readyState === 'complete' && bg.player?.stats.loads === 0;
          } catch {
            return false;
          }
        }),
      )
      .toBe(true);

    await click(popup, '[data-testid="play-pause"]');
    await expect.poll(() => state(popup)).toBe('playing');
    expect(await attr(popup, 'player', 'data-part')).toBe(heldPart);
    const resumedAt = await position();
    expect(resumedAt).toBeGreaterThanOrEqual(held - 0.05);
    expect(resumedAt).toBeLessThan(held + 1.5);
    await expect.poll(() => state(popup), { timeout: 40_000 }).toBe('finished');
    // Every part was paid once: those fetched before the pause came from the cache.
    const texts = service.speechLog().filter((e) => e.status === 200).map((e) => e.text);
    expect(new Set(texts).size).toBe(texts.length);
  });
});
