/** Rubles as integer ten-thousandths (BigInt), the way the service keeps them. */

const UNITS_PER_RUB = 10_000n;
const CHARS_PER_PRICE_UNIT = 1_000_000n;
const RUB_PATTERN = /^(-?)(\d+)(?:\.(\d{1,4}))?$/;

/** "100.0000" → 1_000_000n. Accepts 0–4 fraction digits and a leading minus; throws otherwise. */
export function parseRub(text: string): bigint {
  const match = RUB_PATTERN.exec(text.trim());
  if (!match) throw new Error(`not a ruble amount with at most 4 fraction digits: ${JSON.stringify(text)}`);
  const [, sign, whole = '0', fraction = ''] = match;
  const units = BigInt(whole) * UNITS_PER_RUB + BigInt(fraction.padEnd(4, '0'));
  return sign ? -units : units;
}

/** 1_000_000n → "100.0000"; -150n → "-0.0150". */
export function formatRub(units: bigint): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const fraction = (abs % UNITS_PER_RUB).toString().padStart(4, '0');
  return `${negative ? '-' : ''}${abs / UNITS_PER_RUB}.${fraction}`;
}

/** chars × price per million, rounded half-up to whole ten-thousandths of a ruble. */
export function costUnits(chars: number, pricePerMillionUnits: bigint): bigint {
  const exact = BigInt(chars) * pricePerMillionUnits;
  return (exact * 2n + CHARS_PER_PRICE_UNIT) / (2n * CHARS_PER_PRICE_UNIT);
}
