/**
 * One channel per tab to the page it shows (background): whether the page has the extract script (the
 * address it was put in at: the page's identity), the script being put in now, an injection put off until
 * the first sentence is marked, the rest of an article answered title first, and the address it shows now. Every text source and the
 * sentence mark go through it, so a start, `readyTab` and a highlight never put the script in twice or ask
 * a page that is not the one they think. Readiness and retries are `until-ready.ts`.
 */
import { browser } from 'wxt/browser';
import { storage } from 'wxt/utils/storage';
import { ignore } from '../log';
import type { ExtractedText } from '../text/extract';
import { accountStorage } from '../storage/settings';
import { pageOptionsStorage } from '../storage/page-options';
import { boundedItem } from '../storage/bounded-item';
import { hashesOf, hashOf } from '../storage/bounds';
import { tabUrl } from './pdf-tab';
import { samePage } from './reading-page';

/**
 * The address each tab had when the extract script was last injected into it (kept for the session, so a
 * restarted worker knows too). A tab at another address now has navigated since: its page has no script.
 */
const INJECTED_KEPT = 50;
/** Tab id → a hash of the address the extract script was put in (an address itself may be megabytes). */
const injectedStorage = boundedItem(storage.defineItem<Record<string, string>>('session:extract-injected', { fallback: {} }), (v) => hashesOf(v, INJECTED_KEPT));

/**
 * What `surelyWithoutScript` needs, and the account's last price (whether an article may be read title
 * first), held in memory (storage reads on the way to the first request cost time): loaded once per
 * worker life, as early as `loadTabTextState` is called, and kept current.
 */
const known = { injected: {} as Record<string, string>, clickToRead: false, loaded: false, price: undefined as string | undefined };
let loaded: Promise<void> | null = null;
let watching = false;

export function loadTabTextState(): Promise<void> {
  if (!watching) {
    watching = true;
    pageOptionsStorage.watch((options) => (known.clickToRead = options?.clickToRead === true));
    injectedStorage.watch((injected) => (known.injected = injected ?? {}));
    accountStorage.watch((account) => (known.price = account?.pricePerMillionRub));
  }
  if (!loaded) {
    const loading = Promise.all([injectedStorage.getValue(), pageOptionsStorage.getValue(), accountStorage.getValue()]).then(([injected, options, account]) => {
      known.injected = injected;
      known.clickToRead = options.clickToRead === true;
      known.price = account?.pricePerMillionRub;
      known.loaded = true;
    });
    loading.catch(() => (loaded = null));
    loaded = loading;
  }
  return loaded;
}

/** Whether what the channels know is in memory (else a page is asked before the script is put in). */
export const stateLoaded = () => known.loaded;

/** The account's last price (from the last check), if known. */
export const lastPrice = () => known.price;

/**
 * Whether the tab's page surely has no extract script: none was injected at this address (nor does
 * click-to-read put one in every page). Then the script is injected without asking first (a question
 * nothing answers still takes time). Unsure (the state not read) means asked first.
 */
export function surelyWithoutScript(tabId: number, url: string | undefined): boolean {
  return known.loaded && url !== undefined && known.injected[tabId] !== hashOf(url) && !known.clickToRead;
}

/** A hash of the address the script was put in at, when known and no injection is under way (undefined: ask the usual way). */
export function scriptAddress(tabId: number): string | undefined {
  return known.loaded && !channels.get(tabId)?.injecting ? known.injected[tabId] : undefined;
}

/** The script was put in the tab's page at `url`. */
export function rememberInjected(tabId: number, url: string | undefined): void {
  if (url === undefined) return;
  void loadTabTextState()
    .then(() => {
      const kept: Array<[string, string]> = Object.entries(known.injected).filter(([id]) => id !== String(tabId)).slice(-(INJECTED_KEPT - 1));
      kept.push([String(tabId), hashOf(url)]);
      known.injected = Object.fromEntries(kept);
      return injectedStorage.setValue(known.injected);
    })
    .catch(ignore('remembering the injected script'));
}

