/**
 * What the extension fetches stays bounded, in Firefox (issue 45): a queued link that leads on to
 * another local address is not read; a page or a PDF past its size bound ends in `too-large`; nothing
 * of either is billed.
 */
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { pdfBytes } from '../fixtures/pdfs.ts';
import { startPagesServer } from '../e2e/pages-server.ts';
import { click, evaluate } from './firefox.ts';
import { attr, type Ext, type FirefoxHelpers, type Hooks, expect, state, test } from './fixtures.ts';

test.use({ serviceOptions: { msPerChar: 1, minMs: 50 } });

async function addLink(ext: FirefoxHelpers, tabId: number, linkUrl: string) {
  await evaluate(
    await ext.extensionPage(),
    async (tabId: number, linkUrl: string) => {
      const { browser } = globalThis as unknown as Ext;
      const bg = (await browser.runtime.getBackgroundPage()) as unknown as Hooks;
      const tab = await browser.tabs.get(tabId);
      bg.contextMenuClick({ editable: false, pageUrl: tab.url, menuItemId: 'queue-add-link', linkUrl }, tab);
    },
    tabId,
    linkUrl,
  );
}

/** Adds `linkUrl` to the queue and plays it; the error code it ends with. */
async function playQueued(ext: FirefoxHelpers, pages: { put(p: string, h: string): void }, linkUrl: string) {
  pages.put('/links.html', '<!doctype html><html><head><meta charset="utf-8"><title>Ссылки</title></head><body><p>Ссылка.</p></body></html>');
  const links = await ext.openTab('links.html');
  await addLink(ext, links.tabId, linkUrl);
  const popup = await ext.openPopup(links.tabId);
  await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('finished');
  await expect.poll(() => attr(popup, 'queue', 'data-count')).toBe('1');
  return popup;
}

test('a queued link that leads on to another local address is refused, and nothing is billed', async ({ ext, service, pages }) => {
  test.setTimeout(60_000);
  await ext.configure();
  const local = await startPagesServer();
  try {
    local.put('/secret.html', makeArticleHtml(900, 'Секретная страница роутера'));
    pages.redirect('/short-link', `${local.url.replace('127.0.0.1', 'localhost')}/secret.html`);
    const popup = await playQueued(ext, pages, `${pages.url}/short-link`);
    service.resetLog();
    await click(popup, '[data-testid="queue-play"]');
    await expect.poll(() => attr(popup, 'error', 'data-code'), { timeout: 30_000 }).toBe('redirect-refused');
    expect(service.speechLog()).toEqual([]);
  } finally {
    await local.close();
  }
});

test('a queued page past 8 MB ends in too-large as soon as it passes, and nothing is billed', async ({ ext, service, pages }) => {
  test.setTimeout(60_000);
  await ext.configure();
  pages.putHuge('/huge.html', { type: 'text/html; charset=utf-8', size: 64 * 1024 * 1024, head: '<!doctype html><title>Огромная</title><p>', declareLength: false });
  const popup = await playQueued(ext, pages, `${pages.url}/huge.html`);
  service.resetLog();
  await click(popup, '[data-testid="queue-play"]');
  await expect.poll(() => attr(popup, 'error', 'data-code'), { timeout: 30_000 }).toBe('too-large');
  expect(service.speechLog()).toEqual([]);
  // Downloaded twice (counted when added, fetched at its turn), each stopped soon after the bound: both together sent
  // less than one whole page (what leaves the server includes the sockets' buffers: 34 MB in one Firefox run).
  expect(pages.sent('/huge.html')).toBeLessThan(64 * 1024 * 1024);
});

test('a PDF past 200 MB ends in too-large before it is downloaded, and nothing is billed', async ({ ext, service, pages }) => {
  test.setTimeout(60_000);
  await ext.configure();
  pages.putHuge('/huge.pdf', { type: 'application/pdf', size: 210 * 1024 * 1024, head: '%PDF-1.4\n', declareLength: true, pageBody: await pdfBytes('article') });
  const { tabId } = await ext.openTab(`${pages.url}/huge.pdf`);
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => attr(popup, 'error', 'data-code'), { timeout: 30_000 }).toBe('too-large');
  expect(service.speechLog()).toEqual([]);
  expect(pages.sent('/huge.pdf')).toBeLessThan(32 * 1024 * 1024);
});

test('a PDF whose download the site sends on to another local address is refused, and nothing of it is read or billed', async ({ ext, service, pages }) => {
  test.setTimeout(60_000);
  await ext.configure();
  // The tab shows the site's PDF; the extension's download of the same address is redirected to "this computer".
  const local = await startPagesServer();
  try {
    local.putFile('/secret.pdf', await pdfBytes('columns'), 'application/pdf');
    pages.putFile('/paper.pdf', await pdfBytes('article'), 'application/pdf');
    pages.redirect('/paper.pdf', `${local.url}/secret.pdf`, { exceptPage: true });
    const { tabId } = await ext.openTab(`${pages.url}/paper.pdf`);
    const popup = await ext.openPopup(tabId);
    await expect.poll(() => attr(popup, 'error', 'data-code'), { timeout: 30_000 }).toBe('redirect-refused');
    expect(service.speechLog()).toEqual([]);
  } finally {
    await local.close();
  }
});
