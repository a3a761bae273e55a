import { passesCaps } from '../money/caps';
import { charsWithin } from '../money/gate';
import { costOf, parseRub, type RubUnits } from '../money/money';
import type { Settings } from '../storage/settings';
import { countChars } from '../text/chars';
import type { PronunciationRule } from '../text/pronunciation';
import type { ReadingRun } from './run';
import type { ReadingView } from './state';

export interface AskFirstTerms {
  /** The estimate as counted so far (it grows while a document is counted in batches). */
  estimateChars(): number;
  price: RubUnits;
  /** Readings estimated above this ask first. */
  threshold: RubUnits;
  /** The listener asked to see what will be read before anything is sent. */
  previewFirst: boolean;
  /**
   * Code points the whole reading bills at most, known before it is counted (an article read title first:
   * `boundOf` its page's text). When that neither passes a cap nor the threshold, nothing is asked.
   */
  boundChars?: number;
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
export function titleFirstMax(settings: Pick<Settings, 'previewFirst' | 'confirmThresholdRub' | 'pronunciations'>, pricePerMillionRub: string | undefined): number {
  const price = pricePerMillionRub === undefined ? null : parseRub(pricePerMillionRub);
  const threshold = parseRub(settings.confirmThresholdRub);
  if (settings.previewFirst === true || price === null || price < 0n || threshold === null || threshold < 0n) return 0;
  const growth = growthOf(settings.pronunciations ?? []);
  if (price === 0n) return Math.floor(TITLE_FIRST_LIMIT / growth);
  return Math.floor(Math.min(TITLE_FIRST_LIMIT, charsWithin(threshold, price)) / growth);
}

/**
 * Why a reading asks before anything is sent, or '' when it need not: a spending cap its estimate
 * would pass, an estimate over the threshold, or the preview the listener asked for. A document
 * counted in batches is waited for while what is counted so far does not already ask first.
 */
export async function askFirstReason(run: ReadingRun, terms: AskFirstTerms): Promise<ReadingView['confirmReason']> {
  const reason = (): '' | 'budget' | 'threshold' => {
    const estimate = costOf(terms.estimateChars(), terms.price);
    return passesCaps(run.purse.caps, run.purse.spentAtStart, estimate) ? 'budget' : estimate > terms.threshold ? 'threshold' : '';
  };
  // An article read title first: when all of its page's text could be read without asking, nothing is
  // asked; else it is counted whole first, and decided as a reading counted whole (its rest comes at once).
  if (run.growing && terms.boundChars !== undefined) {
    const most = costOf(terms.boundChars, terms.price);
    if (!terms.previewFirst && !passesCaps(run.purse.caps, run.purse.spentAtStart, most) && most <= terms.threshold) return '';
    while (run.growing && !run.signal.aborted) await run.nextGrowth();
    run.signal.throwIfAborted();
  }
  let found: ReadingView['confirmReason'] = reason();
  // Counted in batches: the whole document's estimate decides, unless what is counted so far already asks first.
  while (!found && run.growing) {
    await run.nextGrowth();
    run.signal.throwIfAborted();
    found = reason();
  }
  // A spending cap is a hard limit: agreeing to pass it is asked on the whole document's estimate, never a partial one.
  while (found === 'budget' && run.growing) {
    await run.nextGrowth();
    run.signal.throwIfAborted();
  }
  return found || (terms.previewFirst ? 'preview' : '');
}
