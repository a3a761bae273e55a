import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { pdfBytes } from '../fixtures/pdfs.ts';
import { bookBytes } from '../fixtures/books.ts';
import { recordControlsPlace, recordedControlsPlace } from '../fixtures/controls-place.ts';
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { expect, player, test } from './fixtures.ts';

const SCHEMES = ['light', 'dark'] as const;

/** Serious and critical accessibility problems (labels, names, contrast, roles) found by axe. */
async function axeProblems(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

for (const scheme of SCHEMES) {
  test(`the popup in the ${scheme} theme: looks as designed and has no accessibility problems`, async ({ ext }) => {
    // A fixed state: the confirmation of the sample article (the estimate is above a tiny threshold).
    await ext.configure({ threshold: '0.0001' });
    const { tabId } = await ext.openTab('sample-article.html');
    const popup = await ext.openPopup(tabId);
    await popup.emulateMedia({ colorScheme: scheme });
    await expect(player(popup)).toHaveAttribute('data-state', 'confirm');
    await popup.setViewportSize({ width: 360, height: 640 });
    expect(await axeProblems(popup)).toEqual([]);
    await expect(popup.locator('main.popup')).toHaveScreenshot(`popup-${scheme}.png`, { maxDiffPixelRatio: 0.01 });
  });

  test(`the options page in the ${scheme} theme: looks as designed and has no accessibility problems`, async ({ ext }) => {
    await ext.configure();
    const options = await ext.openOptions();
    await options.emulateMedia({ colorScheme: scheme });
    await expect(options.getByTestId('account')).toBeVisible();
    expect(await axeProblems(options)).toEqual([]);
    // The local service's port changes from run to run: its field is masked.
    await expect(options).toHaveScreenshot(`options-${scheme}.png`, {
      fullPage: true,
      maxDiffPixelRatio: 0.01,
      mask: [options.getByTestId('base-url')],
    });
  });
}

for (const scheme of SCHEMES) {
  test(`the welcome page in the ${scheme} theme, with a key that works: no accessibility problems`, async ({ ext, context }) => {
    await ext.configure();
    const page = await context.newPage();
    await page.goto(ext.url('welcome.html'));
    await page.emulateMedia({ colorScheme: scheme });
    await page.getByTestId('welcome-key').fill('vk_live_test_key');
    await page.getByTestId('welcome-save').click();
    await expect(page.getByTestId('account')).toBeVisible();
    await expect(page.getByTestId('try-sample')).toBeEnabled();
    expect(await axeProblems(page)).toEqual([]);
  });
}

for (const scheme of SCHEMES) {
  test(`the PDF page in the ${scheme} theme, a document shown and its bar ready: no accessibility problems`, async ({ ext, pages }) => {
    await ext.configure({ threshold: '0.0001' });
    pages.putFile('/paper.pdf', await pdfBytes('article'), 'application/pdf');
    const { page, tabId } = await ext.openTab(`${pages.url}/paper.pdf`);
    await page.emulateMedia({ colorScheme: scheme });
    // The popup turns the tab into the extension's PDF page, and asks first (the estimate is over the threshold).
    const popup = await ext.openPopup(tabId);
    await expect(page).toHaveURL(/\/pdf\.html\?/);
    await expect(player(popup)).toHaveAttribute('data-state', 'confirm');
    await expect(page.getByTestId('pdf-toolbar')).toHaveAttribute('data-pages', /[1-9]/);
    await expect(page.locator('.textLayer span').first()).toBeAttached();
    expect(await axeProblems(page)).toEqual([]);
  });
}

for (const scheme of SCHEMES) {
  test(`the book page in the ${scheme} theme, a book open and a chapter being read: no accessibility problems`, async ({ ext, pages }) => {
    await ext.configure();
    pages.putFile('/books/chekhov.fb2', await bookBytes('chekhov.fb2'), 'application/x-fictionbook+xml');
    const { page } = await ext.openTab(ext.url(`book.html?file=${encodeURIComponent(`${pages.url}/books/chekhov.fb2`)}`));
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.getByTestId('book-title')).toHaveAttribute('data-title', /./);
    await page.getByTestId('toc-item').nth(2).click();
    await expect(page.getByTestId('book-text').locator('p').first()).toBeVisible();
    expect(await axeProblems(page)).toEqual([]);
    // Nothing under 12 px, and the text at a reading size.
    const sizes = await page.evaluate(textSizes, '#book-text');
    expect(sizes.smallest).toBeGreaterThanOrEqual(12);
    expect(sizes.overflows).toBe(false);
  });
}

