import { storage } from 'wxt/utils/storage';
import { formatRubPlain, parseRub } from '../money/money';
import { dayOf } from '../money/totals';

export { dayOf };
import { boundTitle } from '../text/title';
import { boundedItem } from './bounded-item';
import { ID_MAX, MONEY_MAX, storedNumber, storedText, TITLE_MAX } from './bounds';

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
/** And at most this many bytes of JSON (storage.local holds 10 MB in all): the oldest go first. */
export const USAGE_MAX_BYTES = 2 * 1024 * 1024;

/** An entry as stored: its title and request id bounded; null when it is not one (its cost too long to be an amount included). */
function usageEntryOf(value: unknown): UsageEntry | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const time = storedNumber(v.time);
  const chars = storedNumber(v.chars, 0);
  if (time === null || chars === null || typeof v.costRub !== 'string' || v.costRub.length > MONEY_MAX) return null;
  return { time, title: storedText(v.title, TITLE_MAX) ?? '', chars, costRub: v.costRub, requestId: storedText(v.requestId, ID_MAX) ?? '' };
}

/** The history as stored: entries that are not one dropped, titles and ids bounded, the newest USAGE_CAP kept. */
export function usageOf(value: unknown): UsageEntry[] {
  if (!Array.isArray(value)) return [];
  return value
    .slice(-USAGE_CAP)
    .map(usageEntryOf)
    .filter((e) => e !== null);
}

export const usageStorage = boundedItem(storage.defineItem<UsageEntry[]>('local:usage-history', { fallback: [] }), usageOf);
/** Set when the last history write failed (shown to the user), cleared by the next that succeeds. */
export const usageFailedStorage = storage.defineItem<boolean>('session:usage-write-failed', { fallback: false });

const encoder = new TextEncoder();

/** The list with `entry` added, its title bounded, the oldest entries dropped past `cap` rows or `maxBytes`. */
export function appendUsage(list: readonly UsageEntry[], entry: UsageEntry, cap = USAGE_CAP, maxBytes = USAGE_MAX_BYTES): UsageEntry[] {
  const next = [...list, { ...entry, title: boundTitle(entry.title) }];
  let from = Math.max(0, next.length - cap);
  // Measured once as a whole (as storage.local will store it); entries are measured only when some must go.
  let bytes = encoder.encode(JSON.stringify(from ? next.slice(from) : next)).byteLength;
  while (bytes > maxBytes && from < next.length - 1) bytes -= encoder.encode(JSON.stringify(next[from++])).byteLength + 1;
  return from ? next.slice(from) : next;
}

/** What the history says was spent on `now`'s calendar day and month (the user's time zone), exactly. */
export function spentAround(list: readonly UsageEntry[], now: number, timeZone?: string): { day: bigint; month: bigint } {
  const today = dayOf(now, timeZone);
  const month = today.slice(0, 7);
  let day = 0n;
  let inMonth = 0n;
  for (const e of list) {
    const date = dayOf(e.time, timeZone);
    if (!date.startsWith(month)) continue;
    const cost = parseRub(e.costRub) ?? 0n;
    inMonth += cost;
    if (date === today) day += cost;
  }
  return { day, month: inMonth };
}

/** Totals per period (`periodOf` names it, sortable), newest first; sums exact (integer ten-thousandths). */
function totalsBy(list: readonly UsageEntry[], periodOf: (time: number) => string): DayTotal[] {
  const periods = new Map<string, { requests: number; chars: number; cost: bigint }>();
  for (const e of list) {
    const date = periodOf(e.time);
    const period = periods.get(date) ?? { requests: 0, chars: 0, cost: 0n };
    period.requests++;
    period.chars += e.chars;
    period.cost += parseRub(e.costRub) ?? 0n;
    periods.set(date, period);
  }
  return [...periods.entries()]
    .sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0))
    .map(([date, d]) => ({ date, requests: d.requests, chars: d.chars, costRub: formatRubPlain(d.cost) }));
}

/** Totals per day (YYYY-MM-DD in the user's time zone), newest day first. */
export function dailyTotals(list: readonly UsageEntry[], timeZone?: string): DayTotal[] {
  return totalsBy(list, (time) => dayOf(time, timeZone));
}

/** Totals per calendar month (YYYY-MM in the user's time zone), newest first: what the monthly limit counts. */
export function monthlyTotals(list: readonly UsageEntry[], timeZone?: string): DayTotal[] {
  return totalsBy(list, (time) => dayOf(time, timeZone).slice(0, 7));
}

function csvField(value: string): string {
  // A leading =, +, - or @ (after any spaces, which spreadsheets skip) or a leading tab or carriage return
  // is defused (OWASP's rule), so a spreadsheet never runs the field as a formula. Every field is quoted:
  // Excel in a Russian locale splits on ";", which a title may hold, and a cell cut there could begin with "=".
  const safe = /^[\s\u00a0\u2000-\u200b\u3000\ufeff]*[=+\-@＝＋－＠]|^[\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** RFC 4180 CSV with a header, every field quoted; times in ISO 8601 UTC, money as plain decimals. */
export function usageCsv(list: readonly UsageEntry[]): string {
  const rows = [['time', 'title', 'characters', 'cost_rub', 'request_id']];
  for (const e of list) rows.push([new Date(e.time).toISOString(), e.title, String(e.chars), e.costRub, e.requestId]);
  return rows.map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}
