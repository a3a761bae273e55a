/**
 * Spending caps per day and per month (off by default). A reading whose estimate would pass a cap asks
 * first; once the user agrees, that reading may pass it. Otherwise the reading stops before the request
 * that would pass it: what was received plays, nothing past it is asked for, and the reading ends in
 * `budget-limit`.
 */
import { costOf, parseRub, type RubUnits } from '../speech/money';
import type { Settings } from '../storage/settings';
import type { Ledger } from './ledger';

export interface Caps {
  day: RubUnits | null;
  month: RubUnits | null;
}

const cap = (value: string | undefined): RubUnits | null => {
  const units = value?.trim() ? parseRub(value.trim()) : null;
  return units !== null && units >= 0n ? units : null;
};

/** The caps the settings set; null when neither is (then nothing is counted, and the history is not read). */
export function capsOf(settings: Pick<Settings, 'dailyCapRub' | 'monthlyCapRub'>): Caps | null {
  const caps = { day: cap(settings.dailyCapRub), month: cap(settings.monthlyCapRub) };
  return caps.day === null && caps.month === null ? null : caps;
}

export class Budget {
  /** The user agreed to pass the cap for this reading. */
  lifted = false;

  constructor(
    private readonly caps: Caps,
    /** What the history had spent today and this month when the reading started. */
    private readonly spent: { day: bigint; month: bigint },
    private readonly price: RubUnits,
  ) {}

  /** Whether spending `extra` more than `spentNow` in this reading passes a cap. */
  private passes(spentNow: bigint, extra: bigint): boolean {
    const { day, month } = this.caps;
    return (day !== null && this.spent.day + spentNow + extra > day) || (month !== null && this.spent.month + spentNow + extra > month);
  }

  /** At the start: the whole estimate would pass a cap (the reading asks first). */
  estimatePasses(estimate: RubUnits): boolean {
    return this.passes(0n, estimate);
  }

  /**
   * Before each request: sending `chars` more characters would pass a cap the user did not lift. The next
   * part is priced at the higher of the plan's price and what this reading has actually been billed per
   * character, so a price that rose mid-reading is not trusted twice.
   */
  refuses(ledger: Ledger, chars: number): boolean {
    if (this.lifted) return false;
    const observed = ledger.chars > 0 ? (ledger.cost * 1_000_000n + BigInt(ledger.chars) - 1n) / BigInt(ledger.chars) : 0n;
    return this.passes(ledger.cost, costOf(chars, observed > this.price ? observed : this.price));
  }
}
