import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { newProfileDir } from '../fixtures/profile-dir.ts';
import type { Page } from 'puppeteer-core';
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { settled } from '../fixtures/settled.ts';
import { paidTwice } from '../fixtures/paid-twice.ts';
import { expectShownAsBilled, STREAMING_SERVICE } from './streaming.ts';

// Each test has its own browser, service and pages: they run on both workers, not one after another (the suite's longest file).
test.describe.configure({ mode: 'parallel' });
import { attr, contextMenu, expect, extensionHelpers, state, test, type Ext } from './fixtures.ts';
import { pdfBytes } from '../fixtures/pdfs.ts';
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

/** Starts the background page again, as Firefox does when it restarts its extension process; resolves once the new one is up. */
async function restartBackground(ext: { extensionPage(): Promise<Page> }): Promise<void> {
  const page = await ext.extensionPage();
  await page.evaluate(async () => {
    const bg = (await (globalThis as unknown as Ext).browser.runtime.getBackgroundPage()) as unknown as Window & { replaced?: boolean };
    bg.replaced = true;
    bg.location.reload();
  });
  await expect
    .poll(() =>
      evaluate(page, async () => {
        // While the old window is being replaced, getBackgroundPage() either answers null or
        // rejects with an error from the dying window's compartment, which cannot be handed over
        // ("non-unwrappable cross-compartment wrapper"). Both only mean: not back yet.
        try {
          const bg = (await (globalThis as unknown as Ext).browser.runtime.getBackgroundPage()) as unknown as (Window & { player?: object; replaced?: boolean }) | null;
          return bg?.document.readyState === 'complete' && !!bg.player && !bg.replaced;
        } catch {
          return false;
        }
      }),
    )
    .toBe(true);
}

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
    await restartBackground(ext);

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

test.describe('the background page starts again while a part streams (issue 58)', () => {
  test.use({ serviceOptions: STREAMING_SERVICE });

  test('the part being heard, lost with the page well into it, is asked for again from the sentence being heard, not whole; the reading carries on to the end, nothing received twice, the cost shown what was billed', async ({
    ext,
    service,
    pages,
  }) => {
    test.setTimeout(90_000);
    await ext.configure({ threshold: '1000' });
    // The third request (a long part, after the title and a part heard whole: the pace is measured) stops after
    // about 5 s of its audio and stays open: it is the part being heard when the page goes.
    service.addFault({ match: { nth: 3 }, kind: 'stall', afterBytes: 30_000, stallMs: 60_000 });
    pages.put('/long.html', makeArticleHtml(6_000));
    const { tabId } = await ext.openTab('long.html');
    const popup = await ext.openPopup(tabId);
    const position = async () => Number(await attr(popup, 'player', 'data-position'));
    await expect.poll(() => attr(popup, 'player', 'data-part'), { timeout: 30_000 }).toBe('2');
    const partStart = await position();
    await expect.poll(position).toBeGreaterThan(partStart + 3.5);
    const stalled = service.speechLog().find((e) => e.nth === 3)!;
    expect(stalled.endedAt).toBeNull();
    await restartBackground(ext);

    // On by itself, from the sentence being heard, to the end.
    await expect.poll(() => state(popup), { timeout: 60_000 }).toBe('finished');
    const log = service.speechLog();
    const again = log.filter((e) => e !== stalled && e.status === 200 && stalled.text.endsWith(e.text));
    expect(again).toHaveLength(1);
    expect(again[0]!.text.length).toBeLessThan(stalled.text.length);
    expect(again[0]!.text).toMatch(/^[А-ЯЁA-Z]/);
    // Nothing received twice: the page being replaced sent nothing more.
    expect(paidTwice(log).receivedTwice).toEqual([]);
    await expectShownAsBilled(popup, service);
  });
});

