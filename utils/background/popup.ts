/**
 * The popup's reading: its start (the PDF page's too, the one message it sends besides `getSettings`),
 * its controls, and Save as MP3's estimate and fetch.
 */
import { ignore } from '../log';
import { onPageMessage, senderOf, tabToStart } from '../messaging/protocol';
import { readyTab } from '../page-text/tab-text';
import { readingOf } from '../page-text/sources';
import { type BackgroundContext, onAbort } from './context';

export function init(signal: AbortSignal, { reader, runCommand }: Pick<BackgroundContext, 'reader' | 'runCommand'>): void {
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
      // Answered once decided: the popup shows the new reading at once, not the last one's end until its first view.
      return new Promise<{ starts: boolean }>((answer) => {
        const decided = (starts: boolean) => {
          answer({ starts });
          if (!starts) void readyTab(tabId);
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
