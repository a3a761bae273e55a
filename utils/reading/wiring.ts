import { browser } from 'wxt/browser';
import { AudioCache, indexedDbBackend } from '../audio/cache';
import { ignore } from '../log';
import { sendToPage } from '../messaging/content';
import type { PlayerSink } from '../audio/player-protocol';
import { fetchAccount, openSpeechStream, type Auth } from '../speech/client';
import { PRIORITY, RequestSlots } from '../speech/slots';
import { originPattern } from '../speech/base-url';
import { authorize } from '../speech/guard';
import { getStoredKey } from '../storage/key-store';
import { kept } from '../storage/kept';
import { accountStorage, type AccountInfo, playbackStorage, readSettings, settingsStorage } from '../storage/settings';
import { spentAround, usageFailedStorage, usageStorage } from '../storage/usage-history';
import { spendingStorage } from '../storage/spending';
import { SpendingBook } from '../money/spending-book';
import { usageWriter } from '../storage/usage-writer';
import { ReadingError, type ReadingPlan } from './plan';
import { afterHold } from '../diagnostics/diagnostics';
import { diagnostics } from '../diagnostics/wired';
import { pageKey, resumeStorage, withPoint } from '../storage/resume';
import { DEFAULT_PAGE_OPTIONS, type PageOptions, pageOptionsStorage } from '../storage/page-options';
import pLimit from 'p-limit';

/** Resume points are read, changed and written one change at a time. */
const resumeWrites = pLimit(1);
import { loadPlan, savePlan } from './plan-store';
import { writeQueue } from './write-queue';
import { moreFromTab, pageScript } from '../page-text/tab-text';
import { showsPage } from '../page-text/tab-channel';
import { untilReady } from '../page-text/until-ready';
import { Reader } from './reader';
import { NETWORK_PAUSE_AFTER_MS } from './network-wait';
import { readingViewStorage, runProgressStorage, type ReadingView } from './state';

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    // Its listener goes with it: the sleep timer waits on one signal for an hour, 5 s at a time.
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The background page is being closed or replaced (Firefox; a worker has no such moment): nothing more is sent. */
let pageClosing = false;
if (typeof window !== 'undefined') {
  // `beforeunload` comes before the page's fetches are cut (the rest of a cut part would be asked for as it
  // closed); `pagehide` where no `beforeunload` comes.
  for (const type of ['beforeunload', 'pagehide']) window.addEventListener(type, () => (pageClosing = true));
}

/** Audio paid for, kept across worker restarts and browser sessions (cleared with the key). */
/** 64 MiB, about an hour of speech at 128 kbit/s; a test shortens it (`audio-cache-bytes`) to save past it. */
export const audioCache = new AudioCache(indexedDbBackend(), () => diagnostics.tuned('audio-cache-bytes', 64 * 1024 * 1024));

/** Every request to the service takes one of these: never more in flight than the account allows. */
export const requestSlots = new RequestSlots(1);

/** Whether the browser lets the extension reach `origin` (the manifest's origins, or one the user granted). */
export function hasOriginPermission(origin: string): Promise<boolean> {
  return browser.permissions.contains({ origins: [originPattern(origin)] });
}

/**
 * The key and the service address, checked (`speech/guard.ts`) before anything is sent: a key is never
 * sent to an address it was not saved for, and a removed key is never sent. The check is kept until the
 * settings, the key or the extension's permissions change (`forgetAuth`: every write of the key is this
 * background's own and drops it; the settings and the permissions are watched), and made as the
 * background starts (`warmAuth`). A reading's start then sends its account request at once instead of
 * reading the settings, the key store and the permissions first (a busy worker's time at the click,
 * on the way to the first audio wherever the service's round trip is longer than the extraction).
 */
const authCheck = kept(async () => {
  const [settings, key] = await Promise.all([readSettings(), getStoredKey()]);
  return authorize(settings.baseUrl, key, hasOriginPermission);
});
const checkedAuth = authCheck.get;

