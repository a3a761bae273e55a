/**
 * What the extension would bill on a saved page: the page opened in Chromium with the extension, its
 * extract script asked as a reading asks it (default settings), and the text planned into parts as the
 * background plans it. Shared by the corpus measures (`bench/corpus.ts`, `bench/precision.ts`).
 */
import type { BrowserContext, Worker } from 'playwright-core';
import { planParts } from '../utils/reading/plan.ts';
import type { ExtractedText } from '../utils/text/extract.ts';

/**
 * The extract request's clean-up choices as a new install has them (`cleanupOf` in `storage/settings.ts`,
 * which cannot be loaded outside an extension: its module opens the extension's storage).
 */
export const DEFAULT_CHOICES = { keepReferences: false, readCode: false, leaveOutCaptions: true, leaveOutTables: false };

export interface Billed {
  text: ExtractedText;
  /** The parts' text joined, as the service would get it. */
  billed: string;
  billedChars: number;
  leftOutChars: number;
}

/** `request`: the extract request's choices over the defaults (e.g. `{ leaveOutCaptions: false }`). */
export async function billedOn(context: BrowserContext, sw: Worker, url: string, request: Record<string, unknown> = {}): Promise<Billed> {
  const page = await context.newPage();
  try {
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 20_000 }).catch(() => undefined);
    const choices = { ...DEFAULT_CHOICES, ...request };
    const text = (await sw.evaluate(async ({ url, choices }) => {
      const tab = (await chrome.tabs.query({})).find((t) => t.url === url)!;
      await chrome.scripting.executeScript({ target: { tabId: tab.id! }, files: ['/extract.js'] });
      const answer = await chrome.tabs.sendMessage(tab.id!, { id: 1, type: 'extract', data: { mode: 'normal', ...choices }, timestamp: Date.now() }, { frameId: 0 });
      return (answer as { res?: unknown }).res;
    }, { url: page.url(), choices })) as ExtractedText | undefined;
    if (!text?.blocks) throw new Error('no answer');
    const planned = planParts(text.blocks);
    return { text, billed: planned.parts.map((p) => p.text).join('\n'), billedChars: planned.estimateChars, leftOutChars: (text.leftOutChars ?? 0) + planned.silentChars };
  } finally {
    await page.close();
  }
}

/** Saved pages point at their sites' scripts, images and fonts: nothing leaves this machine. */
export async function offline(context: BrowserContext): Promise<void> {
  await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort());
}