test.describe('Firefox restarts mid-reading (issue 58)', () => {
  // About 6 s of audio a part of 1,500 characters: a place worth offering is reached within seconds.
  test.use({ serviceOptions: { msPerChar: 4, minMs: 50 } });

  test('"Continue from …" is offered on the PDF page and for the queue\'s current page, and plays what was received unpaid', async ({ service, pages }) => {
    test.setTimeout(150_000);
    const profileDir = newProfileDir('tts-firefox-restart-');
    const uuid = randomUUID();
    pages.putFile('/book.pdf', await pdfBytes('book'), 'application/pdf');
    pages.put('/queued.html', makeArticleHtml(6_000, 'Статья из очереди'));
    pages.put('/other.html', makeArticleHtml(300, 'Другая страница'));
    /** Listens until `seconds` of the reading in `popup` are played (a place worth keeping), then Firefox quits mid-reading. */
    const listenThenQuit = async (popup: Page, ff: { close(): Promise<void> }, seconds: number) => {
      await expect.poll(async () => Number(await attr(popup, 'player', 'data-position')), { timeout: 60_000 }).toBeGreaterThan(seconds);
      expect(await state(popup)).toBe('playing');
      await ff.close();
    };
    /** After a restart: the offer is there, and taking it plays on from the cache with no new request for what was received. */
    const offerTaken = async (popup: Page, seconds: number) => {
      await expect.poll(() => attr(popup, 'resume-offer', 'data-position'), { timeout: 60_000 }).not.toBe('');
      expect(Number(await attr(popup, 'resume-offer', 'data-position'))).toBeGreaterThan(seconds - 4);
      const paid = new Set(service.speechLog().filter((e) => e.status === 200).map((e) => e.text));
      const before = service.speechLog().length;
      await click(popup, '[data-testid="resume-offer"]');
      await expect.poll(async () => Number(await attr(popup, 'player', 'data-position'))).toBeGreaterThan(seconds - 4);
      expect(service.speechLog().slice(before).filter((e) => e.status === 200 && paid.has(e.text) && e.text.length > 200)).toEqual([]);
    };
    try {
      // The PDF page.
      let ff = await launchFirefoxWithExtension({ permanent: true, profileDir, uuid });
      let ext = extensionHelpers(ff, service, pages);
      await ext.configure({ threshold: '1000' });
      let tab = await ext.openTab(`${pages.url}/book.pdf`);
      let popup = await ext.openPopup(tab.tabId);
      await listenThenQuit(popup, ff, 8);
      ff = await launchFirefoxWithExtension({ permanent: true, profileDir, uuid });
      ext = extensionHelpers(ff, service, pages);
      tab = await ext.openTab(`${pages.url}/book.pdf`);
      popup = await ext.openPopup(tab.tabId);
      await offerTaken(popup, 8);
      await click(popup, '[data-testid="stop"]');

      // The queue's current page: added from the menu, played, Firefox quits mid-way; the entry is still the queue's first.
      const page = await ext.openTab('queued.html');
      await contextMenu(ext, page.tabId, { menuItemId: 'queue-add-page' });
      await expect.poll(() => attr(popup, 'queue', 'data-count')).toBe('1');
      // The popup in front again, as the user's click puts it (the page added last was in front: twice in four runs a
      // popup left behind it showed "stopped" for 30 s after this click).
      await popup.bringToFront();
      await click(popup, '[data-testid="queue-play"]');
      await expect.poll(() => attr(popup, 'player', 'data-state'), { timeout: 30_000 }).toBe('playing');
      await listenThenQuit(popup, ff, 8);
      ff = await launchFirefoxWithExtension({ permanent: true, profileDir, uuid });
      ext = extensionHelpers(ff, service, pages);
      // The popup starts reading its own tab (another page): stopped, then the queue is played from its entry.
      const other = await ext.openTab('other.html');
      popup = await ext.openPopup(other.tabId);
      await expect.poll(() => state(popup), { timeout: 30_000 }).toMatch(/^(playing|finished)$/);
      if ((await state(popup)) === 'playing') await click(popup, '[data-testid="stop"]');
      await expect.poll(() => attr(popup, 'queue', 'data-count')).toBe('1');
      await click(popup, '[data-testid="queue-play"]');
      await offerTaken(popup, 8);
      await ff.close();
    } finally {
      rmSync(profileDir, { recursive: true, force: true });
    }
  });
});
