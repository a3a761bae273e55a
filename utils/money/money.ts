/**
 * Money as integer ten-thousandths of a ruble. The service sends and bills amounts with
 * four fraction digits, so bigint units keep every sum exact; floats never touch money.
 */
export type RubUnits = bigint;

export const UNITS_PER_RUB = 10_000n;
const FRACTION_DIGITS = 4;
const CHARS_PER_PRICE = 1_000_000n;

// Sign, whole part, fraction part. A dot or a comma separates them: in a Russian locale people type "1,5".
// "+", "-" and U+2212 (the minus sign some locales format with) are accepted as signs.
const RUB_PATTERN = /^([+\-\u2212]?)(?:(\d+)(?:[.,](\d*))?|[.,](\d+))$/;

/**
 * "12.3400" → 123400n, "-0.0150" → -150n, "0,5" → 5000n, " 12 " → 120000n.
 * More than four fraction digits round half away from zero ("0.00005" → 1n, "-0.00005" → -1n),
 * the same rule `costOf` uses, so a sign never changes how a magnitude rounds.
 * Anything else (exponents, grouping spaces, "NaN", "") → null.
 */
export function parseRub(s: string): RubUnits | null {
  const match = RUB_PATTERN.exec(s.trim());
  if (!match) return null;
  const [, sign = '', whole = '0', fractionAfterWhole, fractionAlone] = match;
  const fraction = fractionAfterWhole ?? fractionAlone ?? '';
  const kept = fraction.slice(0, FRACTION_DIGITS).padEnd(FRACTION_DIGITS, '0');
  const roundUp = fraction.length > FRACTION_DIGITS && fraction.charCodeAt(FRACTION_DIGITS) >= 0x35; // '5'
  const magnitude = BigInt(whole) * UNITS_PER_RUB + BigInt(kept) + (roundUp ? 1n : 0n);
  return sign === '' || sign === '+' ? magnitude : -magnitude;
}

/** 123400n → "12.3400", -150n → "-0.0150": the CONTRACT's `-?\d+\.\d{4}` attribute format. */
export function formatRubPlain(u: RubUnits): string {
  const negative = u < 0n;
  const abs = negative ? -u : u;
  const fraction = (abs % UNITS_PER_RUB).toString().padStart(FRACTION_DIGITS, '0');
  return `${negative ? '-' : ''}${abs / UNITS_PER_RUB}.${fraction}`;
}

/** chars × price per million characters, rounded half away from zero to whole units. */
export function costOf(chars: number, pricePerMillion: RubUnits): RubUnits {
  if (!Number.isSafeInteger(chars) || chars < 0) throw new RangeError(`not a character count: ${chars}`);
  return divideRounded(BigInt(chars) * pricePerMillion, CHARS_PER_PRICE);
}

export function sumRub(list: readonly RubUnits[]): RubUnits {
  return list.reduce((total, u) => total + u, 0n);
}

/**
 * Localized currency text with 2 to 4 fraction digits: 123456n → "12,3456 ₽" (ru-RU), "RUB 12.3456" (en-US).
 * The amount goes to Intl as a decimal string (Intl.NumberFormat v3), so no float rounding happens.
 * An invalid locale tag falls back to Russian rather than throwing inside a UI render.
 */
export function formatRub(u: RubUnits, locale: string): string {
  return currencyFormat(locale).format(formatRubPlain(u) as `${number}`);
}

/** Units in a kopeck. */
const UNITS_PER_KOPECK = 100n;

/**
 * `u` to the nearest whole kopeck, half away from zero (the way people read a price): 29715n → 29700n.
 * A sum that is not zero never shows as zero: under half a kopeck it is one kopeck, shown with "<" (`formatKopecks`).
 */
export function toKopecks(u: RubUnits): RubUnits {
  return divideRounded(u, UNITS_PER_KOPECK) * UNITS_PER_KOPECK;
}

/**
 * Localized currency text in whole kopecks, as people read money: 29715n → "2,97 ₽" (ru-RU), "RUB 2.97"
 * (en-US); a non-zero sum under half a kopeck → "< 0,01 ₽". Four digits only where the exact sum matters
 * (`formatRub`: the usage history, its CSV, a detail on hover or focus).
 */
export function formatKopecks(u: RubUnits, locale: string): string {
  const rounded = toKopecks(u);
  if (rounded === 0n && u !== 0n) return `< ${currencyFormat(locale, 2).format(formatRubPlain(u < 0n ? -UNITS_PER_KOPECK : UNITS_PER_KOPECK) as `${number}`)}`;
  return currencyFormat(locale, 2).format(formatRubPlain(rounded) as `${number}`);
}

function currencyFormat(locale: string, maximumFractionDigits = FRACTION_DIGITS): Intl.NumberFormat {
  const options: Intl.NumberFormatOptions = {
    style: 'currency',
    currency: 'RUB',
    minimumFractionDigits: 2,
    maximumFractionDigits,
  };
  try {
    return new Intl.NumberFormat(locale, options);
  } catch {
    return new Intl.NumberFormat('ru-RU', options);
  }
}

function divideRounded(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n;
  const abs = negative ? -numerator : numerator;
  const quotient = (abs * 2n + denominator) / (2n * denominator);
  return negative ? -quotient : quotient;
}
