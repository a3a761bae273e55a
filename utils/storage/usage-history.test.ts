import { describe, expect, it } from 'vitest';
import { boundTitle, TITLE_MAX } from '../text/title';
import { appendUsage, dailyTotals, dayOf, monthlyTotals, spentAround, usageCsv, type UsageEntry } from './usage-history';

const at = (iso: string) => Date.parse(iso);
const entry = (iso: string, chars: number, costRub: string, title = 'Статья', requestId = 'req_1'): UsageEntry => ({
  time: at(iso),
  title,
  chars,
  costRub,
  requestId,
});

describe('dailyTotals', () => {
  it.each([
    [
      'sums exactly per day, newest first',
      [entry('2026-11-20T10:00:00Z', 100, '0.1500'), entry('2026-11-20T12:00:00Z', 3, '0.0045'), entry('2026-11-21T09:00:00Z', 7, '0.0105')],
      'UTC',
      [
        { date: '2026-11-21', requests: 1, chars: 7, costRub: '0.0105' },
        { date: '2026-11-20', requests: 2, chars: 103, costRub: '0.1545' },
      ],
    ],
    [
      'the day is the user’s: 23:30 UTC is already tomorrow in Moscow',
      [entry('2026-11-20T23:30:00Z', 10, '0.0150')],
      'Europe/Moscow',
      [{ date: '2026-11-21', requests: 1, chars: 10, costRub: '0.0150' }],
    ],
    ['no entries, no days', [], 'UTC', []],
    [
      'ten thousand small costs add up with no float drift',
      Array.from({ length: 10_000 }, () => entry('2026-11-20T10:00:00Z', 1, '0.0001')),
      'UTC',
      [{ date: '2026-11-20', requests: 10_000, chars: 10_000, costRub: '1.0000' }],
    ],
  ])('%s', (_name, list, tz, expected) => {
    expect(dailyTotals(list, tz)).toEqual(expected);
  });

  it('dayOf formats YYYY-MM-DD', () => expect(dayOf(at('2026-01-05T12:00:00Z'), 'UTC')).toBe('2026-01-05'));
});

describe('monthlyTotals and spentAround', () => {
  const list = [
    entry('2026-10-31T21:30:00Z', 10, '0.0150'), // 00:30 on 1 November in Moscow
    entry('2026-10-15T10:00:00Z', 100, '0.1500'),
    entry('2026-11-23T08:00:00Z', 7, '0.0105'),
  ];
  it('sums per calendar month in the user’s time zone, newest first', () => {
    expect(monthlyTotals(list, 'Europe/Moscow')).toEqual([
      { date: '2026-11', requests: 2, chars: 17, costRub: '0.0255' },
      { date: '2026-10', requests: 1, chars: 100, costRub: '0.1500' },
    ]);
  });
  it('what today and this month have spent, exactly', () => {
    expect(spentAround(list, Date.parse('2026-11-23T12:00:00Z'), 'Europe/Moscow')).toEqual({ day: 105n, month: 255n });
  });
});

