/** A reading caught mid-stream (issue 58's faults), and what its popup must show after them, in Chromium. */
import type { Page } from '@playwright/test';
import { formatRubPlain } from '../../utils/money/money.ts';
import type { FakeService } from '../fake-service/server.ts';
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { untilAnswerUnderWay } from '../fixtures/under-way.ts';
import type { PagesServer } from './pages-server.ts';
import { expect, player, type ExtensionHelpers } from './fixtures.ts';

/** Synthesis at 3× real time: a part's audio is still arriving while it plays, as with the real service. */
export const STREAMING_SERVICE = { msPerChar: 4, minMs: 50, realtimeFactor: 3 };

/** A reading of a `chars`-character article (titled `title`) playing, an answer streaming about 2 s of its audio in (`untilAnswerUnderWay`). */
export async function readingMidStream(ext: ExtensionHelpers, service: FakeService, pages: PagesServer, chars: number, title?: string): Promise<{ tabId: number; popup: Page }> {
  await ext.configure({ threshold: '1000' });
  pages.put('/long.html', makeArticleHtml(chars, title));
  const { tabId } = await ext.openTab('long.html');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'playing');
  await untilAnswerUnderWay(service);
  return { tabId, popup };
}

/** The popup's cost and characters are the sums of what the service billed, and no error is shown. */
export async function expectShownAsBilled(popup: Page, service: FakeService): Promise<void> {
  const log = service.speechLog();
  await expect(popup.getByTestId('cost')).toHaveAttribute('data-value', formatRubPlain(log.reduce((n, e) => n + BigInt(e.costUnits), 0n)));
  await expect(popup.getByTestId('chars')).toHaveAttribute('data-value', String(log.reduce((n, e) => n + e.billedChars, 0)));
  await expect(popup.getByTestId('error')).toHaveAttribute('data-code', '');
}
