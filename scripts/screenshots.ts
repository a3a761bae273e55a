/**
 * `npx tsx scripts/screenshots.ts`: the README's screenshots (docs/screenshots/), taken from the test
 * build against the local service: the popup with the sleep timer set, the popup's listening queue, the
 * PDF page, a web page with the floating player and click-to-read's ▶, and the word being said marked in its
 * sentence, light and dark.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { startFakeService } from '../tests/fake-service/server.ts';
import { launchWithExtension, serviceWorkerOf } from '../tests/e2e/chromium.ts';
import { extensionHelpers } from '../tests/e2e/fixtures.ts';
import { pagesOnService } from '../tests/e2e/pages-server.ts';
import { makeArticleHtml } from '../tests/fixtures/make-article.ts';
import { pdfBytes } from '../tests/fixtures/pdfs.ts';
import { tabOf } from './screenshot-rig.ts';

const OUT = resolve(import.meta.dirname, '../docs/screenshots');
const KEY = 'vk_live_test_key';

async function main() {
  mkdirSync(OUT, { recursive: true });
  const service = await startFakeService({});
  // At the service's own address: a queued link on this machine is read only from there (`localReachable`).
  const pages = pagesOnService(service);
  pages.put('/article.html', makeArticleHtml(4_000, 'Как устроен голос'));
  pages.put('/queue-1.html', makeArticleHtml(6_000, 'Почему поезда опаздывают зимой'));
  pages.put('/queue-2.html', makeArticleHtml(3_500, 'Десять книг для долгой дороги'));
  pages.put('/queue-3.html', makeArticleHtml(9_000, 'История одного моста'));
  // The same article as a site would set it: a column with margins, the page's own light or dark colours.
  pages.put(
    '/styled-article.html',
    makeArticleHtml(4_000, 'Как устроен голос').replace(
      '</head>',
      '<style>body { max-width: 40em; margin: 0 auto; padding: 1em 3em; font: 17px/1.6 Georgia, serif; } nav, footer { color: #777; font: 13px sans-serif; } @media (prefers-color-scheme: dark) { body { background: #111; color: #ddd; } }</style></head>',
    ),
  );
  pages.putFile('/article.pdf', await pdfBytes('article'), 'application/pdf');
  for (const scheme of ['light', 'dark'] as const) {
    const browser = await launchWithExtension({ colorScheme: scheme });
    try {
      const sw = await serviceWorkerOf(browser.context);
      const url = (path: string) => `chrome-extension://${new URL(sw.url()).host}/${path}`;
      const options = await browser.context.newPage();
      await options.goto(url('options.html'));
      await options.getByTestId('api-key').fill(KEY);
      await options.getByTestId('base-url').fill(service.url);
      await options.getByTestId('confirm-threshold').fill('1000');
      await options.getByTestId('save').click();
      await options.getByTestId('account').waitFor();
      // Click-to-read on, as the options page leaves it once the browser granted access to pages.
      await options.evaluate(() => chrome.storage.local.set({ 'page-options': { floatingPlayer: true, clickToRead: true } }));
      await sw.evaluate(async () => {
        while ((await chrome.scripting.getRegisteredContentScripts()).length === 0) await new Promise((r) => setTimeout(r, 50));
      });
      await options.close();

      // The word being said, marked inside its sentence's band (paused, so the picture holds one word).
      const words = await browser.context.newPage();
      await words.setViewportSize({ width: 900, height: 560 });
      await words.goto(`${pages.url}/styled-article.html?words`);
      await sw.evaluate(async (u) => {
        const tab = (await chrome.tabs.query({ url: u }))[0]!;
        await (globalThis as unknown as { commandHandler(c: string, t: object): Promise<void> }).commandHandler('read', tab);
      }, words.url());
      // Past the headline, a few words into a sentence of the article.
      await words.waitForFunction(
        () => {
          const [word] = (CSS.highlights.get('trysasha-word') ?? []) as Iterable<Range>;
          const [sentence] = (CSS.highlights.get('trysasha-sentence') ?? []) as Iterable<Range>;
          return !!word && !!sentence && word.startContainer.parentElement?.closest('article p') && word.startOffset - sentence.startOffset > 20;
        },
        undefined,
        { timeout: 60_000, polling: 10 },
      );
      // Paused (the shortcut's handler: the mini-player's shadow root is closed to the page, and to Playwright).
      const command = (name: string) => sw.evaluate((c) => (globalThis as unknown as { commandHandler(c: string): Promise<void> }).commandHandler(c), name);
      await command('toggle-pause');
      await sw.evaluate(async () => {
        while (((await chrome.storage.session.get('reading-view'))['reading-view'] as { state?: string } | undefined)?.state !== 'paused') await new Promise((r) => setTimeout(r, 20));
      });
      await words.screenshot({ path: `${OUT}/word-mark-${scheme}.png` });
      await command('stop');
      await words.close();

      // `WORD_MARK_ONLY=1`: the word mark's pictures alone.
      if (process.env.WORD_MARK_ONLY) continue;

      // A web page being read: the sentence highlighted, the floating player, the ▶ by a paragraph. Both are
      // in closed shadow roots: seen from the extension's own world, pressed with the real mouse.
      // tsx names the helper's functions with a `__name` call, which the worker has not got.
      await sw.evaluate('globalThis.__name = (f) => f');
      const { control } = extensionHelpers(browser.context, sw, new URL(sw.url()).host, service, pages);
      const web = await browser.context.newPage();
      await web.setViewportSize({ width: 900, height: 560 });
      await web.goto(`${pages.url}/styled-article.html`);
      const webTab = await tabOf(sw, web);
      /** What `look` finds once it finds something (every 50 ms). */
      const until = async <T>(look: () => Promise<T | null | undefined>): Promise<T> => {
        for (let found = await look(); ; found = await look()) {
          if (found) return found;
          await new Promise((r) => setTimeout(r, 50));
        }
      };
      // Pressed once it has settled by its paragraph (it is not pressable while it moves there).
      const playButton = () => until(async () => (await control(webTab, 'trysasha-click', 'click-to-read').then((seen) => (seen && !seen.hidden && seen.attrs['data-settled'] === 'true' ? seen.box : null))));
      await web.locator('article p').nth(1).hover();
      const play = await playButton();
      await web.mouse.click(play.x + play.width / 2, play.y + play.height / 2);
      await until(async () => (await control(webTab, 'trysasha-player', 'floating-player'))?.attrs['data-state'] === 'playing');
      await web.waitForFunction(() => (CSS.highlights.get('trysasha-sentence')?.size ?? 0) > 0, undefined, { timeout: 30_000 });
      await web.locator('article p').nth(3).hover();
      await playButton();
      await web.screenshot({ path: `${OUT}/floating-player-${scheme}.png` });
      await command('stop');
      await web.close();

      const page = await browser.context.newPage();
      await page.goto(`${pages.url}/article.html`);
      const tabId = await tabOf(sw, page);
      const popup = await browser.context.newPage();
      await popup.setViewportSize({ width: 360, height: 760 });
      await popup.goto(url(`popup.html?tabId=${tabId}`));
      await popup.locator('[data-testid="player"][data-state="playing"]').waitFor({ timeout: 30_000 });
      await popup.getByTestId('sleep-timer').selectOption('30');
      await popup.locator('[data-testid="sleep-left"]:not([data-at="0"])').waitFor();
      await popup.locator('main.popup').screenshot({ path: `${OUT}/popup-sleep-timer-${scheme}.png` });
      await popup.getByTestId('stop').click();

      // The listening queue: three pages added from the menu (its handler, as the test build exposes it).
      for (const path of ['/queue-1.html', '/queue-2.html', '/queue-3.html']) {
        await sw.evaluate(
          async ({ tabId, link }) => {
            const tab = await chrome.tabs.get(tabId);
            (globalThis as unknown as { contextMenuClick(i: object, t: object): void }).contextMenuClick({ menuItemId: 'queue-add-link', linkUrl: link, editable: false }, tab);
          },
          { tabId, link: `${pages.url}${path}` },
        );
      }
      await popup.locator('[data-testid="queue"][data-count="3"]').waitFor();
      await popup.locator('[data-testid="queue-item"][data-chars=""]').first().waitFor({ state: 'detached' });
      await popup.locator('details.parts-box').evaluate((d) => d.removeAttribute('open'));
      await popup.locator('main.popup').screenshot({ path: `${OUT}/popup-queue-${scheme}.png` });
      await sw.evaluate(() => chrome.storage.local.set({ 'listening-queue': [] }));
      await popup.close();

      const pdf = await browser.context.newPage();
      await pdf.setViewportSize({ width: 1100, height: 760 });
      await pdf.goto(`${pages.url}/article.pdf`);
      const pdfTab = await sw.evaluate(async () => (await chrome.tabs.query({})).at(-1)?.id ?? -1);
      const pdfPopup = await browser.context.newPage();
      await pdfPopup.goto(url(`popup.html?tabId=${pdfTab}`));
      await pdf.bringToFront();
      await pdf.locator('[data-testid="pdf-toolbar"][data-state="ready"]').waitFor({ timeout: 30_000 });
      await pdf.locator('[data-testid="pdf-range-cost"][data-counting="false"]').waitFor();
      // Wait for a highlighted sentence, so the picture shows one.
      await pdf.waitForFunction(() => (CSS.highlights.get('trysasha-sentence')?.size ?? 0) > 0, undefined, { timeout: 30_000 });
      await pdf.screenshot({ path: `${OUT}/pdf-page-${scheme}.png` });
      await pdfPopup.close();
    } finally {
      await browser.close();
    }
  }
  await pages.close();
  await service.close();
  console.log(`screenshots in ${OUT}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
