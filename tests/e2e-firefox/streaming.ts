/** A reading caught mid-stream (issue 58's faults), and what its popup must show after them, in Firefox. */
import type { Page } from 'puppeteer-core';
import { formatRubPlain } from '../../utils/money/money.ts';
import type { FakeService } from '../fake-service/server.ts';
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { untilAnswerUnderWay } from '../fixtures/under-way.ts';
import type { PagesServer } from '../e2e/pages-server.ts';
import { attr, expect, state, type FirefoxHelpers } from './fixtures.ts';

export { STREAMING_SERVICE } from '../e2e/streaming.ts';

/** A reading of a `chars`-character article (titled `title`) playing, an answer streaming about 2 s of its audio in (`untilAnswerUnderWay`). */
export async function readingMidStream(ext: FirefoxHelpers, service: FakeService, pages: PagesServer, chars: number, title?: string): Promise<{ tabId: number; popup: Page }> {
  await ext.configure({ threshold: '1000' });
  pages.put('/long.html', makeArticleHtml(chars, title));
  const { tabId } = await ext.openTab('long.html');
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup)).toBe('playing');
  await untilAnswerUnderWay(service);
  return { tabId, popup };
}

/** The popup's cost and characters are the sums of what the service billed, and no error is shown. */
export async function expectShownAsBilled(popup: Page, service: FakeService): Promise<void> {
  const log = service.speechLog();
  expect(await attr(popup, 'cost', 'data-value')).toBe(formatRubPlain(log.reduce((n, e) => n + BigInt(e.costUnits), 0n)));
  expect(await attr(popup, 'chars', 'data-value')).toBe(String(log.reduce((n, e) => n + e.billedChars, 0)));
  expect(await attr(popup, 'error', 'data-code')).toBe('');
}