/** The key, the settings or the permissions changed (saved, removed, granted, revoked): the next request checks them afresh. */
export const forgetAuth = authCheck.forget;
settingsStorage.watch(forgetAuth);
browser.permissions.onAdded.addListener(forgetAuth);
browser.permissions.onRemoved.addListener(forgetAuth);

/** Checks the key and the address ahead of the first reading (the background's start). */
export function warmAuth(): void {
  checkedAuth().catch(() => undefined);
}

async function currentAuth(): Promise<Auth> {
  const checked = await checkedAuth();
  if (!checked.ok) throw new ReadingError(checked.code);
  return checked.auth;
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

/**
 * What was spent today and this month, for the spending caps: kept apart from the usage history (never
 * trimmed, not cleared with it). Started once from the history, for what was spent before it was kept.
 */
export const spendingBook = new SpendingBook(
  {
    load: () => spendingStorage.getValue(),
    save: (totals) => spendingStorage.setValue(totals),
    seed: async (now) => spentAround(await usageStorage.getValue(), now),
  },
  () => Date.now(),
);

/** The one writer of the usage history (appends from readings, clearing from the options page). */
export const usageHistory = usageWriter(
  { get: () => usageStorage.getValue(), set: (list) => usageStorage.setValue(list) },
  (yes) => void usageFailedStorage.setValue(yes).catch(ignore('marking the usage history write')),
);

/** At most this long a start holds its first view back (a slow page still shows `extracting` soon). */
const FIRST_WRITES_WAIT_MS = 150;

/** Resolves when `p` settles, or after `ms`, whichever comes first. */
function settledOrAfter(p: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    const done = () => (clearTimeout(timer), resolve());
    p.then(done, done);
  });
}

/**
 * The background's one reader, wired to the real browser, storage and service; `onView` sees every view
 * as it is saved, with its write (what the popup reads is there once it resolves).
 */
