/**
 * Save as MP3: what the reading's parts not received yet would cost, and fetching them into the
 * cache (only after the listener confirmed that cost). The requests go through the same slots and
 * the same downloads as the reading, at a lower priority, so nothing is paid for twice and the
 * reading never waits behind them.
 */
import type { AudioCache } from '../audio/cache';
import type { Outcome as PageOutcome } from '../messaging/protocol';
import { ServiceError } from '../speech/client';
import { costOf, formatRubPlain, parseRub } from '../money/money';
import { PRIORITY } from '../speech/slots';
import { ignore } from '../log';
import { ReadingError } from './plan';
import type { ReadingRun } from './run';
import { type Keeper, obtain } from './delivery';
import type { SaveEstimate, SaveOrder } from '../messaging/views';
import type { Part } from '../text/parts';

/** Parts `from` to `upTo` not in the cache: to buy, or arriving now (paid for: joined, not bought again). */
async function partsToGet(run: ReadingRun, cache: AudioCache, from: number, upTo: number): Promise<{ missing: number[]; arriving: number[] }> {
  const missing: number[] = [];
  const arriving: number[] = [];
  for (let k = from; k < upTo; k++) {
    if (run.skipped.has(k) || (await cache.has(run.key(k)).catch(ignore('looking up the audio cache')))) continue;
    if (run.downloads.get(run.key(k))?.receiving) arriving.push(k);
    else missing.push(k);
  }
  return { missing, arriving };
}

/**
 * The parts of the chapter part `part` is in (a book's): from the chapter's first part (the reading's first when it
 * began inside the chapter) to the next chapter's; `upTo` null while the chapter's end is not planned yet.
 */
export function chapterRange(parts: readonly Pick<Part, 'chapter'>[], part: number, growing: boolean): { from: number; upTo: number | null } {
  let from = Math.min(Math.max(part, 0), Math.max(parts.length - 1, 0));
  while (from > 0 && !parts[from]?.chapter) from--;
  let upTo = part + 1;
  while (upTo < parts.length && !parts[upTo]?.chapter) upTo++;
  return { from, upTo: upTo < parts.length || !growing ? Math.min(upTo, parts.length) : null };
}

/** What saving the reading (or, `chapterOf` a part, that part's chapter) would still cost. */
export async function saveEstimate(run: ReadingRun, cache: AudioCache, chapterOf: number | null = null): Promise<SaveEstimate> {
  const range = chapterOf === null ? { from: 0, upTo: run.growth.growing ? null : run.end } : chapterRange(run.parts.slice(0, run.end), chapterOf, run.growth.growing);
  const { missing, arriving } = range.upTo === null ? { missing: [], arriving: [] } : await partsToGet(run, cache, range.from, range.upTo);
  const missingChars = missing.reduce((n, k) => n + run.parts[k]!.chars, 0);
  const refusal = range.upTo === null ? 'still-counting' : run.purse.phase === 'asking' || run.purse.phase === 'planning' ? 'save-changed' : '';
  const upTo = range.upTo ?? run.end;
  return {
    readingId: run.id,
    upTo,
    from: range.from,
    refusal,
    parts: run.parts.length,
    missing: missing.length,
    arriving: arriving.length,
    missingChars,
    missingRub: formatRubPlain(costOf(missingChars, run.ledger.price)),
    skipped: [...run.skipped].filter((k) => k < upTo).sort((a, b) => a - b),
  };
}

/**
 * Fetches the missing parts before `upTo` one at a time, under the reading's Save as MP3 grant (the spending
 * gate buys nothing else for it); parts the service refuses are passed over; a stopping error ends it.
 */
export async function fetchMissing(run: ReadingRun, keeper: Keeper, upTo: number, from = 0): Promise<PageOutcome> {
  const cache = keeper.cache;
  for (let k = from; k < upTo; k++) {
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

/** The estimate of the reader's current reading (none: refused as changed). */
export function estimateSave(run: ReadingRun | null, cache: AudioCache, chapterOf: number | null = null): Promise<SaveEstimate> {
  if (run?.plan) return saveEstimate(run, cache, chapterOf);
  return Promise.resolve({ readingId: '', upTo: 0, from: 0, refusal: 'save-changed', parts: 0, missing: 0, arriving: 0, missingChars: 0, missingRub: formatRubPlain(0n), skipped: [] });
}

/**
 * Save as MP3, confirmed: fetches the parts not received yet into the cache — those of the reading the
 * cost was shown for, before `upTo`, for at most `maxRub`. Refused when the reading changed since (another
 * one, more parts, a higher cost), is still counted, or waits for its own confirmation.
 */
export async function fetchForSave(run: ReadingRun, keeper: Keeper, cache: AudioCache, order: SaveOrder): Promise<PageOutcome> {
  if (!run.plan || run.id !== order.readingId) return { ok: false, code: 'save-changed' };
  const from = order.from ?? 0;
  const now = await saveEstimate(run, cache, order.from ?? null);
  const maxRub = parseRub(order.maxRub);
  if (now.refusal) return { ok: false, code: now.refusal };
  if (now.upTo !== order.upTo || now.from !== from || maxRub === null || (parseRub(now.missingRub) ?? 0n) > maxRub) return { ok: false, code: 'save-changed' };
  const grant = { upTo: order.upTo, maxRub, spent: 0n };
  run.purse.grant(grant);
  // Every part of the file stays in the cache until the reading is over (a save longer than the cache's cap
  // would otherwise evict its first parts while buying the last, and the file would come out short).
  const release = cache.hold(Array.from({ length: order.upTo - from }, (_, i) => run.key(from + i)));
  if (run.lifeSignal.aborted) release();
  else run.lifeSignal.addEventListener('abort', release, { once: true });
  try {
    return await fetchMissing(run, keeper, order.upTo, from);
  } finally {
    if (run.purse.saveGrant === grant) run.purse.grant(null);
  }
}
