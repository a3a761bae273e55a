import { storage } from 'wxt/utils/storage';
import { formatRubPlain, parseRub } from '../speech/money';

/** One paid request, as the service billed it. */
export interface UsageEntry {
  /** Epoch milliseconds. */
  time: number;
  title: string;
  chars: number;
  /** 4-digit decimal rubles, as in X-Cost-Rub. */
  costRub: string;
  requestId: string;
}

export interface DayTotal {
  /** YYYY-MM-DD in the user's time zone. */
  date: string;
  requests: number;
  chars: number;
  costRub: string;
}

/** Enough for years of daily reading; the oldest go first. */
export const USAGE_CAP = 10_000;

export const usageStorage = storage.defineItem<UsageEntry[]>('local:usage-history', { fallback: [] });

export function appendUsage(list: readonly UsageEntry[], entry: UsageEntry, cap = USAGE_CAP): UsageEntry[] {
  const next = [...list, entry];
  return next.length > cap ? next.slice(next.length - cap) : next;
}

/** The calendar day of `time` in `timeZone`, as YYYY-MM-DD. */
export function dayOf(time: number, timeZone?: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(time);
}

/** Totals per day, newest day first; sums exact (integer ten-thousandths). */
export function dailyTotals(list: readonly UsageEntry[], timeZone?: string): DayTotal[] {
  const days = new Map<string, { requests: number; chars: number; cost: bigint }>();
  for (const e of list) {
    const date = dayOf(e.time, timeZone);
    const day = days.get(date) ?? { requests: 0, chars: 0, cost: 0n };
    day.requests++;
    day.chars += e.chars;
    day.cost += parseRub(e.costRub) ?? 0n;
    days.set(date, day);
  }
  return [...days.entries()]
    .sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0))
    .map(([date, d]) => ({ date, requests: d.requests, chars: d.chars, costRub: formatRubPlain(d.cost) }));
}

function csvField(value: string): string {
  // Quoted when needed; a leading =, +, - or @ is defused so a spreadsheet never runs it as a formula.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** RFC 4180 CSV with a header; times in ISO 8601 UTC, money as plain decimals. */
export function usageCsv(list: readonly UsageEntry[]): string {
  const rows = [['time', 'title', 'characters', 'cost_rub', 'request_id']];
  for (const e of list) rows.push([new Date(e.time).toISOString(), e.title, String(e.chars), e.costRub, e.requestId]);
  return rows.map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}