describe('usageCsv', () => {
  const HEAD = '"time","title","characters","cost_rub","request_id"';
  it.each([
    ['plain', entry('2026-11-20T10:00:00Z', 42, '0.0630'), '"2026-11-20T10:00:00.000Z","Статья","42","0.0630","req_1"'],
    ['a comma and quotes in the title', entry('2026-11-20T10:00:00Z', 1, '0.0015', 'Он сказал: "да", и ушёл'), '"2026-11-20T10:00:00.000Z","Он сказал: ""да"", и ушёл","1","0.0015","req_1"'],
    ['a formula-looking title is defused', entry('2026-11-20T10:00:00Z', 1, '0.0015', '=HYPERLINK("x")'), `"2026-11-20T10:00:00.000Z","'=HYPERLINK(""x"")","1","0.0015","req_1"`],
    ['a formula after spaces is defused', entry('2026-11-20T10:00:00Z', 1, '0.0015', '  =1+2'), `"2026-11-20T10:00:00.000Z","'  =1+2","1","0.0015","req_1"`],
    ['a formula after a no-break space is defused', entry('2026-11-20T10:00:00Z', 1, '0.0015', '\u00a0@SUM(A1)'), `"2026-11-20T10:00:00.000Z","'\u00a0@SUM(A1)","1","0.0015","req_1"`],
    ['a full-width equals sign is defused', entry('2026-11-20T10:00:00Z', 1, '0.0015', '＝1+2'), `"2026-11-20T10:00:00.000Z","'＝1+2","1","0.0015","req_1"`],
    ['a leading tab is defused', entry('2026-11-20T10:00:00Z', 1, '0.0015', '\t=1'), `"2026-11-20T10:00:00.000Z","'\t=1","1","0.0015","req_1"`],
    ['a minus inside a title is left alone', entry('2026-11-20T10:00:00Z', 1, '0.0015', 'Итоги 2025 - 2026'), '"2026-11-20T10:00:00.000Z","Итоги 2025 - 2026","1","0.0015","req_1"'],
    ['a newline in the title', entry('2026-11-20T10:00:00Z', 1, '0.0015', 'a\nb'), '"2026-11-20T10:00:00.000Z","a\nb","1","0.0015","req_1"'],
  ])('%s', (_name, e, row) => {
    expect(usageCsv([e])).toBe(`${HEAD}\r\n${row}\r\n`);
  });

  /** The cells a spreadsheet sees, splitting on `separator` (Excel in a Russian locale: ";") and honouring quotes. */
  function cells(csv: string, separator: string): string[][] {
    const rows: string[][] = [];
    let row: string[] = [];
    let cell = '';
    let quoted = false;
    for (let i = 0; i < csv.length; i++) {
      const c = csv[i]!;
      if (quoted && c === '"' && csv[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') {
        quoted = !quoted;
      } else if (!quoted && c === separator) {
        row.push(cell);
        cell = '';
      } else if (!quoted && c === '\r' && csv[i + 1] === '\n') {
        row.push(cell);
        rows.push(row);
        row = [];
        cell = '';
        i++;
      } else {
        cell += c;
      }
    }
    return rows;
  }

  it.each([',', ';'])('opened as a sheet split on "%s", no cell begins a formula, and a title is one cell', (separator) => {
    const titles = ['Итоги; =1+2', 'a;@SUM(A1)', 'x, +7', '-1; -2', 'обычная'];
    const csv = usageCsv(titles.map((t) => entry('2026-11-20T10:00:00Z', 1, '0.0015', t)));
    const sheet = cells(csv, separator);
    if (separator === ',') expect(sheet.slice(1).map((r) => r[1])).toEqual(['Итоги; =1+2', 'a;@SUM(A1)', 'x, +7', "'-1; -2", 'обычная']);
    for (const row of sheet) for (const cell of row) expect(cell).not.toMatch(/^\s*[=+\-@]|^[\t\r]/);
  });
});

describe('appendUsage', () => {
  it('keeps the newest entries up to the cap', () => {
    const list = [1, 2, 3].map((n) => entry('2026-11-20T10:00:00Z', n, '0.0001'));
    expect(appendUsage(list, entry('2026-11-20T10:00:00Z', 4, '0.0001'), 3).map((e) => e.chars)).toEqual([2, 3, 4]);
  });

  it('a page title of a million characters is stored cut, and every billed request still gets its row', () => {
    let list: UsageEntry[] = [];
    for (let n = 1; n <= 14; n++) list = appendUsage(list, entry('2026-11-20T10:00:00Z', n, '0.0001', 'Заголовок '.repeat(110_000)));
    expect(list).toHaveLength(14);
    expect(list.every((e) => e.title.length === TITLE_MAX && e.title.endsWith('…'))).toBe(true);
    expect(JSON.stringify(list).length).toBeLessThan(14 * 1000);
  });

  it('past the byte cap the oldest entries go, whatever the row count', () => {
    let list: UsageEntry[] = [];
    for (let n = 1; n <= 100; n++) list = appendUsage(list, entry('2026-11-20T10:00:00Z', n, '0.0001', 'x'.repeat(250)), 10_000, 5_000);
    expect(new TextEncoder().encode(JSON.stringify(list)).byteLength).toBeLessThanOrEqual(5_000);
    expect(list.at(-1)!.chars).toBe(100);
    expect(list.length).toBeGreaterThan(10);
  });
});

describe('boundTitle', () => {
  it.each([
    ['short', 'Статья', 'Статья'],
    ['cut with an ellipsis', 'a'.repeat(400), `${'a'.repeat(TITLE_MAX - 1)}…`],
    ['never half an emoji', `${'a'.repeat(TITLE_MAX - 2)}😀😀😀`, `${'a'.repeat(TITLE_MAX - 2)}…`],
  ])('%s', (_name, title, expected) => {
    expect(boundTitle(title)).toBe(expected);
  });
});
