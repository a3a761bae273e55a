import { storage } from '#imports';

export const DEFAULT_BASE_URL = 'https://api.trysasha.ru';
export const AUDIO_FORMATS = ['mp3', 'mp3_high', 'mp3_low'] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];

export interface Settings {
  baseUrl: string;
  /** Empty: the service's default voice (the field is left out of requests). */
  voice: string;
  format: AudioFormat;
  /** Decimal rubles; the popup asks to confirm readings estimated above it. */
  confirmThresholdRub: string;
}

export const DEFAULT_SETTINGS: Settings = {
  baseUrl: DEFAULT_BASE_URL,
  voice: '',
  format: 'mp3',
  confirmThresholdRub: '10',
};

export const settingsStorage = storage.defineItem<Settings>('local:settings', {
  fallback: DEFAULT_SETTINGS,
  version: 1,
});

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
