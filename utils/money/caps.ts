/**
 * Spending caps per day and per month (off by default). A reading whose estimate would pass a cap asks
 * first; agreed to, that reading may pass it by what it was estimated at. Every request is checked
 * against the caps by the spending gate (`gate.ts`), on the spending totals (`totals.ts`), never on the
 * usage history.
 */
import { parseRub, type RubUnits } from './money';
import type { Spent } from './totals';

export interface Caps {
  day: RubUnits | null;
  month: RubUnits | null;
}

const cap = (value: string | undefined): RubUnits | null => {
  const units = value?.trim() ? parseRub(value.trim()) : null;
  return units !== null && units >= 0n ? units : null;
};

/** The caps the settings set; null when neither is. */
export function capsOf(settings: { dailyCapRub?: string; monthlyCapRub?: string }): Caps | null {
  const caps = { day: cap(settings.dailyCapRub), month: cap(settings.monthlyCapRub) };
  return caps.day === null && caps.month === null ? null : caps;
}

/** Whether spending `extra` on top of `spent` passes a cap. */
export function passesCaps(caps: Caps | null, spent: Spent, extra: RubUnits): boolean {
  if (!caps) return false;
  return (caps.day !== null && spent.day + extra > caps.day) || (caps.month !== null && spent.month + extra > caps.month);
}