interface Channel {
  /** The script being put in: a start meanwhile waits for it, then asks. */
  injecting?: Promise<unknown>;
  /** The script of a start answered from the small function's read, put in only once something needs it. */
  deferred?: () => void;
  /** An article read title first: the script's own answer (asked for when taken: its injection), whose page keeps the rest (`takeRest`). */
  rest?: () => Promise<ExtractedText | null>;
  /** The tab's address as last looked up: looked up again when the tab loads something. */
  address?: Promise<string | undefined>;
}

const channels = new Map<number, Channel>();
let watchingTabs = false;

/** Channels follow their tabs: an address goes when the tab loads something, a channel when its tab closes. */
function watchTabs(): void {
  if (watchingTabs) return;
  watchingTabs = true;
  browser.tabs.onUpdated.addListener((id, change) => {
    const c = channels.get(id);
    if (c && (change.status === 'loading' || change.url !== undefined)) c.address = undefined;
  });
  browser.tabs.onRemoved.addListener((id) => channels.delete(id));
}

function channel(tabId: number): Channel {
  watchTabs();
  let c = channels.get(tabId);
  if (!c) channels.set(tabId, (c = {}));
  return c;
}

/** The tab's script being put in now, if any. */
export function injectionUnderWay(tabId: number): Promise<unknown> | undefined {
  return channels.get(tabId)?.injecting;
}

/** `injection` is the tab's script being put in, until it settles. */
export function tracked<T>(tabId: number, injection: Promise<T>): Promise<T> {
  channel(tabId).injecting = injection;
  const done = () => {
    const c = channels.get(tabId);
    if (c?.injecting === injection) c.injecting = undefined;
  };
  injection.then(done, done);
  return injection;
}

/** A new start on the tab: what an earlier one left (a put-off injection, the rest of an article) goes. */
export function newStart(tabId: number): void {
  const c = channels.get(tabId);
  if (c) c.deferred = c.rest = undefined;
}

/** Puts off the script's injection until the first sentence is to be marked (`pageScript`); a new start drops it. */
export function deferInjection(tabId: number, put: () => void): void {
  channel(tabId).deferred = put;
}

/** Drops an injection put off (the script is being put in another way). */
export function dropDeferred(tabId: number): void {
  const c = channels.get(tabId);
  if (c) c.deferred = undefined;
}

/** Keeps how to get the script's answer to an article read title first: its page has the rest. */
export function keepRest(tabId: number, answer: () => Promise<ExtractedText | null>): void {
  channel(tabId).rest = answer;
}

/** The script's answer kept for the rest of an article read title first (its script put in now, if not yet), taken once. */
export function takeRest(tabId: number): Promise<ExtractedText | null> | undefined {
  const c = channels.get(tabId);
  const rest = c?.rest;
  if (c) c.rest = undefined;
  return rest?.();
}

/**
 * The tab's extract script for marking a sentence: resolves once it is in, if it is being put in (its
 * injection put off by a selection read from the menu starts now); undefined when nothing is under way.
 */
export function pageScript(tabId: number): Promise<unknown> | undefined {
  const c = channels.get(tabId);
  const put = c?.deferred;
  if (c) c.deferred = undefined;
  put?.();
  return injectionUnderWay(tabId);
}

/**
 * Whether the tab still shows the page a reading came from (`samePage`). A highlight is sent every
 * sentence: the address is looked up once, and again only after the tab loads something.
 */
export async function showsPage(tabId: number, pageUrl: string): Promise<boolean> {
  const c = channel(tabId);
  let address = c.address;
  if (!address) {
    address = c.address = browser.tabs.get(tabId).then(tabUrl);
    // A tab that is gone (or not yet there) is asked again next time.
    address.catch(() => {
      if (channels.get(tabId)?.address === address) channels.get(tabId)!.address = undefined;
    });
  }
  try {
    return samePage(await address, pageUrl);
  } catch {
    // The tab is gone.
    return false;
  }
}
