import { describe, expect, it } from 'vitest';
import { charsWithin, mayPay, priceFor, type ReadingPurse, type SpendAsk, type Wallet } from './gate';
import { costOf, parseRub } from './money';

const rub = (s: string) => parseRub(s)!;
const PRICE = rub('1500'); // ₽ per million characters: 0.0015 ₽ a character

const purse = (patch: Partial<ReadingPurse> = {}): ReadingPurse => ({
  readingId: 'r1',
  phase: 'open',
  envelope: { chars: 1_000 },
  committedChars: 0,
  isCommitted: () => false,
  billed: 0n,
  billedChars: 0,
  reserved: 0n,
  price: PRICE,
  capApproval: null,
  saveGrant: null,
  slack: 3n,
  ...patch,
});
const ask = (patch: Partial<SpendAsk> = {}): SpendAsk => ({ readingId: 'r1', part: 0, partKey: 'k0', chars: 400, resumed: false, forSave: false, ...patch });
const wallet = (patch: Partial<Wallet> = {}): Wallet => ({ caps: null, spent: { day: 0n, month: 0n }, writable: true, ...patch });
const cap = (day: string | null, month: string | null = null) => ({ day: day === null ? null : rub(day), month: month === null ? null : rub(month) });

describe('mayPay: the one answer to "may this request be paid for?"', () => {
  it.each<[string, SpendAsk, ReadingPurse | null, Wallet, string]>([
    ['a part within what was agreed', ask(), purse(), wallet(), 'play'],
    ['no reading', ask(), null, wallet(), 'not-current'],
    ['another reading than the one under way (a stale confirmation)', ask({ readingId: 'r0' }), purse(), wallet(), 'not-current'],
    ['the reading still asks first', ask(), purse({ phase: 'asking' }), wallet(), 'not-agreed'],
    ['the reading not decided yet', ask(), purse({ phase: 'planning' }), wallet(), 'not-agreed'],
    ['the reading is over (stopped): its lookahead buys nothing', ask(), purse({ phase: 'over' }), wallet(), 'not-agreed'],
    ['a part that would pass the envelope (the text grew)', ask({ chars: 700 }), purse({ committedChars: 400 }), wallet(), 'over-envelope'],
    ['exactly at the envelope', ask({ chars: 600 }), purse({ committedChars: 400 }), wallet(), 'play'],
    ['a part already let through once (a jump back, a refused cache) is not counted twice', ask({ chars: 700 }), purse({ committedChars: 900, isCommitted: (k) => k === 'k0' }), wallet(), 'play'],
    ['the rest of a dropped stream belongs to its part', ask({ chars: 700, resumed: true }), purse({ committedChars: 900 }), wallet(), 'play'],
    ['agreed while a PDF was counted: the document as counted', ask({ chars: 9_000 }), purse({ envelope: { chars: Infinity }, committedChars: 1e6 }), wallet(), 'play'],
    ['a cap this request would pass', ask(), purse(), wallet({ caps: cap('0.5'), spent: { day: rub('0.0001'), month: 0n } }), 'over-cap'],
    ['a cap it reaches exactly', ask(), purse(), wallet({ caps: cap('0.6') }), 'play'],
    ['a month cap', ask(), purse(), wallet({ caps: cap(null, '10'), spent: { day: 0n, month: rub('9.5') } }), 'over-cap'],
    ['what other requests reserved counts (two in flight never both fit under one cap)', ask(), purse(), wallet({ caps: cap('1'), spent: { day: rub('0.5'), month: rub('0.5') } }), 'over-cap'],
    ['a cap agreed to pass, within the amount agreed', ask(), purse({ capApproval: rub('1'), billed: rub('0.3') }), wallet({ caps: cap('0.5'), spent: { day: rub('0.5'), month: 0n } }), 'play'],
    ['a cap agreed to pass, past the amount agreed', ask(), purse({ capApproval: rub('1'), billed: rub('0.5') }), wallet({ caps: cap('0.5'), spent: { day: rub('0.5'), month: 0n } }), 'over-cap'],
    ['totals that cannot be written, with a cap set: fail closed', ask(), purse(), wallet({ caps: cap('100'), writable: false }), 'totals-unwritable'],
    ['totals that cannot be written, no cap set', ask(), purse(), wallet({ writable: false }), 'play'],
    ['Save as MP3 after a stop, with its confirmation', ask({ forSave: true, part: 3 }), purse({ phase: 'over', saveGrant: { upTo: 5, maxRub: rub('1'), spent: 0n } }), wallet(), 'save'],
    ['Save as MP3 without a confirmation', ask({ forSave: true }), purse({ phase: 'over' }), wallet(), 'not-granted'],
    ['Save as MP3 of a part after those it was confirmed for', ask({ forSave: true, part: 5 }), purse({ phase: 'over', saveGrant: { upTo: 5, maxRub: rub('1'), spent: 0n } }), wallet(), 'not-granted'],
    ['Save as MP3 past the sum it showed', ask({ forSave: true, part: 1 }), purse({ phase: 'over', saveGrant: { upTo: 5, maxRub: rub('1'), spent: rub('0.5') } }), wallet(), 'not-granted'],
    ['Save as MP3 while the reading waits for its own answer', ask({ forSave: true }), purse({ phase: 'asking', saveGrant: { upTo: 5, maxRub: rub('1'), spent: 0n } }), wallet(), 'not-granted'],
    ['Save as MP3 of a reading replaced since', ask({ forSave: true, readingId: 'r0' }), purse({ phase: 'over', saveGrant: { upTo: 5, maxRub: rub('1'), spent: 0n } }), wallet(), 'not-current'],
    ['Save as MP3 under a cap it would pass (a confirmation of the save is not one of the cap)', ask({ forSave: true }), purse({ phase: 'over', capApproval: rub('10'), saveGrant: { upTo: 5, maxRub: rub('1'), spent: 0n } }), wallet({ caps: cap('0.5') }), 'over-cap'],
    ['a part playback may buy and Save as MP3 wants: bought for playback', ask({ forSave: true }), purse({ saveGrant: { upTo: 5, maxRub: rub('1'), spent: 0n } }), wallet(), 'play'],
  ])('%s', (_name, a, p, w, expected) => {
    const decision = mayPay(a, p, w);
    expect(decision.ok ? decision.under : decision.refusal).toBe(expected);
  });

  it('prices a request at the higher of the plan and what the bills show (a price that rose is not trusted twice)', () => {
    expect(priceFor({ price: PRICE, billed: 0n, billedChars: 0 })).toBe(PRICE);
    expect(priceFor({ price: PRICE, billed: costOf(1_000, rub('3000')), billedChars: 1_000 })).toBe(rub('3000'));
    expect(priceFor({ price: PRICE, billed: costOf(1_000, rub('1000')), billedChars: 1_000 })).toBe(PRICE);
    const decision = mayPay(ask({ chars: 100 }), purse({ billed: costOf(1_000, rub('3000')), billedChars: 1_000 }), wallet());
    expect(decision.ok && decision.cost).toBe(costOf(100, rub('3000')));
  });
});

describe('charsWithin: what stays under an amount', () => {
  it.each<[string, string, number]>([
    ['10', '1500', 6_666],
    ['0', '1500', 0],
    ['0.0015', '1500', 1],
    ['10', '0', Infinity],
  ])('%s ₽ at %s ₽ a million: %d characters', (amount, price, chars) => {
    const n = charsWithin(rub(amount), rub(price));
    expect(n).toBe(chars);
    if (Number.isFinite(n)) {
      expect(costOf(n, rub(price))).toBeLessThanOrEqual(rub(amount));
      expect(costOf(n + 1, rub(price))).toBeGreaterThan(rub(amount));
    }
  });
});
