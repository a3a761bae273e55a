import type { PronunciationRule } from '../text/pronunciation';
import type { UrlReading } from '../text/urls';
import { kept } from './kept';
import { storage } from 'wxt/utils/storage';
import { browser } from 'wxt/browser';
import { type Legacy, protectedItem, protectedStore } from './protected-item';

export const DEFAULT_BASE_URL = 'https://api.trysasha.ru';
export const AUDIO_FORMATS = ['mp3', 'mp3_high', 'mp3_low'] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];

export const URL_READINGS = ['domain', 'out', 'read'] as const satisfies readonly UrlReading[];
export type { UrlReading };

export interface Settings {
  baseUrl: string;
  /** Empty: the service's default voice (the field is left out of requests). */
  voice: string;
  format: AudioFormat;
  /** Decimal rubles; the popup asks to confirm readings estimated above it. */
  confirmThresholdRub: string;
  /** Read reference lists, notes, "See also" and external links too (off: they are left out, unbilled). */
  readReferences?: boolean;
  /**
   * Clean-up before billing: code blocks read (default: left out); image captions and photo credits left out
   * (default: yes — on the hand-checked pages the listener's text has none: precision 0.932 → 0.946 with no
   * recall lost); tables left out (default: read; a table's caption goes with its table).
   */
  readCode?: boolean;
  leaveOutCaptions?: boolean;
  leaveOutTables?: boolean;
  /** Bare URLs in the text: reduced to their domain (default), left out, or read as written. */
  urls?: UrlReading;
  /** Every reading stops first on its preview (blocks, characters, rubles), even under the threshold. */
  previewFirst?: boolean;
  /** Spending caps in decimal rubles per calendar day and month (the user's time zone); empty or missing: off. */
  dailyCapRub?: string;
  monthlyCapRub?: string;
  /** find → replace rules applied to the text before it is sent (`text/pronunciation.ts`). */
  pronunciations?: PronunciationRule[];
}

/** The clean-up and preview choices, each with its default (what the options page shows and the reader uses). */
export interface CleanupSettings {
  previewFirst: boolean;
  readCode: boolean;
  leaveOutCaptions: boolean;
  leaveOutTables: boolean;
  urls: UrlReading;
}

export function cleanupOf(s: Partial<Record<keyof CleanupSettings, unknown>>): CleanupSettings {
  return {
    previewFirst: s.previewFirst === true,
    readCode: s.readCode === true,
    leaveOutCaptions: s.leaveOutCaptions !== false,
    leaveOutTables: s.leaveOutTables === true,
    urls: URL_READINGS.includes(s.urls as UrlReading) ? (s.urls as UrlReading) : 'domain',
  };
}

export const DEFAULT_SETTINGS: Settings = {
  baseUrl: DEFAULT_BASE_URL,
  voice: '',
  format: 'mp3',
  confirmThresholdRub: '10',
};

/** `storage.local`, where versions before 2026-12-02 kept the settings and the spending totals (and `wxt/storage`'s meta beside them). */
export const localLegacy = (): Legacy => ({
  get: async (name) => (await browser.storage.local.get(name))[name],
  remove: (name) => browser.storage.local.remove([name, `${name}$`]),
});

/** The service address, the threshold and the caps: with the key, out of content scripts' reach (`protected-item.ts`). */
export const settingsStorage = protectedItem<Settings>('settings', DEFAULT_SETTINGS, () => ({ store: protectedStore(), legacy: localLegacy() }));

/**
 * The background's settings, kept in memory from their first read until they change: a reading's start
 * needs them before it can inject the extract script, and a storage read there held up a busy
 * worker (`npm run bench`'s first steps). Another context's write reaches `watch`; the background's own
 * (`writeSettings`) drops the copy before its promise resolves, as `watch` may come after.
 */
const keptSettings = kept(() => settingsStorage.getValue());
let watched = false;

export function readSettings(): Promise<Settings> {
  if (!watched) {
    watched = true;
    settingsStorage.watch(keptSettings.forget);
  }
  return keptSettings.get();
}

/** The kept settings, without waiting: null when they must be read (`readSettings`). */
export function settingsNow(): Settings | null {
  return keptSettings.now() ?? null;
}

export async function writeSettings(settings: Settings): Promise<void> {
  keptSettings.forget();
  try {
    await settingsStorage.setValue(settings);
  } finally {
    // A read made while the write was under way may hold the settings before it.
    keptSettings.forget();
  }
}

/** What the last good key check returned, shown by the options page and the popup. */
export interface AccountInfo {
  name: string;
  provider: string;
  balanceRub: string;
  pricePerMillionRub: string;
  maxConcurrency: number;
  checkedAt: number;
}

export const accountStorage = storage.defineItem<AccountInfo | null>('local:account', { fallback: null });

/** How the player sounds; applied in the player, so nothing is fetched or billed again. */
export interface Playback {
  /** 0.5–3, pitch kept. */
  rate: number;
  /** 0–1. */
  volume: number;
}

export { PLAYBACK_RATES } from '../audio/rates';
export const DEFAULT_PLAYBACK: Playback = { rate: 1, volume: 1 };

export const playbackStorage = storage.defineItem<Playback>('local:playback', { fallback: DEFAULT_PLAYBACK });

export function clampPlayback(p: Partial<Playback>): Playback {
  const rate = Number.isFinite(p.rate) ? Math.min(3, Math.max(0.5, p.rate!)) : DEFAULT_PLAYBACK.rate;
  const volume = Number.isFinite(p.volume) ? Math.min(1, Math.max(0, p.volume!)) : DEFAULT_PLAYBACK.volume;
  return { rate, volume };
}
