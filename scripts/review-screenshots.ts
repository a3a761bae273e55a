/**
 * `npx tsx scripts/review-screenshots.ts [outDir]`: every surface for a look by eye, in both languages, both
 * themes and at 100 % and 200 % zoom (the browser's own zoom, `tabs.setZoom`): the popup asking first, reading
 * and without a key; the options page with its usage history; the welcome page; the PDF page; a web page with
 * the floating player. From the published build (`npm run build`) against the local service; Russian needs
 * Debian's chromium-l10n. Writes `<lang>-<theme>-<zoom>-<surface>.png` and `index.html`, a sheet of them all.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { startFakeService } from '../tests/fake-service/server.ts';
import { launchWithExtension, PRODUCTION_EXTENSION_DIR, serviceWorkerOf } from '../tests/e2e/chromium.ts';
import { startPagesServer } from '../tests/e2e/pages-server.ts';
import { makeArticleHtml } from '../tests/fixtures/make-article.ts';
import { pdfBytes } from '../tests/fixtures/pdfs.ts';
import { extensionUrl, optionsWithKey, tabOf as tabOfPage } from './screenshot-rig.ts';

const OUT = resolve(process.argv[2] ?? 'test-results/review');
const shots: string[] = [];

async function main() {
  mkdirSync(OUT, { recursive: true });
  const service = await startFakeService({ msPerChar: 60 });
  const pages = await startPagesServer();
  // A page of its own for each tab (a tab is found by its address).
  for (const path of ['no-key-1', 'no-key-2', 'article-1', 'article-2']) pages.put(`/${path}.html`, makeArticleHtml(4_000, 'Как устроен голос'));
  pages.putFile('/article.pdf', await pdfBytes('article'), 'application/pdf');
  const runs = (['en', 'ru'] as const).flatMap((lang) => (['light', 'dark'] as const).flatMap((scheme) => [1, 2].map((zoom) => ({ lang, scheme, zoom }))));
  for (const { lang, scheme, zoom } of runs) {
    const browser = await launchWithExtension({ extensionDir: PRODUCTION_EXTENSION_DIR, locale: lang === 'ru' ? 'ru-RU' : 'en-US', colorScheme: scheme, deviceScaleFactor: zoom });
    try {
      const { context } = browser;
      const sw = await serviceWorkerOf(context);
      const url = (path: string) => extensionUrl(sw, path);
      const tabOf = (page: Page) => tabOfPage(sw, page);
      const name = (surface: string) => `${lang}-${scheme}-${zoom * 100}-${surface}.png`;
      /** A window of `width`×`height` device pixels at this zoom: a CSS viewport `zoom` times smaller. */
      const zoomed = async (page: Page, width: number, height: number) => {
        await page.setViewportSize({ width: Math.round(width / zoom), height: Math.round(height / zoom) });
      };
      const shot = async (page: Page, surface: string, fullPage = false) => {
        await page.screenshot({ path: `${OUT}/${name(surface)}`, fullPage });
        shots.push(name(surface));
      };
      // Without a key (before one is saved): the popup says what to do.
      {
        const page = await context.newPage();
        await page.goto(`${pages.url}/no-key-${zoom}.html`);
        const noKey = await context.newPage();
        await noKey.goto(url(`popup.html?tabId=${await tabOf(page)}`));
        await zoomed(noKey, 360 * zoom, 600);
        await noKey.getByTestId('open-welcome').waitFor();
        await shot(noKey, 'popup-no-key');
        await noKey.close();
        await page.close();
      }
      {
        const bare = await context.newPage();
        await bare.goto(`${pages.url}/article-${zoom}.html`);
        const bareTab = await tabOf(bare);
        const options = await optionsWithKey(context, sw, service.url, '0.0001');
        await zoomed(options, 1280, 800);

        const welcome = await context.newPage();
        await welcome.goto(url('welcome.html'));
        await zoomed(welcome, 1280, 800);
        await welcome.getByTestId('account').waitFor();
        await shot(welcome, 'welcome', true);
        await welcome.close();

        // Asking first, then reading: the floating player on the page.
        const popup = await context.newPage();
        await popup.goto(url(`popup.html?tabId=${bareTab}`));
        await zoomed(popup, Math.min(800, 360 * zoom), 600);
        await popup.locator('[data-testid="player"][data-state="confirm"]').waitFor();
        await shot(popup, 'popup-confirm');
        await popup.getByTestId('confirm-read').click();
        await popup.locator('[data-testid="player"][data-state="playing"]').waitFor({ timeout: 30_000 });
        await shot(popup, 'popup-playing');
        await bare.bringToFront();
        await zoomed(bare, 1280, 800);
        await bare.waitForFunction(() => document.querySelector('trysasha-player') !== null, undefined, { timeout: 30_000 });
        await shot(bare, 'page-player');
        await popup.getByTestId('stop').click();
        await popup.locator('[data-testid="player"][data-state="stopped"], [data-testid="player"][data-state="idle"]').first().waitFor();
        await popup.close();
        await bare.close();

        await options.reload();
        await options.locator('[data-testid="history"]:not([data-count="0"])').waitFor();
        await shot(options, 'options', true);
        await options.close();

        const pdf = await context.newPage();
        await pdf.goto(`${pages.url}/article.pdf`);
        const pdfTab = await sw.evaluate(async () => (await chrome.tabs.query({})).at(-1)?.id ?? -1);
        const pdfPopup = await context.newPage();
        await pdfPopup.goto(url(`popup.html?tabId=${pdfTab}`));
        await pdfPopup.locator('[data-testid="player"][data-state="confirm"]').waitFor();
        await pdf.bringToFront();
        await zoomed(pdf, 1280, 800);
        await pdf.locator('[data-testid="pdf-toolbar"][data-state="ready"]').waitFor({ timeout: 30_000 });
        await pdf.locator('[data-testid="pdf-range-cost"][data-counting="false"]').waitFor();
        await shot(pdf, 'pdf');
        // Nothing is left asking (the popup of the next tab would show that reading).
        await pdfPopup.getByTestId('stop').click();
        await pdfPopup.locator('[data-testid="player"][data-state="stopped"]').waitFor();
        await pdfPopup.close();
        await pdf.close();
      }
    } finally {
      await browser.close();
    }
  }
  writeFileSync(`${OUT}/index.html`, `<!doctype html><body style="background:#888">${shots.map((s) => `<figure style="display:inline-block;margin:4px"><img src="${s}" style="max-width:640px;max-height:640px;border:1px solid #000"><figcaption>${s}</figcaption></figure>`).join('')}</body>`);
  console.log(`${shots.length} screenshots in ${OUT}`);
  await pages.close();
  await service.close();
}

await main();
