/**
 * The one answer to "may this request be paid for?". Every speech request — the part being played, the
 * part ahead, a retry, the rest of a dropped stream, Save as MP3, a part of a PDF or an article that grew
 * while it was read, a page of the listening queue — asks it, with the reading's identity, before it is
 * sent. Pure: what it decides from is passed in, and what it answers is a decision, not an action.
 */
import { costOf, type RubUnits } from './money';
import { type Caps, passesCaps } from './caps';
import type { Spent } from './totals';

/** What the user agreed to for a reading's playback: at most these many code points of its parts. */
export interface Envelope {
  /** Infinity: the document as it is counted (agreed to while a PDF was still being counted). */
  chars: number;
}

/** Save as MP3's confirmation: the parts before `upTo`, for at most `maxRub`. */
export interface SaveGrant {
  upTo: number;
  maxRub: RubUnits;
  /** Reserved or billed under it so far. */
  spent: RubUnits;
}

/**
 * Where a reading stands with money. `asking`: it waits for the user's answer (nothing of its playback may
 * be bought); `open`: it plays within its envelope; `over`: it ended (only a Save as MP3 it was granted may
 * still buy its parts); `planning`: before anything was decided.
 */
export type MoneyPhase = 'planning' | 'asking' | 'open' | 'over';

export interface ReadingPurse {
  readingId: string;
  phase: MoneyPhase;
  envelope: Envelope;
  /** Code points of the parts whose first request was let through for playback, and their keys. */
  committedChars: number;
  isCommitted(partKey: string): boolean;
  /** Billed so far, and reserved for requests in flight (ten-thousandths of a ruble). */
  billed: RubUnits;
  billedChars: number;
  reserved: RubUnits;
  /** The price the reading was planned at (per million characters). */
  price: RubUnits;
  /** The user agreed to pass a spending cap with this reading, up to this much in all (null: not agreed). */
  capApproval: RubUnits | null;
  saveGrant: SaveGrant | null;
  /** Rounding the bills of its requests may add over the estimate (a ten-thousandth per part). */
  slack: RubUnits;
}

export interface Wallet {
  caps: Caps | null;
  /** Spent today and this month, every reservation included. */
  spent: Spent;
  /** The totals can be written (when not, nothing is spent against a cap: fail closed). */
  writable: boolean;
}

export interface SpendAsk {
  readingId: string;
  part: number;
  partKey: string;
  /** Code points of the text to be sent. */
  chars: number;
  /** The rest of a part whose stream dropped: its words were agreed to with the part. */
  resumed: boolean;
  /** Save as MP3 wants the part. */
  forSave: boolean;
}

export type Refusal =
  /** The request is not for the reading now under way (a stale confirmation, a replaced reading). */
  | 'not-current'
  /** The reading is asking first, or was never let start. */
  | 'not-agreed'
  /** Past what the user agreed to (the text grew): the reading asks again. */
  | 'over-envelope'
  /** A spending cap the user did not agree to pass. */
  | 'over-cap'
  /** The spending totals cannot be kept, and a cap is set. */
  | 'totals-unwritable'
  /** Save as MP3 was not confirmed for this part, or its confirmed sum is spent. */
  | 'not-granted';

export type Decision = { ok: true; cost: RubUnits; under: 'play' | 'save' } | { ok: false; refusal: Refusal };

/** The higher of the plan's price and what the bills so far show per character, rounded up: a price that rose is not trusted twice. */
export function priceFor(purse: Pick<ReadingPurse, 'price' | 'billed' | 'billedChars'>): RubUnits {
  const chars = BigInt(purse.billedChars);
  const observed = chars > 0n ? (purse.billed * 1_000_000n + chars - 1n) / chars : 0n;
  return observed > purse.price ? observed : purse.price;
}

/** Whether `ask` may be sent, and under what: the reading's playback or its Save as MP3 confirmation. */
export function mayPay(ask: SpendAsk, purse: ReadingPurse | null, wallet: Wallet): Decision {
  if (!purse || purse.readingId !== ask.readingId) return { ok: false, refusal: 'not-current' };
  const cost = costOf(ask.chars, priceFor(purse));
  const play = ((): Refusal | null => {
    if (purse.phase !== 'open') return 'not-agreed';
    if (ask.resumed || purse.isCommitted(ask.partKey)) return null;
    return purse.committedChars + ask.chars > purse.envelope.chars ? 'over-envelope' : null;
  })();
  const grant = purse.saveGrant;
  const save = ((): Refusal | null => {
    if (!ask.forSave || !grant || purse.phase === 'asking' || purse.phase === 'planning' || ask.part >= grant.upTo) return 'not-granted';
    return grant.spent + cost > grant.maxRub + purse.slack ? 'not-granted' : null;
  })();
  // Playback's own agreement first; a part Save as MP3 wants is bought under its confirmation otherwise.
  const under = play === null ? 'play' : save === null ? 'save' : null;
  if (under === null) return { ok: false, refusal: ask.forSave && play === 'not-agreed' ? save! : play! };
  const { caps } = wallet;
  if (caps) {
    if (!wallet.writable) return { ok: false, refusal: 'totals-unwritable' };
    const agreedPast = under === 'play' && purse.capApproval !== null && purse.billed + purse.reserved + cost <= purse.capApproval + purse.slack;
    if (!agreedPast && passesCaps(caps, wallet.spent, cost)) return { ok: false, refusal: 'over-cap' };
  }
  return { ok: true, cost, under };
}

/** The most code points whose cost at `price` stays within `rub` (Infinity at a price of nothing). */
export function charsWithin(rub: RubUnits, price: RubUnits): number {
  if (price <= 0n) return Infinity;
  if (rub < 0n) return 0;
  let chars = Number((rub * 1_000_000n) / price);
  while (chars > 0 && costOf(chars, price) > rub) chars--;
  while (costOf(chars + 1, price) <= rub) chars++;
  return chars;
}
