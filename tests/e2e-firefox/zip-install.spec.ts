/**
 * Installed as a user installs it (issue 47), in Firefox: addons.mozilla.org's package itself (`npm run
 * zip:firefox`), put into the profile as the .xpi it is, not the build folder. On install the welcome page opens;
 * the options page takes the local service's address, the welcome page its key; "Read a sample" reads the
 * sample to the end. The published build has no test hooks: everything goes through its pages.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { startFakeService } from '../fake-service/server.ts';
import { billed, words } from '../fixtures/billed.ts';
import { SAMPLES } from '../../utils/text/sample.ts';
import { newProfileDir } from '../fixtures/profile-dir.ts';
import { attr, fill, type Ext } from './fixtures.ts';
import { click, evaluate, launchFirefoxWithExtension, openExtensionPage } from './firefox.ts';

const OUTPUT = resolve(import.meta.dirname, '../../.output');
const KEY = 'vk_live_test_key';

test('the addons.mozilla.org zip: the welcome page opens on install, takes a key of the local service, and its sample is read to the end', async () => {
  test.setTimeout(120_000);
  const zip = readdirSync(OUTPUT).find((f) => /-firefox\.zip$/.test(f));
  test.skip(!zip, 'no .output/*-firefox.zip (npm run zip:firefox)');
  const service = await startFakeService({ msPerChar: 1, minMs: 30 });
  // A new, empty profile, as a user's first start (the suite's template profile is made for temporary add-ons).
  const profileDir = newProfileDir('tts-firefox-zip-');
  const firefox = await launchFirefoxWithExtension({ xpi: join(OUTPUT, zip!), profileDir });
  try {
    // The add-on's own view of the tabs (an extension page of its own asks).
    const probe = await openExtensionPage(firefox.browser, `${firefox.base}options.html`);
    const pageUrls = () => evaluate(probe, async () => (await (globalThis as unknown as Ext).browser.tabs.query({})).map((t) => t.url ?? ''));
    // Opened by the add-on itself, once, on install.
    await expect.poll(async () => (await pageUrls()).join(' '), { timeout: 15_000 }).toContain('/welcome.html');

    // The local service's address, as a developer sets it in the options page (saved, then refused: no key yet).
    const options = await openExtensionPage(firefox.browser, `${firefox.base}options.html`);
    await fill(options, 'base-url', service.url);
    await click(options, '[data-testid="save"]');
    await expect.poll(() => attr(options, 'options-error', 'data-code')).toBe('no-key');

    const welcome = await openExtensionPage(firefox.browser, `${firefox.base}welcome.html`);
    await fill(welcome, 'welcome-key', KEY);
    await click(welcome, '[data-testid="welcome-save"]');
    await expect.poll(() => attr(welcome, 'account', 'data-price')).toBe('1500.0000');
    await click(welcome, '[data-testid="try-sample"]');
    await expect.poll(() => words(billed(service)).join(' '), { timeout: 30_000 }).toBe(words([SAMPLES.en.title, ...SAMPLES.en.paragraphs].join(' ')).join(' '));
    // Read to the end: the sample tab's popup shows it finished.
    const tabId = await evaluate(welcome, async () => (await (globalThis as unknown as Ext).browser.tabs.query({})).find((t) => t.url?.endsWith('/sample.html'))?.id ?? -1);
    expect(tabId).toBeGreaterThan(0);
    const popup = await openExtensionPage(firefox.browser, `${firefox.base}popup.html?tabId=${tabId}&from=toolbar`);
    await expect.poll(() => attr(popup, 'player', 'data-state'), { timeout: 30_000 }).toBe('finished');
  } finally {
    await firefox.close();
    rmSync(profileDir, { recursive: true, force: true });
    await service.close();
  }
});
