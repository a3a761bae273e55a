/**
 * Installed as a user installs it (issue 47): the Chrome Web Store package itself (`npm run zip`), unpacked as the
 * store does, not the build folder. On install the welcome page opens; the options page takes the local service's
 * address, the welcome page its key; "Read a sample" reads the sample, and its audio plays (the popup of that tab).
 * The published build has no test hooks: everything goes through its pages.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import extract from 'extract-zip';
import { expect, test } from '@playwright/test';
import { launchWithExtension, serviceWorkerOf } from './chromium.ts';
import { startFakeService } from '../fake-service/server.ts';
import { newProfileDir } from '../fixtures/profile-dir.ts';
import { billed, words } from '../fixtures/billed.ts';
import { SAMPLES } from '../../utils/text/sample.ts';

const OUTPUT = resolve(import.meta.dirname, '../../.output');
const KEY = 'vk_live_test_key';

test('the store zip: the welcome page opens on install, takes a key of the local service, and its sample is heard', async () => {
  test.setTimeout(90_000);
  const zip = readdirSync(OUTPUT).find((f) => /-chrome\.zip$/.test(f));
  test.skip(!zip, 'no .output/*-chrome.zip (npm run zip)');
  const dir = newProfileDir('trysasha-zip-');
  await extract(join(OUTPUT, zip!), { dir });
  const service = await startFakeService({ msPerChar: 1, minMs: 30 });
  const browser = await launchWithExtension({ extensionDir: dir });
  try {
    const { context } = browser;
    const sw = await serviceWorkerOf(context);
    const id = new URL(sw.url()).host;
    // Opened by the extension itself, once, on install.
    const welcome = context.pages().find((p) => p.url().endsWith('/welcome.html')) ?? (await context.waitForEvent('page', { predicate: (p) => p.url().endsWith('/welcome.html') }));
    await welcome.waitForLoadState();

    // The local service's address, as a developer sets it in the options page (saved, then refused: no key yet).
    const options = await context.newPage();
    await options.goto(`chrome-extension://${id}/options.html`);
    await options.getByTestId('base-url').fill(service.url);
    await options.getByTestId('save').click();
    await expect(options.getByTestId('options-error')).toHaveAttribute('data-code', 'no-key');
    await options.close();

    await welcome.reload();
    await welcome.getByTestId('welcome-key').fill(KEY);
    await welcome.getByTestId('welcome-save').click();
    await expect(welcome.getByTestId('account')).toHaveAttribute('data-price', '1500.0000');
    const sampleOpens = context.waitForEvent('page', { predicate: (p) => p.url().endsWith('/sample.html') });
    await welcome.getByTestId('try-sample').click();
    const sample = await sampleOpens;
    await expect.poll(() => words(billed(service)).join(' '), { timeout: 20_000 }).toBe(words([SAMPLES.en.title, ...SAMPLES.en.paragraphs].join(' ')).join(' '));
    // Heard: the sample tab's popup shows its reading played to the end.
    const tabId = await sw.evaluate(async () => (await chrome.tabs.query({})).find((t) => t.url?.endsWith('/sample.html'))?.id ?? -1);
    expect(tabId).toBeGreaterThan(0);
    const popup = await context.newPage();
    await popup.goto(`chrome-extension://${id}/popup.html?tabId=${tabId}&from=toolbar`);
    await expect(popup.getByTestId('player')).toHaveAttribute('data-state', 'finished', { timeout: 30_000 });
    expect(Number(await popup.getByTestId('player').getAttribute('data-position'))).toBeGreaterThan(0);
    await sample.close();
  } finally {
    await browser.close();
    await service.close();
  }
});
