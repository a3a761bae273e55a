/**
 * The popup's reading: its start (the PDF page's too, the one message it sends besides `getSettings`),
 * its controls, and Save as MP3's estimate and fetch.
 */
import { ignore } from '../log';
import { onPageMessage, senderOf, tabToStart } from '../messaging/protocol';
import { readyTab } from '../page-text/tab-text';
import { readingOf } from '../page-text/sources';
import { type BackgroundContext, onAbort } from './context';
import { underWay } from './under-way';

/** A reading the popup started is answered at the latest this long after it began, under way or not. */
const START_ANSWER_WAIT_MS = 300;

export function init(signal: AbortSignal, { reader, runCommand, onView }: Pick<BackgroundContext, 'reader' | 'runCommand' | 'onView'>): void {
  onAbort(
    signal,
    onPageMessage('startReading', ({ data, sender }) => {
      const tabId = tabToStart(senderOf(sender), data.tabId, sender.tab?.id);
      if (tabId === null) throw new Error('refused');
      const req = readingOf({ kind: 'tab', tabId });
      if (data.force) {
        void reader.start(req);
        return { starts: true };
      }
      // Answered once decided, and a reading started once it plays (or asks first, or failed; at the latest
      // START_ANSWER_WAIT_MS after): the popup's page loads its bundle after the answer, and loading it beside
      // the reading's start delayed the first audio (bench/HISTORY.md).
      return new Promise<{ starts: boolean }>((answer) => {
        const decided = (starts: boolean) => {
          if (starts) return void underWay(onView, reader.view.id, ['extracting', 'loading'], START_ANSWER_WAIT_MS).then(() => answer({ starts }));
          answer({ starts });
          void readyTab(tabId);
        };
        reader.startUnlessActive(req, decided).catch((err: unknown) => {
          // Failed before deciding, nothing started (after it, the answer was given: only logged).
          answer({ starts: false });
          ignore('starting a reading')(err);
        });
      });
    }),
    onPageMessage('command', ({ data }) => runCommand(data.command)),
    onPageMessage('jumpTo', ({ data }) => {
      return reader.jumpTo(data.part);
    }),
    // Only the tab being read moves its reading (`jumpToBlock` checks the reading is that tab's).
    onPageMessage('jumpToBlock', async ({ data, sender }) => ({ jumped: sender.tab?.id !== undefined && (await reader.jumpToBlock(sender.tab.id, data.block)) })),
    onPageMessage('resumeFromOffer', () => {
      return reader.resumeFromOffer();
    }),
    onPageMessage('setBlockOn', ({ data }) => {
      return reader.setBlockOn(data.block, data.on);
    }),
    onPageMessage('setPlayback', ({ data }) => {
      return reader.setPlayback(data);
    }),
    onPageMessage('setSleepTimer', ({ data }) => {
      return reader.setSleepTimer(data.minutes, data.atEnd === true, data.atChapter === true);
    }),
    onPageMessage('saveEstimate', ({ data }) => {
      return reader.saveEstimate(data.chapter === true);
    }),
    onPageMessage('fetchForSave', ({ data }) => {
      return reader.fetchMissing(data);
    }),
  );
}