/** Run in a page: the smallest computed font size of any visible text, and whether `sel` scrolls sideways. */
function textSizes(sel: string) {
  let smallest = Infinity;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent?.trim() || !el?.checkVisibility()) continue;
    smallest = Math.min(smallest, parseFloat(getComputedStyle(el).fontSize));
  }
  const box = document.querySelector(sel)!;
  return { body: parseFloat(getComputedStyle(document.body).fontSize), smallest, overflows: box.scrollWidth > box.clientWidth };
}

test('text is readable in Chromium: a 14 px body (not Chromium’s 75 % default for extension pages), nothing under 12 px, no sideways scrolling', async ({ ext }) => {
  await ext.configure({ threshold: '0.0001' });
  const { tabId } = await ext.openTab('sample-article.html');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'confirm');
  const inPopup = await popup.evaluate(textSizes, 'main.popup');
  expect(inPopup.body).toBeGreaterThanOrEqual(13);
  expect(inPopup.smallest).toBeGreaterThanOrEqual(12);
  expect(inPopup.overflows).toBe(false);
  const options = await ext.openOptions();
  await expect(options.getByTestId('account')).toBeVisible();
  const inOptions = await options.evaluate(textSizes, 'main');
  expect(inOptions.body).toBeGreaterThanOrEqual(13);
  expect(inOptions.smallest).toBeGreaterThanOrEqual(12);
});

test('every popup control is reachable by keyboard and has a name', async ({ ext, pages }) => {
  await ext.configure({ threshold: '1000' });
  pages.put('/p.html', '<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Т</title></head><body><article><p>Одно короткое предложение для проверки клавиатуры.</p><p>Второе предложение.</p></article></body></html>');
  const { tabId } = await ext.openTab('p.html');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'finished');
  const reached = new Set<string>();
  for (let i = 0; i < 30; i++) {
    await popup.keyboard.press('Tab');
    const id = await popup.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? '');
    if (id) reached.add(id);
  }
  for (const id of ['play-pause', 'speed', 'volume', 'save-mp3']) expect(reached).toContain(id);
  // Buttons disabled while nothing is active are still named for screen readers.
  for (const id of ['play-pause', 'stop', 'next', 'prev']) {
    await expect(popup.getByTestId(id)).toHaveAccessibleName(/.+/);
  }
  // Space on the focused play button starts reading the page again.
  await popup.getByTestId('play-pause').focus();
  await popup.keyboard.press('Space');
  await expect(player(popup)).toHaveAttribute('data-state', /loading|playing|finished/);
});

test("the popup's controls stay where they are while a reading starts, counts its article and plays: a click meant for stop lands on stop", async ({ ext, context, pages }) => {
  await ext.configure({ threshold: '1000' });
  // Read title first: the estimate is counted while the first part plays, its note shown meanwhile.
  pages.put('/counted.html', makeArticleHtml(15_000, 'Статья, которую считают на ходу'));
  const { tabId } = await ext.openTab('counted.html');
  // Opened as the toolbar opens it over a page: nothing starts until play is pressed.
  const popup = await context.newPage();
  await popup.goto(ext.url(`popup.html?tabId=${tabId}&from=toolbar`));
  await expect(popup.getByTestId('play-pause')).toBeEnabled();
  await popup.evaluate(recordControlsPlace);
  await popup.getByTestId('play-pause').click();
  await expect(player(popup)).toHaveAttribute('data-state', 'playing');
  await expect(popup.getByTestId('estimate')).toHaveAttribute('data-counting', 'false');
  await expect(popup.getByTestId('wait-note')).toHaveCount(0);
  const seen = await popup.evaluate(recordedControlsPlace);
  // The start was seen through: its title and progress arriving, the count under way, then playing.
  expect(seen.some((s) => s.counting)).toBe(true);
  expect(seen.at(-1)?.state).toBe('playing');
  expect(new Set(seen.map((s) => `${s.left},${s.top}`)), JSON.stringify(seen)).toHaveProperty('size', 1);
  await popup.getByTestId('stop').click();
  await expect(player(popup)).toHaveAttribute('data-state', 'stopped');
});
