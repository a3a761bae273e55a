/**
 * `npx tsx bench/corpus.ts [corpusDir] [extensionDir]`: what the extension would bill on a corpus of
 * saved pages (one folder a page with `source.html`, the layout of mozilla/readability's
 * test-pages). For each page: characters billed, left out, and the junk still billed (text with no
 * letter, table-of-contents leaders, box drawing, reference-list lines). A measuring tool, not a test:
 * it needs the test build (`npx wxt build --mode test`) and a corpus on disk.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { launchWithExtension, serviceWorkerOf } from '../tests/e2e/chromium.ts';
import { startPagesServer } from '../tests/e2e/pages-server.ts';
import { junkIn } from '../tests/fixtures/junk.ts';
import { planParts } from '../utils/reading/plan.ts';
import type { ExtractedText } from '../utils/text/extract.ts';

const corpus = resolve(process.argv[2] ?? process.env.TRYSASHA_CORPUS ?? '../shared/corpus');
const extensionDir = process.argv[3] ? resolve(process.argv[3]) : undefined;
const only = process.env.ONLY?.split(',');

async function main() {
  const pages = readdirSync(corpus).filter((d) => existsSync(join(corpus, d, 'source.html')) && (!only || only.includes(d)));
  const server = await startPagesServer(corpus);
  const browser = await launchWithExtension(extensionDir ? { extensionDir } : {});
  const sw = await serviceWorkerOf(browser.context);
  // Saved pages still point at their sites' scripts, images and fonts: nothing leaves this machine.
  await browser.context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort());
  const rows: Array<Record<string, string | number>> = [];
  for (const name of pages) {
    const page = await browser.context.newPage();
    try {
      await page.goto(`${server.url}/${name}/source.html`, { waitUntil: 'domcontentloaded', timeout: 20_000 }).catch(() => undefined);
      const text = (await sw.evaluate(async (url) => {
        const tab = (await chrome.tabs.query({})).find((t) => t.url === url)!;
        await chrome.scripting.executeScript({ target: { tabId: tab.id! }, files: ['/extract.js'] });
        const answer = await chrome.tabs.sendMessage(tab.id!, { id: 1, type: 'extract', data: { mode: 'normal' }, timestamp: Date.now() });
        return (answer as { res?: unknown; err?: unknown }).res ?? (answer as { res?: unknown }).res;
      }, page.url())) as ExtractedText | undefined;
      if (!text?.blocks) throw new Error('no answer');
      const planned = planParts(text.blocks);
      const billed = planned.parts.map((p) => p.text).join('\n');
      const row: Record<string, string | number> = {
        page: name,
        billed: planned.estimateChars,
        leftOut: (text.leftOutChars ?? 0) + planned.silentChars,
        ms: text.tookMs ?? 0,
      };
      const junk = junkIn(billed);
      Object.assign(row, junk);
      row.junkPct = planned.estimateChars ? Math.round((Object.values(junk).reduce((a, b) => a + b, 0) / planned.estimateChars) * 1000) / 10 : 0;
      rows.push(row);
      if (process.env.DUMP) writeFileSync(join(process.env.DUMP, `${name}.txt`), billed);
    } catch (err) {
      rows.push({ page: name, error: String(err).slice(0, 80) });
    } finally {
      await page.close();
    }
  }
  await browser.close();
  await server.close();
  console.table(rows);
  if (process.env.JSON) writeFileSync(process.env.JSON, JSON.stringify(rows, null, 1));
}

void main();
