/**
 * The listening queue wired to the browser (background): the stored queue, each entry read as a queued
 * page (`page-text/sources.ts`), the page's origin asked for when an entry is added, and the count of each
 * entry for the popup's estimate.
 */
import { browser } from 'wxt/browser';
import { ignore, logIgnored } from '../log';
import { readingOf, textOf } from '../page-text/sources';
import { originPattern } from '../speech/base-url';
import { queueable, queueRunStorage, queueStorage, type QueueEntry } from '../storage/queue';
import { accountStorage, readSettings } from '../storage/settings';
import { boundTitle } from '../text/title';
import { siteName } from '../text/urls';
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

export function listeningQueue(reader: Reader) {
  const queue = new ListeningQueue({
    load: () => queueStorage.getValue(),
    save: (q) => queueStorage.setValue(q),
    saveRun: (run) => queueRunStorage.setValue(run),
    // After the view change that led here is written (a start inside the reader's own update would nest).
    start: (entry, id) =>
      void setTimeout(() => void reader.start({ id, ...readingOf({ kind: 'queued', url: entry.url }) }), 0),
    sleepDone: () => void reader.setSleepTimer(null).catch(ignore('ending the sleep timer')),
    newId: () => crypto.randomUUID(),
  });
  void queueRunStorage.getValue().then((run) => queue.restore(run), ignore('reading the queue run'));

  /** Counts the entry now (its text is fetched again when its turn comes), for the popup's estimate. */
  async function count(entry: QueueEntry): Promise<void> {
    try {
      const text = await textOf({ kind: 'queued', url: entry.url });
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
