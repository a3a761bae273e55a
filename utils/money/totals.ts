/**
 * What was spent today and this month, as money rather than as a list of requests: the spending caps are
 * checked against these totals, which are kept apart from the usage history (never trimmed, not cleared
 * with it). Pure: the book that keeps them is `spending-book.ts`.
 */
import { formatRubPlain, parseRub, type RubUnits } from './money';

/** The calendar day of `time` in `timeZone` (the browser's when not given), as YYYY-MM-DD. */
export function dayOf(time: number, timeZone?: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(time);
}

/** As stored: the day and month they count (YYYY-MM-DD, YYYY-MM) and their sums as plain decimals. */
export interface SpendingTotals {
  day: string;
  dayRub: string;
  month: string;
  monthRub: string;
}

export interface Spent {
  day: RubUnits;
  month: RubUnits;
}

const units = (value: string): RubUnits => {
  const parsed = parseRub(value);
  return parsed !== null && parsed > 0n ? parsed : 0n;
};

/** What `totals` say was spent on `today` (YYYY-MM-DD) and in its month: nothing for a day or month that has passed. */
export function spentOn(totals: SpendingTotals | null, today: string): Spent {
  if (!totals) return { day: 0n, month: 0n };
  return {
    day: totals.day === today ? units(totals.dayRub) : 0n,
    month: totals.month === today.slice(0, 7) ? units(totals.monthRub) : 0n,
  };
}

/**
 * The totals on `today` with `delta` added to the day and the month (negative: a reservation given back;
 * never below zero). A day or month that has passed starts again from zero.
 */
export function withSpent(totals: SpendingTotals | null, today: string, delta: RubUnits): SpendingTotals {
  const spent = spentOn(totals, today);
  const clamp = (n: RubUnits) => (n > 0n ? n : 0n);
  return { day: today, dayRub: formatRubPlain(clamp(spent.day + delta)), month: today.slice(0, 7), monthRub: formatRubPlain(clamp(spent.month + delta)) };
}

/** Totals that start from `spent` on `today` (the first run of a version that keeps them: from the usage history). */
export function totalsFrom(spent: Spent, today: string): SpendingTotals {
  return { day: today, dayRub: formatRubPlain(spent.day), month: today.slice(0, 7), monthRub: formatRubPlain(spent.month) };
}
