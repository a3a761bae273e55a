import { formatRub, parseRub } from '@/utils/money/money';

/** Shows a 4-digit decimal ruble string in the user's locale; empty when not known yet. */
export function Money({ value, locale }: { value: string; locale: string }) {
  const units = value ? parseRub(value) : null;
  return <>{units === null ? '—' : formatRub(units, locale)}</>;
}