export function createReader(player: PlayerSink, onView: (view: ReadingView, written: Promise<void>) => void = () => undefined): Reader {
  // Tests and benchmarks read the current reading's plan (its parts) as the popup does.
  diagnostics.expose({ readingPlan: loadPlan });
  /** Highlights asked for so far: a mark tried again is dropped once a newer one was asked for. */
  let highlightsAsked = 0;
  // The word mark's switch (the options page), followed as it changes: a reading under way takes it at its next word.
  let wordMark = DEFAULT_PAGE_OPTIONS.wordMark;
  const followWordMark = (options: Partial<PageOptions> | null) => (wordMark = options?.wordMark ?? DEFAULT_PAGE_OPTIONS.wordMark);
  void pageOptionsStorage.getValue().then(followWordMark, ignore('reading the page options'));
  pageOptionsStorage.watch(followWordMark);
  /** Settles once the last start's page has answered (or FIRST_WRITES_WAIT_MS passed); the account's write waits for it. */
  let pageAnswered: Promise<void> = Promise.resolve();
  /** The plan's writes, and the views written behind them, one after another (a growing plan's written as it is by then). */
  const writes = writeQueue<ReadingPlan, ReadingView>(savePlan, (view) => readingViewStorage.setValue(view));
  const reader: Reader = new Reader({
    async keyProblem() {
      const checked = await checkedAuth();
      return checked.ok ? null : checked.code;
    },
    getSettings: () => readSettings(),
    getPlayback: () => playbackStorage.getValue(),
    savePlayback: (playback) => playbackStorage.setValue(playback),
    getAccount: () => accountStorage.getValue(),
    async refreshAccount() {
      const auth = await currentAuth();
      diagnostics.mark('account:auth');
      const account = await checkAccount(auth);
      // Kept for the next start (and for a start whose refresh fails) while this one goes on, once the
      // start's page has answered (see startWritesAfter; measured in bench/HISTORY.md).
      void pageAnswered.then(() => accountStorage.setValue(account)).catch(ignore('keeping the account'));
      return account;
    },
    wallet: spendingBook,
    slots: requestSlots,
    open: async (body, signal) => {
      // Firefox's background page being replaced (its extension process restarting) runs on for a moment:
      // a request it sent now (the rest of a part its fetch lost as it closed) would be paid for and lost.
      if (pageClosing) return new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
      const auth = await currentAuth();
      diagnostics.mark('auth');
      return openSpeechStream(auth, body, { signal });
    },
    sleep,
    // The browser's word that the network is back: a wait for the service tries at once (the worker's and
    // Firefox's background page's global scope both have it).
    onOnline: (wake) => globalThis.addEventListener('online', wake),
    // An extension call counts as the extension at work: a worker waiting for the network with nothing
    // left to play gets no other event, and Chrome would end it after 30 s.
    keepAwake: () => void browser.runtime.getPlatformInfo().catch(ignore('keeping the background awake')),
    // 10 minutes; a test may shorten it (e2e: an outage past the limit).
    networkPauseAfterMs: () => diagnostics.tuned('network-pause-ms', NETWORK_PAUSE_AFTER_MS),
    player,
    cache: audioCache,
    store: {
      // A view is written once the plan it names is: the popup reads the parts list when the view
      // names a new plan, and must find that plan, not the one before it. With no plan being written,
      // the view is written at once (the toolbar's popup, opened as the audio plays, must find `playing`).
      saveView: (view) => {
        const written = writes.saveView(view);
        onView(view, written);
        return written;
      },
      savePlan: (plan) => writes.savePlan(plan),
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
      usageHistory.append(entry).catch(ignore('writing the usage history'));
    },
    wordMark: () => wordMark,
    highlight(tabId, sentence) {
      const pageUrl = reader.pageUrl;
      const mine = (highlightsAsked += 1);
      // Only to the page being read: the tab may have gone on to another site since. A script just put
      // in listens a task after it answers: the first sentence's mark is sent again until it does.
      const send = async (): Promise<unknown> => {
        if (!(await showsPage(tabId, pageUrl))) return;
        const mark = (): Promise<unknown> => (sentence === null ? sendToPage('clearHighlight', undefined, tabId) : sendToPage('highlight', sentence, tabId));
        // An old sentence never overwrites a newer one.
        return untilReady(mark, { tries: 5, every: 30, wanted: () => highlightsAsked === mine });
      };
      // A selection is read before the page's script is in (`earlyAnswer`): its first sentence waits for it.
      const under = pageScript(tabId);
      const sent = under ? under.then(send, send) : send();
      // Pages that could not be scripted (the PDF viewer) have no receiver: nothing to mark there (logged once).
      void sent.catch(ignore('page highlight'));
    },
    moreText: (tabId, after) => afterHold(diagnostics, 'text:more', () => moreFromTab(tabId, after)),
    getResume: async (url) => (await resumeStorage.getValue())[pageKey(url)] ?? null,
    saveResume: (url, point) => resumeWrites(async () => resumeStorage.setValue(withPoint(await resumeStorage.getValue(), url, point))),
    newId: () => crypto.randomUUID(),
    now: () => Date.now(),
    // A start's first writes wait for the page's answer (or FIRST_WRITES_WAIT_MS). Firefox: each one is a
    // message to the browser's own process, which handles the script's injection too: made at the click,
    // they held the page's answer back (bench/HISTORY.md).
    // Chrome: a popup open (its play button) draws each view on the player's renderer thread, while the
    // page extracts on the two cores with it: waiting, the page answered sooner, and so did the first audio
    // (bench/HISTORY.md); the other ways of starting did not change.
    startWritesAfter: (extraction) => (pageAnswered = settledOrAfter(extraction, FIRST_WRITES_WAIT_MS)),
  });
  return reader;
}
