/**
 * The listening queue wired to the browser (background): the stored queue, the article fetch (parsed in
 * Chrome's offscreen document, or in Firefox's background page itself), the page's origin asked for
 * when an entry is added, and the count of each entry for the popup's estimate.
 */
import { browser } from 'wxt/browser';
import { ensureOffscreenDocument } from '../audio/offscreen-sink';
import { ignore, logIgnored } from '../log';
import { sendToOffscreen } from '../messaging/offscreen';
import { isNoReceiver } from '../messaging/content';
import { originPattern } from '../speech/base-url';
import { queueable, queueRunStorage, queueStorage, type QueueEntry } from '../storage/queue';
import { accountStorage, cleanupOf, readSettings } from '../storage/settings';
import { parseArticle } from '../text/parse-article';
import { boundTitle } from '../text/title';
import { siteName } from '../text/urls';
import { type ArticleDeps, fetchArticle } from './article-fetch';
import { localReachable } from '../net/bounded-fetch';
import { planReading } from '../reading/plan';
import { ListeningQueue } from './queue';
import type { Reader } from '../reading/reader';

const isWebPage = (url: string) => /^https?:\/\//i.test(url);

const hostOf = (url: string) => {
  try {
    return siteName(new URL(url).hostname);
  } catch {
    return '';
  }
};

const articleDeps: ArticleDeps = {
  fetch: (url, init) => fetch(url, init),
  // Without the site's access the browser would refuse the download (CORS) with no reason given.
  // Loopback is granted by the manifest: a queued link there is read only when the service is there too.
  mayReach: async (url) => localReachable(url, (await readSettings()).baseUrl) && browser.permissions.contains({ origins: [originPattern(url.href)] }),
  async parse(html, url, choices) {
    if (import.meta.env.FIREFOX) return parseArticle(html, url, choices);
    // A document created a moment ago may not listen yet: asked again, a few times, shortly after.
    for (let attempt = 0; ; attempt++) {
      await ensureOffscreenDocument();
      try {
        return await sendToOffscreen('parseArticle', { html, url, choices });
      } catch (err) {
        if (attempt >= 4 || !isNoReceiver(err)) throw err;
        await new Promise((r) => setTimeout(r, 100 * (attempt + 1)));
      }
    }
  },
  async choices() {
    const settings = await readSettings();
    const { readCode, leaveOutCaptions, leaveOutTables } = cleanupOf(settings);
    return { keepReferences: settings.readReferences === true, readCode, leaveOutCaptions, leaveOutTables };
  },
};

export function listeningQueue(reader: Reader) {
  const queue = new ListeningQueue({
    load: () => queueStorage.getValue(),
    save: (q) => queueStorage.setValue(q),
    saveRun: (run) => queueRunStorage.setValue(run),
    // After the view change that led here is written (a start inside the reader's own update would nest).
    start: (entry, id) =>
      void setTimeout(() => void reader.start({ id, tabId: null, source: 'article', extract: () => fetchArticle(entry.url, articleDeps) }), 0),
    sleepDone: () => void reader.setSleepTimer(null).catch(ignore('ending the sleep timer')),
    newId: () => crypto.randomUUID(),
  });
  void queueRunStorage.getValue().then((run) => queue.restore(run), ignore('reading the queue run'));

  /** Counts the entry now (its text is fetched again when its turn comes), for the popup's estimate. */
  async function count(entry: QueueEntry): Promise<void> {
    try {
      const text = await fetchArticle(entry.url, articleDeps);
      const [settings, account] = await Promise.all([readSettings(), accountStorage.getValue()]);
      const price = account ?? { name: '', provider: '', balanceRub: '0', pricePerMillionRub: '0', maxConcurrency: 1, checkedAt: 0 };
      const planned = planReading('count', text, settings, price);
      await queue.update(entry.id, { chars: planned.view.estimateChars, title: boundTitle(text.title) || entry.title, site: siteName(text.site ?? '') || entry.site });
    } catch (err) {
      // Counted when its turn comes, and an error shown then.
      logIgnored('counting a queued page', err);
    }
  }

  /**
   * From the context menu: the page's origin is asked for in the click itself (Firefox refuses a request
   * made later); an origin already granted resolves at once, with no prompt.
   */
  function addToQueue(url: string, title: string): void {
    if (!isWebPage(url) || !queueable(url)) return;
    const pattern = originPattern(url);
    const asked = browser.permissions.request({ origins: [pattern] }).catch(() => browser.permissions.contains({ origins: [pattern] }));
    const entry: QueueEntry = { id: crypto.randomUUID(), url, title: boundTitle(title.trim()) || url, site: hostOf(url), chars: null, addedAt: Date.now() };
    void queue
      .add(entry)
      .then(() => asked)
      .then((granted) => (granted ? count(entry) : undefined))
      .catch(ignore('adding to the listening queue'));
  }

  return { queue, addToQueue };
}
