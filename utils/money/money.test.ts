import { describe, expect, it } from 'vitest';
import { costOf, formatKopecks, formatRub, toKopecks, formatRubPlain, parseRub, sumRub, type RubUnits } from './money';

describe('parseRub', () => {
  it.each<[string, RubUnits]>([
    ['12.3400', 123_400n],
    ['12.34', 123_400n],
    ['12', 120_000n],
    ['-0.0150', -150n],
    ['0.5', 5_000n],
    ['  7.0001 ', 70_001n],
    ['0,5', 5_000n],
    ['10,25', 102_500n],
    ['.5', 5_000n],
    ['12.', 120_000n],
    ['+3', 30_000n],
    ['\u22121.5', -15_000n],
    ['0', 0n],
    ['-0.0000', 0n],
    ['00012.0000', 120_000n],
    ['123456789012345678.9999', 1_234_567_890_123_456_789_999n],
  ])('%j → %s units', (input, units) => {
    expect(parseRub(input)).toBe(units);
  });

  it.each<[string, RubUnits]>([
    ['0.00005', 1n],
    ['0.00004999', 0n],
    ['1.23456', 12_346n],
    ['1.23454', 12_345n],
    ['0.99995', 10_000n],
    ['-0.00005', -1n],
    ['-1.23455', -12_346n],
    ['-0.00004', 0n],
  ])('rounds %j half away from zero → %s', (input, units) => {
    expect(parseRub(input)).toBe(units);
  });

  it.each(['abc', '', '   ', '1e3', 'NaN', 'Infinity', '-', '.', '1.2.3', '1,5,0', '1 000', '0x10', '12 ₽', '--1', '١٢'])(
    '%j → null',
    (input) => {
      expect(parseRub(input)).toBeNull();
    },
  );
});

describe('formatRubPlain', () => {
  it.each<[RubUnits, string]>([
    [123_400n, '12.3400'],
    [-150n, '-0.0150'],
    [0n, '0.0000'],
    [1n, '0.0001'],
    [-1n, '-0.0001'],
    [10_000n, '1.0000'],
    [-123_456_789n, '-12345.6789'],
    [1_234_567_890_123_456_789_999n, '123456789012345678.9999'],
  ])('%s → %j', (units, text) => {
    expect(formatRubPlain(units)).toBe(text);
    expect(text).toMatch(/^-?\d+\.\d{4}$/);
  });

  it.each(['12.3456', '-0.0150', '0.0000', '99999999999.9999'])('round-trips %j through parseRub', (text) => {
    expect(formatRubPlain(parseRub(text)!)).toBe(text);
  });
});

describe('costOf', () => {
  it.each<[number, RubUnits, RubUnits]>([
    // price 150.0000 ₽ per million characters = 1_500_000 units
    [1_000_000, 1_500_000n, 1_500_000n],
    [1, 1_500_000n, 2n], // 1.5 units → 2
    [3, 1_500_000n, 5n], // 4.5 units → 5
    [1_000, 1_500_000n, 1_500n],
    [333, 1_000_000n, 333n],
    [1, 499_999n, 0n], // 0.499999 units → 0
    [1, 500_000n, 1n], // exactly half → up
    [0, 1_500_000n, 0n],
    [1_234_567, 2_345_678n, 2_895_897n], // 2895896.65… → 2895897
    [1, -500_000n, -1n], // symmetric for a negative price
  ])('%i chars at %s units/million → %s', (chars, price, cost) => {
    expect(costOf(chars, price)).toBe(cost);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses a character count of %s', (chars) => {
    expect(() => costOf(chars, 1n)).toThrow(RangeError);
  });
});

describe('sumRub', () => {
  it.each<[RubUnits[], RubUnits]>([
    [[], 0n],
    [[150n], 150n],
    [[1n, 2n, 3n], 6n],
    [[10_000n, -150n], 9_850n],
    // Ten payments of 0.1 ₽ are exactly 1 ₽ (0.1 + … in floats is 0.9999999999999999).
    [Array.from({ length: 10 }, () => 1_000n), 10_000n],
  ])('[%s] → %s', (list, total) => {
    expect(sumRub(list)).toBe(total);
  });
});

describe('formatRub', () => {
  const digitsOf = (s: string): string => s.replace(/[^\d.,-]/g, '');

  it.each<[RubUnits, string, string]>([
    [123_456n, 'ru-RU', '12,3456'],
    [123_400n, 'ru-RU', '12,34'],
    [120_000n, 'ru-RU', '12,00'],
    [-150n, 'ru-RU', '-0,015'],
    [12_345_678_912_345n, 'ru-RU', '1234567891,2345'],
    [123_456n, 'en-US', '12.3456'],
    [123_400n, 'en-US', '12.34'],
    [1n, 'en-US', '0.0001'],
    [-150n, 'en-US', '-0.015'],
    // Past 2^53: a float would already have lost the last digits.
    [90_071_992_547_409_931_234n, 'en-US', '9,007,199,254,740,993.1234'],
  ])('%s in %s shows %j', (units, locale, digits) => {
    expect(digitsOf(formatRub(units, locale))).toBe(digits);
  });

  it.each([
    ['ru-RU', /₽/],
    ['en-US', /RUB|₽/],
  ])('%s names the currency', (locale, symbol) => {
    expect(formatRub(123_456n, locale)).toMatch(symbol);
  });

  it('falls back to Russian for an invalid locale tag', () => {
    expect(formatRub(123_456n, 'not a locale!')).toBe(formatRub(123_456n, 'ru-RU'));
  });
});

describe('formatKopecks: money as people read it', () => {
  const flat = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
  it.each<[RubUnits, string, string]>([
    [29_715n, 'ru-RU', '2,97 ₽'],
    [29_750n, 'ru-RU', '2,98 ₽'],
    [29_749n, 'ru-RU', '2,97 ₽'],
    [120_000n, 'ru-RU', '12,00 ₽'],
    [0n, 'ru-RU', '0,00 ₽'],
    [30n, 'ru-RU', '< 0,01 ₽'],
    [50n, 'ru-RU', '0,01 ₽'],
    [-29_750n, 'ru-RU', '-2,98 ₽'],
    [12_345_678_912_345n, 'ru-RU', '1 234 567 891,23 ₽'],
    [29_715n, 'en-US', 'RUB 2.97'],
    [30n, 'en-US', '< RUB 0.01'],
  ])('%s in %s → %j', (units, locale, text) => {
    expect(flat(formatKopecks(units, locale))).toBe(text);
  });

  it.each<[RubUnits, RubUnits]>([
    [29_715n, 29_700n],
    [29_750n, 29_800n],
    [-29_750n, -29_800n],
    [49n, 0n],
  ])('toKopecks(%s) = %s', (units, kopecks) => expect(toKopecks(units)).toBe(kopecks));
});
