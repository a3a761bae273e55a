/**
 * What the extension shows on the pages being read: the floating mini-player (on unless switched off)
 * click-to-read (off unless switched on; it needs the pages' host access, asked for then) and the word mark
 * inside the sentence's highlight (on unless switched off).
 * Written by the options page, read by the background.
 */
import { storage } from 'wxt/utils/storage';

export interface PageOptions {
  floatingPlayer: boolean;
  clickToRead: boolean;
  /** The word being said is marked inside the sentence's band (on unless switched off). */
  wordMark: boolean;
}

export const DEFAULT_PAGE_OPTIONS: PageOptions = { floatingPlayer: true, clickToRead: false, wordMark: true };

export const pageOptionsStorage = storage.defineItem<PageOptions>('local:page-options', { fallback: DEFAULT_PAGE_OPTIONS });

/** Where the user put the mini-player: its distance in CSS pixels from the window's right and bottom edges. */
export interface FloatingPlace {
  right: number;
  bottom: number;
}

export const floatingPlaceStorage = storage.defineItem<FloatingPlace | null>('local:floating-place', { fallback: null });

/** A place as stored, or null when it is not two finite numbers (a page sent it: never trusted as is). */
export function placeOf(value: unknown): FloatingPlace | null {
  if (!value || typeof value !== 'object') return null;
  const { right, bottom } = value as Record<string, unknown>;
  if (typeof right !== 'number' || typeof bottom !== 'number' || !Number.isFinite(right) || !Number.isFinite(bottom)) return null;
  const clamp = (n: number) => Math.round(Math.min(10_000, Math.max(0, n)));
  return { right: clamp(right), bottom: clamp(bottom) };
}
