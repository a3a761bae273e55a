/**
 * What a reading costs. The service's receipt headers decide, but only values that can be true:
 * a negative, non-numeric or absurdly large header is replaced by what the price says, so one
 * bad header can neither lower the cost shown nor stop the reading.
 */
import { costOf, type RubUnits } from './money';

/** What a service's answer says it billed (its receipt headers, read: null where missing or unreadable). */
export interface Receipt {
  charsBilled: number | null;
  cost: RubUnits | null;
  balance: RubUnits | null;
}

export interface Charge {
  chars: number;
  cost: RubUnits;
  /** The balance after this request, when the service said it readably. */
  balance: RubUnits | null;
}

/** No single request costs this much (a thousand times the service's 10,000-character limit at any sane price). */
const MAX_UNITS = BigInt(Number.MAX_SAFE_INTEGER);

/** One billed request, from its receipt; `sentChars` are the code points of the text sent. */
export function chargeOf(receipt: Receipt, sentChars: number, price: RubUnits): Charge {
  const billed = receipt.charsBilled;
  const chars = billed !== null && Number.isSafeInteger(billed) && billed >= 0 ? billed : sentChars;
  const header = receipt.cost;
  const cost = header !== null && header >= 0n && header <= MAX_UNITS ? header : costOf(chars, price);
  const balance = receipt.balance !== null && receipt.balance <= MAX_UNITS && receipt.balance >= -MAX_UNITS ? receipt.balance : null;
  return { chars, cost, balance };
}

/** A reading's running totals. */
export class Ledger {
  cost: RubUnits;
  chars: number;

  constructor(
    readonly price: RubUnits,
    start: { cost?: RubUnits; chars?: number } = {},
  ) {
    this.cost = start.cost ?? 0n;
    this.chars = start.chars ?? 0;
  }

  add(receipt: Receipt, sentChars: number): Charge {
    const charge = chargeOf(receipt, sentChars, this.price);
    this.cost += charge.cost;
    this.chars += charge.chars;
    return charge;
  }
}
