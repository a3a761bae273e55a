/**
 * `npm run demo`: the local speech service (real speech), a sample article, and
 * Chromium with the built extension already set up for them.
 * `npm run demo -- --check`: the same headless; reads the sample's first part,
 * checks that audio played, exits 0.
 */
import { startFakeService } from '../tests/fake-service/server.ts';
import { launchWithExtension, PRODUCTION_EXTENSION_DIR, serviceWorkerOf } from '../tests/e2e/chromium.ts';
import { pagesOnService } from '../tests/e2e/pages-server.ts';

const DEMO_KEY = 'vk_live_demo_key';
const check = process.argv.includes('--check');
const headless = check || !process.env.DISPLAY;

async function main() {
  const service = await startFakeService({
    audio: 'speech',
    firstByteMs: 150,
    accounts: [
      {
        key: DEMO_KEY,
        name: 'Demo account',
        provider: 'trySasha (local)',
        balanceRub: '250.0000',
        pricePerMillionRub: '1500.0000',
        maxConcurrency: 2,
        overdraftRub: '1.0000',
      },
    ],
  });
  // The sample pages at the service's own address: a link queued from them is read (a local page only from there).
  const pages = pagesOnService(service);
  // What ships (`npm run build`): its manifest holds loopback access (the local service, the sample).
  const browser = await launchWithExtension({ headless, network: true, extensionDir: PRODUCTION_EXTENSION_DIR });
  const shutdown = async (code: number) => {
    await browser.close();
    await pages.close();
    await service.close();
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  const sw = await serviceWorkerOf(browser.context);
  const id = new URL(sw.url()).host;
  const options = await browser.context.newPage();
  await options.goto(`chrome-extension://${id}/options.html`);
  await options.getByTestId('api-key').fill(DEMO_KEY);
  await options.getByTestId('base-url').fill(service.url);
  await options.getByTestId('save').click();
  await options.getByTestId('account').waitFor();
  await options.close();
  // The welcome page the install opened: the key is in already, so the sample article comes first.
  for (const page of browser.context.pages()) if (page.url().endsWith('/welcome.html')) await page.close();

  const article = await browser.context.newPage();
  await article.goto(`${pages.url}/sample-article.html`);
  console.log(`Local speech service: ${service.url} (key ${DEMO_KEY})`);
  console.log(`Sample article:       ${pages.url}/sample-article.html`);

  if (!check) {
    console.log(
      headless
        ? 'No display: Chromium runs headless. Use --check for the automatic check.'
        : 'Click the extension\'s toolbar button (puzzle icon → trySasha Reader) to read the article aloud. Ctrl+C ends the demo.',
    );
    await new Promise(() => undefined);
    return;
  }

  const tabId = await sw.evaluate(async (u) => (await chrome.tabs.query({ url: u }))[0]?.id ?? -1, article.url());
  const started = Date.now();
  const popup = await browser.context.newPage();
  await popup.goto(`chrome-extension://${id}/popup.html?tabId=${tabId}`);
  const player = popup.getByTestId('player');
  await popup.waitForFunction(
    () => {
      const el = document.querySelector('[data-testid="player"]');
      return el?.getAttribute('data-state') === 'error' || Number(el?.getAttribute('data-position')) > 0.5;
    },
    undefined,
    { timeout: 60_000 },
  );
  const state = await player.getAttribute('data-state');
  const position = Number(await player.getAttribute('data-position'));
  const firstAudioMs = Date.now() - started;
  const log = service.speechLog();
  const first = log[0];
  const ok = state !== 'error' && position > 0.5 && first?.status === 200;
  console.log(
    JSON.stringify({
      ok,
      state,
      position,
      firstPartText: first?.text,
      firstPartChars: first?.billedChars,
      msFromPopupToHalfSecondPlayed: firstAudioMs,
      error: state === 'error' ? await popup.getByTestId('error').getAttribute('data-code') : undefined,
    }),
  );
  await shutdown(ok ? 0 : 1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
