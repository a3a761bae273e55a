/**
 * `npx tsx scripts/store-screenshots.ts`: the stores' screenshots, 1280×800, in English and Russian
 * (`store/screenshots/<lang>-<n>-<what>.png`), from the published build (`npm run build`) against the local
 * service: a web page being read with the floating player and the popup beside it, the welcome page with a key
 * that works, the PDF page with its bar, and the options page. The Russian ones need Debian's chromium-l10n.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { startFakeService } from '../tests/fake-service/server.ts';
import { launchWithExtension, PRODUCTION_EXTENSION_DIR, serviceWorkerOf } from '../tests/e2e/chromium.ts';
import { startPagesServer } from '../tests/e2e/pages-server.ts';
import { makeArticleHtml } from '../tests/fixtures/make-article.ts';
import { pdfBytes } from '../tests/fixtures/pdfs.ts';
import { extensionUrl, optionsWithKey, tabOf } from './screenshot-rig.ts';

const OUT = resolve(import.meta.dirname, '../store/screenshots');
const SIZE = { width: 1280, height: 800 };

async function shot(page: Page, name: string) {
  await page.setViewportSize(SIZE);
  await page.screenshot({ path: `${OUT}/${name}.png` });
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  const service = await startFakeService({ msPerChar: 60 });
  const pages = await startPagesServer();
  const styled = (title: string) =>
    makeArticleHtml(4_000, title).replace(
      '</head>',
      '<style>body { max-width: 42em; margin: 0 auto; padding: 1em 3em; font: 18px/1.6 Georgia, serif; } nav, footer { color: #777; font: 13px sans-serif; }</style></head>',
    );
  pages.put('/article-ru.html', styled('Как устроен голос'));
  pages.put('/article-en.html', styled('Как устроен голос'));
  pages.putFile('/article.pdf', await pdfBytes('article'), 'application/pdf');
  for (const lang of ['en', 'ru'] as const) {
    const browser = await launchWithExtension({ extensionDir: PRODUCTION_EXTENSION_DIR, locale: lang === 'ru' ? 'ru-RU' : 'en-US' });
    try {
      const { context } = browser;
      const sw = await serviceWorkerOf(context);
      const url = (path: string) => extensionUrl(sw, path);
      const options = await optionsWithKey(context, sw, service.url, '1000');
      await shot(options, `${lang}-4-options`);
      await options.close();

      const welcome = context.pages().find((p) => p.url().endsWith('/welcome.html')) ?? (await context.newPage());
      if (!welcome.url().endsWith('/welcome.html')) await welcome.goto(url('welcome.html'));
      await welcome.reload();
      await welcome.getByTestId('account').waitFor();
      await shot(welcome, `${lang}-2-welcome`);
      await welcome.close();

      // A page being read: the sentence highlighted, the floating player; the popup shown beside it.
      const web = await context.newPage();
      await web.setViewportSize(SIZE);
      await web.goto(`${pages.url}/article-${lang}.html`);
      const tabId = await tabOf(sw, web);
      const popup = await context.newPage();
      await popup.setViewportSize({ width: 360, height: 640 });
      await popup.goto(url(`popup.html?tabId=${tabId}`));
      await popup.locator('[data-testid="player"][data-state="playing"]').waitFor({ timeout: 30_000 });
      await web.bringToFront();
      // The floating player is in a closed shadow root (the page cannot reach it, nor can a locator): the
      // sentence highlight says the page shows the reading; the player is drawn with it.
      await web.waitForFunction(() => (CSS.highlights.get('trysasha-sentence')?.size ?? 0) > 0, undefined, { timeout: 30_000 });
      await web.waitForFunction(() => document.querySelector('trysasha-player') !== null, undefined, { timeout: 30_000 });
      const popupPng = await popup.locator('main.popup').screenshot();
      // The popup drawn over the page's top right, as the browser shows it under the toolbar button.
      await web.evaluate((png) => {
        const img = document.createElement('img');
        img.src = `data:image/png;base64,${png}`;
        Object.assign(img.style, { position: 'fixed', top: '8px', right: '16px', width: '360px', boxShadow: '0 4px 24px rgba(0,0,0,.35)', borderRadius: '8px', zIndex: '2147483646' });
        document.body.append(img);
      }, popupPng.toString('base64'));
      await shot(web, `${lang}-1-reading`);
      await popup.getByTestId('stop').click();
      await popup.close();
      await web.close();

      const pdf = await context.newPage();
      await pdf.setViewportSize(SIZE);
      await pdf.goto(`${pages.url}/article.pdf`);
      const pdfTab = await sw.evaluate(async () => (await chrome.tabs.query({})).at(-1)?.id ?? -1);
      const pdfPopup = await context.newPage();
      await pdfPopup.goto(url(`popup.html?tabId=${pdfTab}`));
      await pdf.bringToFront();
      await pdf.locator('[data-testid="pdf-toolbar"][data-state="ready"]').waitFor({ timeout: 30_000 });
      await pdf.locator('[data-testid="pdf-range-cost"][data-counting="false"]').waitFor();
      await pdf.waitForFunction(() => (CSS.highlights.get('trysasha-sentence')?.size ?? 0) > 0, undefined, { timeout: 30_000 });
      await shot(pdf, `${lang}-3-pdf`);
      await pdfPopup.getByTestId('stop').click();
    } finally {
      await browser.close();
    }
  }
  await pages.close();
  await service.close();
}

await main();
