/**
 * The most a page's text can bill (pure): its bound (`ExtractedText.bound`) as the listener's pronunciation
 * rules may lengthen it, and the most an article may hold to be read title first without anything asked.
 * Used where the page's text is asked for (`utils/page-text/tab-text.ts`) and where the reading decides
 * whether to ask first (`utils/reading/`).
 */
import { charsWithin } from './gate';
import { parseRub } from './money';
import { countChars } from '../text/chars';
import type { PronunciationRule } from '../text/pronunciation';

/** The settings it reads (`Settings`' own fields). */
export interface BoundSettings {
  previewFirst?: boolean;
  confirmThresholdRub: string;
  pronunciations?: PronunciationRule[];
}

/** The most a title-first article may bill, counted on its page's text: below it, no reading would ask first. */
const TITLE_FIRST_LIMIT = 1_000_000;

/** A character folding may write as up to three (anything but ASCII and Russian letters). */
const FOLDABLE = /[^\p{ASCII}ЁА-яё]/u;

/**
 * How many times the listener's pronunciation rules can lengthen a page's bound (`ExtractedText.bound`, which
 * counts the page's own folding): the rules apply one after another, so what one wrote the next may lengthen
 * again; a replacement with letters folding may write as three counts three times over.
 */
export function growthOf(rules: readonly PronunciationRule[]): number {
  const growth = rules.reduce((product, r) => product * Math.max(1, Math.ceil(countChars(r.replace) / Math.max(1, countChars(r.find)))), 1);
  return rules.some((r) => FOLDABLE.test(r.replace)) ? 3 * growth : growth;
}

/** The most the reading of a page with this bound (`ExtractedText.bound`: code points before the rules) can bill. */
export function boundOf(bound: number, rules: readonly PronunciationRule[]): number {
  return bound * growthOf(rules);
}

/**
 * The most a page's bound (`billedBound`) may be for its article to be read title first: its first part
 * sent before the rest is extracted, as nothing would be asked first even if all of it were read
 * (`boundOf`). 0 when it would ask whatever its length (the listener wants a preview), or the price is
 * not known yet. The spending caps are checked against the bound when the reading starts.
 */
export function titleFirstMax(settings: BoundSettings, pricePerMillionRub: string | undefined): number {
  const price = pricePerMillionRub === undefined ? null : parseRub(pricePerMillionRub);
  const threshold = parseRub(settings.confirmThresholdRub);
  if (settings.previewFirst === true || price === null || price < 0n || threshold === null || threshold < 0n) return 0;
  const growth = growthOf(settings.pronunciations ?? []);
  if (price === 0n) return Math.floor(TITLE_FIRST_LIMIT / growth);
  return Math.floor(Math.min(TITLE_FIRST_LIMIT, charsWithin(threshold, price)) / growth);
}
