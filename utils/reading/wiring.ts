import pLimit from 'p-limit';
import { browser } from 'wxt/browser';
import { AudioCache, indexedDbBackend } from '../audio/cache';
import type { PlayerSink } from '../audio/offscreen-sink';
import type { PageMessage } from '../text/page-reader';
import { Reader } from './session';
import { readingPlanStorage, readingViewStorage } from './state';
import { getApiKey } from '../storage/key-store';
import { accountStorage, playbackStorage, settingsStorage } from '../storage/settings';
import { fetchAccount, openSpeechStream } from '../speech/client';
import { appendUsage, usageStorage } from '../storage/usage-history';

export const uiLocale = (): 'ru' | 'en' => (browser.i18n.getUILanguage().toLowerCase().startsWith('ru') ? 'ru' : 'en');

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
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

/** History writes are read-modify-write: one at a time. */
const usageWrites = pLimit(1);

/** The background's one reader, wired to the real browser, storage and service. */
export function createReader(player: PlayerSink): Reader {
  return new Reader({
    async getAuth() {
      const key = await getApiKey();
      if (!key) return null;
      return { key, baseUrl: (await settingsStorage.getValue()).baseUrl };
    },
    getSettings: () => settingsStorage.getValue(),
    getPlayback: () => playbackStorage.getValue(),
    savePlayback: (playback) => playbackStorage.setValue(playback),
    getAccount: () => accountStorage.getValue(),
    async refreshAccount(auth) {
      const account = await fetchAccount(auth, AbortSignal.timeout(15_000));
      await accountStorage.setValue(account);
      return account;
    },
    openStream: (auth, body, signal) => openSpeechStream(auth, body, { signal }),
    player,
    cache: audioCache,
    saveView: (view) => readingViewStorage.setValue(view),
    savePlan: (plan) => readingPlanStorage.setValue(plan),
    loadSaved: async () => ({ view: await readingViewStorage.getValue(), plan: await readingPlanStorage.getValue() }),
    sleep,
    badge(code) {
      // A reading started from the menu or a shortcut has no popup open: its error shows on the icon.
      // MV2 (Firefox) names it browserAction.
      const action = browser.action ?? browser.browserAction;
      void action.setBadgeText({ text: code ? '!' : '' }).catch(() => undefined);
      if (code) void action.setBadgeBackgroundColor({ color: '#b91c1c' }).catch(() => undefined);
    },
    recordUsage(entry) {
      usageWrites(async () => usageStorage.setValue(appendUsage(await usageStorage.getValue(), entry))).catch(() => undefined);
    },
    highlight(tabId, sentence) {
      const message: PageMessage = sentence === null ? { type: 'trysasha-clear-highlight' } : { type: 'trysasha-highlight', text: sentence };
      // Pages that could not be scripted (the PDF viewer) have no listener: nothing to mark there.
      browser.tabs.sendMessage(tabId, message).catch(() => undefined);
    },
    locale: uiLocale,
    newId: () => crypto.randomUUID(),
  });
}
