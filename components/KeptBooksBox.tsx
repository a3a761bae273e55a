/**
 * The options page's line on the books kept on this computer (`utils/book/kept.ts`): how many and how much
 * room they take of the bound, and a button that removes them all (their places stay; reopening asks for the file).
 * Nothing kept: the line is not shown.
 */
import { useEffect, useState } from 'preact/hooks';
import { i18n } from '@/utils/pages/i18n';
import { KEPT_BOOKS_MAX_BYTES, keptBooks, type KeptSummary } from '@/utils/book/kept';

export function KeptBooksBox({ locale }: { locale: string }) {
  const [summary, setSummary] = useState<KeptSummary | null>(null);
  const [store] = useState(() => keptBooks());
  const refresh = () => void store.summary().then(setSummary, () => setSummary({ count: 0, bytes: 0 }));
  useEffect(refresh, [store]);
  // Nothing kept: nothing to show (the book page says what keeping is).
  if (!summary || summary.count === 0) return null;
  const mb = (bytes: number) => new Intl.NumberFormat(locale, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 }).format(bytes / 2 ** 20);
  return (
    <p class="kept-books" data-testid="kept-books" data-count={String(summary.count)} data-bytes={String(summary.bytes)}>
      {i18n.t('keptBooks', { count: String(summary.count), size: mb(summary.bytes), max: mb(KEPT_BOOKS_MAX_BYTES) })}{' '}
      <button type="button" data-testid="clear-kept-books" onClick={() => void store.clear().then(refresh)}>
        {i18n.t('clearKeptBooks')}
      </button>
    </p>
  );
}
