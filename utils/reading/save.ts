/**
 * Save as MP3: what the reading's parts not received yet would cost, and fetching them into the
 * cache (only after the listener confirmed that cost). The requests go through the same slots and
 * the same downloads as the reading, at a lower priority, so nothing is paid for twice and the
 * reading never waits behind them.
 */
import type { AudioCache } from '../audio/cache';
import type { Outcome as PageOutcome } from '../messaging/protocol';
import { ServiceError } from '../speech/client';
import { costOf, formatRubPlain } from '../money/money';
import { PRIORITY } from '../speech/slots';
import { ignore } from '../log';
import { ReadingError } from './plan';
import type { ReadingRun } from './run';
import { type Keeper, obtain } from './scheduler';

/** What saving the reading as MP3 would still cost: the parts not received yet. */
export interface SaveEstimate {
  /** The reading it was counted for, and its parts before `upTo`: what a confirmation of it may buy. */
  readingId: string;
  upTo: number;
  /** Why it cannot be saved now: still being counted (a PDF), or waiting for its own confirmation. */
  refusal: '' | 'still-counting' | 'save-changed';
  parts: number;
  missing: number;
  /** Parts paid for and still arriving: waited for (`fetchMissing`, at no cost) before the file is made. */
  arriving: number;
  missingChars: number;
  missingRub: string;
}

/** A Save as MP3 confirmation, as the popup sends it: the reading and the parts it was shown for, and the cost shown. */
export interface SaveOrder {
  readingId: string;
  upTo: number;
  maxRub: string;
}

/** Parts not in the cache: to buy, or arriving now (paid for: joined, not bought again). */
async function partsToGet(run: ReadingRun, cache: AudioCache): Promise<{ missing: number[]; arriving: number[] }> {
  const missing: number[] = [];
  const arriving: number[] = [];
  for (let k = 0; k < run.end && !run.growing; k++) {
    if (run.skipped.has(k) || (await cache.has(run.key(k)).catch(ignore('looking up the audio cache')))) continue;
    if (run.downloads.get(run.key(k))?.receiving) arriving.push(k);
    else missing.push(k);
  }
  return { missing, arriving };
}

export async function saveEstimate(run: ReadingRun, cache: AudioCache): Promise<SaveEstimate> {
  const { missing, arriving } = await partsToGet(run, cache);
  const missingChars = missing.reduce((n, k) => n + run.parts[k]!.chars, 0);
  const refusal = run.growing ? 'still-counting' : run.purse.phase === 'asking' || run.purse.phase === 'planning' ? 'save-changed' : '';
  return {
    readingId: run.id,
    upTo: run.end,
    refusal,
    parts: run.parts.length,
    missing: missing.length,
    arriving: arriving.length,
    missingChars,
    missingRub: formatRubPlain(costOf(missingChars, run.ledger.price)),
  };
}

/**
 * Fetches the missing parts before `upTo` one at a time, under the reading's Save as MP3 grant (the spending
 * gate buys nothing else for it); parts the service refuses are passed over; a stopping error ends it.
 */
export async function fetchMissing(run: ReadingRun, keeper: Keeper, upTo: number): Promise<PageOutcome> {
  const cache = keeper.cache;
  for (let k = 0; k < upTo; k++) {
    if (run.skipped.has(k)) continue;
    for (let tries = 0; ; tries++) {
      // A stopping error (402, a refused key) met by the reading or by an earlier part: nothing more is asked for.
      if (run.pendingError) return { ok: false, code: run.pendingError.code };
      if (k >= run.end || k >= upTo || run.lifeSignal.aborted) return { ok: false, code: 'stopped' };
      if (await cache.has(run.key(k)).catch(ignore('looking up the audio cache'))) break;
      const download = obtain(run, keeper, k, PRIORITY.save);
      const outcome = await download.outcome;
      await download.stored;
      if (outcome.kind === 'ok' || outcome.kind === 'skip') break;
      // Given up before it was sent (or fetched ahead and failing): asked for again, a few times.
      if (outcome.kind === 'aborted' && tries < 3) continue;
      if (outcome.kind === 'aborted') return { ok: false, code: 'stopped' };
      if (outcome.kind === 'split') return { ok: false, code: 'text_too_long' };
      const error = outcome.error;
      return { ok: false, code: error instanceof ServiceError || error instanceof ReadingError ? error.code : 'network' };
    }
  }
  return { ok: true };
}
