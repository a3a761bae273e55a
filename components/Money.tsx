import { formatKopecks, formatRub, parseRub, toKopecks } from '@/utils/money/money';

/**
 * A 4-digit decimal ruble string in the user's locale, in whole kopecks as people read money ("2,97 ₽");
 * the exact sum, where rounding hid part of it, on hover and on focus (`title`, and `data-exact` shown by CSS).
 * `exact`: four digits where the exact sum matters (the usage history). Empty: not known yet ("—").
 */
export function Money({ value, locale, exact = false }: { value: string; locale: string; exact?: boolean }) {
  const units = value ? parseRub(value) : null;
  if (units === null) return <>—</>;
  const full = formatRub(units, locale);
  if (exact) return <>{full}</>;
  if (toKopecks(units) === units) return <>{formatKopecks(units, locale)}</>;
  return (
    <span class="money" title={full} data-exact={full} tabIndex={0}>
      {formatKopecks(units, locale)}
    </span>
  );
}
