import pLimit from 'p-limit';
import { browser } from 'wxt/browser';
import { AudioCache, indexedDbBackend } from '../audio/cache';
import { ignore } from '../log';
import { sendToPage } from '../messaging/content';
import type { PlayerSink } from '../messaging/player';
import { fetchAccount, openSpeechStream, type Auth } from '../speech/client';
import { PRIORITY, RequestSlots } from '../speech/slots';
import { getApiKey } from '../storage/key-store';
import { accountStorage, type AccountInfo, playbackStorage, settingsStorage } from '../storage/settings';
import { appendUsage, usageStorage } from '../storage/usage-history';
import { ReadingError } from './plan';
import { loadPlan, savePlan } from './plan-store';
import { Reader } from './session';
import { readingViewStorage, runProgressStorage } from './state';

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** Audio paid for, kept across worker restarts and browser sessions (cleared with the key). */
export const audioCache = new AudioCache(indexedDbBackend());

/** Every request to the service takes one of these: never more in flight than the account allows. */
export const requestSlots = new RequestSlots(1);

/** The key and the service address as they are now: read for every request, so a removed key is never sent. */
async function currentAuth(): Promise<Auth> {
  const key = await getApiKey();
  if (!key) throw new ReadingError('no-key');
  return { key, baseUrl: (await settingsStorage.getValue()).baseUrl };
}

/** `GET /v1/account` through a request slot (the options page's check and the reading's refresh). */
export async function checkAccount(auth: Auth, signal: AbortSignal = AbortSignal.timeout(15_000)): Promise<AccountInfo> {
  const slot = await requestSlots.acquire(PRIORITY.now, signal);
  try {
    const account = await fetchAccount(auth, signal);
    requestSlots.setLimit(account.maxConcurrency);
    return account;
  } finally {
    slot.release();
  }
}

/** History writes are read-modify-write: one at a time. */
const usageWrites = pLimit(1);

/** The background's one reader, wired to the real browser, storage and service. */
export function createReader(player: PlayerSink): Reader {
  return new Reader({
    hasKey: async () => (await getApiKey()) !== null,
    getSettings: () => settingsStorage.getValue(),
    getPlayback: () => playbackStorage.getValue(),
    savePlayback: (playback) => playbackStorage.setValue(playback),
    getAccount: () => accountStorage.getValue(),
    async refreshAccount() {
      const account = await checkAccount(await currentAuth());
      await accountStorage.setValue(account);
      return account;
    },
    slots: requestSlots,
    open: async (body, signal) => openSpeechStream(await currentAuth(), body, { signal }),
    sleep,
    player,
    cache: audioCache,
    store: {
      saveView: (view) => readingViewStorage.setValue(view),
      savePlan,
      saveProgress: (progress) => runProgressStorage.setValue(progress),
      load: async () => ({ view: await readingViewStorage.getValue(), plan: await loadPlan(), progress: await runProgressStorage.getValue() }),
    },
    badge(code) {
      // A reading started from the menu or a shortcut has no popup open: its error shows on the icon.
      // MV2 (Firefox) names it browserAction.
      const action = browser.action ?? browser.browserAction;
      void action.setBadgeText({ text: code ? '!' : '' }).catch(ignore('setting the toolbar badge'));
      if (code) void action.setBadgeBackgroundColor({ color: '#b91c1c' }).catch(ignore('setting the toolbar badge'));
    },
    recordUsage(entry) {
      usageWrites(async () => usageStorage.setValue(appendUsage(await usageStorage.getValue(), entry))).catch(ignore('writing the usage history'));
    },
    highlight(tabId, sentence) {
      const sent: Promise<unknown> = sentence === null ? sendToPage('clearHighlight', undefined, tabId) : sendToPage('highlight', sentence, tabId);
      // Pages that could not be scripted (the PDF viewer) have no receiver: nothing to mark there (logged once).
      void sent.catch(ignore('page highlight'));
    },
    newId: () => crypto.randomUUID(),
    now: () => Date.now(),
  });
}
