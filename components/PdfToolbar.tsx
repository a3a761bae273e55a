import { useEffect, useRef, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { Money } from '@/components/Money';
import { errorText, i18n } from '@/utils/pages/i18n';
import { sendMessage } from '@/utils/messaging/protocol';
import { pagesCost, type PagesCost } from '@/utils/pdf/costs';
import type { PdfSession } from '@/utils/pdf/page';
import type { Settings } from '@/utils/storage/settings';

type Theme = 'light' | 'dark';
const THEME_KEY = 'trysasha-pdf-theme';

function initialTheme(): Theme {
  const saved = localStorage.getItem(THEME_KEY);
  if (saved === 'light' || saved === 'dark') return saved;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** The cost of pages `from`…`to`, counted again when they or the price change (null while counting). */
function useCost(session: PdfSession | null, from: number, to: number, pricing: { settings: Settings; price: string | null } | null): PagesCost | null {
  // Kept with the pages it is for: a cost of other pages is never shown, even for the one render before it is counted again.
  const [cost, setCost] = useState<(PagesCost & { key: string }) | null>(null);
  const key = `${from}-${to}`;
  useEffect(() => {
    if (!session || !pricing || from < 1 || to < from || to > session.text.pageCount) return setCost(null);
    const abort = new AbortController();
    setCost(null);
    pagesCost(session.text, from, to, pricing.settings, pricing.price, abort.signal).then(
      (c) => !abort.signal.aborted && setCost({ ...c, key }),
      () => undefined,
    );
    return () => abort.abort();
  }, [session, from, to, pricing]);
  return cost?.key === key ? cost : null;
}

const CostLine = ({ testId, cost, label, from, to, locale }: { testId: string; cost: PagesCost | null; label: (chars: string) => string; from: number; to: number; locale: string }) => (
  <span class="cost" data-testid={testId} data-from={String(from)} data-to={String(to)} data-chars={cost ? String(cost.chars) : ''} data-value={cost?.rub ?? ''} data-counting={cost ? 'false' : 'true'}>
    {cost ? (
      <>
        {label(cost.chars.toLocaleString(locale))}
        {cost.rub && (
          <>
            {' · ≈ '}
            <Money value={cost.rub} locale={locale} />
          </>
        )}
      </>
    ) : (
      i18n.t('pdfCounting')
    )}
  </span>
);

/** The PDF page's bar: the page in view and its cost, "read pages X–Y" with its cost, light or dark pages. */
export function PdfToolbar({ ready, locale }: { ready: Promise<PdfSession>; locale: string }) {
  const [session, setSession] = useState<PdfSession | null>(null);
  const [error, setError] = useState('');
  const [page, setPage] = useState(1);
  // The fields' text as typed (each keystroke kept: a render meanwhile, such as a cost counted, would
  // otherwise put back the number last committed while the listener types the other field).
  const [fromText, setFromText] = useState('1');
  const [toText, setToText] = useState('1');
  const [theme, setTheme] = useState<Theme>(initialTheme);
  const [pricing, setPricing] = useState<{ settings: Settings; price: string | null } | null>(null);

  useEffect(() => {
    ready.then(
      (s) => {
        setSession(s);
        setToText(String(s.text.pageCount));
        document.title = s.opened.title;
        s.opened.onPageChange(setPage);
      },
      (err: unknown) => setError((err as { code?: string }).code ?? 'bad-pdf'),
    );
    void sendMessage('getSettings', undefined).then((v) => setPricing({ settings: v.settings, price: v.account?.pricePerMillionRub ?? null }));
  }, [ready]);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  // The document starts below the bar, which wraps to more lines in a narrow window or at a large zoom.
  const bar = useRef<HTMLElement>(null);
  useEffect(() => {
    const el = bar.current;
    if (!el) return;
    const fit = () => document.documentElement.style.setProperty('--bar-height', `${Math.ceil(el.getBoundingClientRect().height) + 4}px`);
    const watch = new ResizeObserver(fit);
    watch.observe(el);
    fit();
    return () => watch.disconnect();
  }, []);

  const from = Math.trunc(Number(fromText));
  const to = Math.trunc(Number(toText));
  const pageCost = useCost(session, page, page, pricing);
  const rangeCost = useCost(session, from, to, pricing);
  const pages = session?.text.pageCount ?? 0;
  const toggleTheme = () => {
    const next = theme === 'dark' ? 'light' : 'dark';
    localStorage.setItem(THEME_KEY, next);
    setTheme(next);
  };
  const readRange = async () => {
    if (!session) return;
    session.reader.nextRange = { from, to };
    const tab = await browser.tabs.getCurrent();
    if (tab?.id !== undefined) await sendMessage('startReading', { tabId: tab.id, force: true });
  };
  const typed = (set: (text: string) => void) => (e: Event) => set((e.currentTarget as HTMLInputElement).value);
  const rangeOk = from >= 1 && to >= from && to <= pages;

  return (
    <header ref={bar} class="bar" data-testid="pdf-toolbar" data-state={error ? 'error' : session ? 'ready' : 'loading'} data-pages={String(pages)} data-page={String(page)}>
      {/* What changes as the pages go by (the page in view, its cost) on a line of its own: the range's fields and its button below never move. */}
      <div class="info">
        <strong class="title">{session?.opened.title ?? i18n.t('pdfLoading')}</strong>
        <span class="error" role="alert" data-testid="pdf-error" data-code={error}>
          {error ? errorText(error) : ''}
        </span>
        {session && (
          <>
            <span class="where">
              {page} / {pages}
            </span>
            <CostLine testId="pdf-page-cost" cost={pageCost} label={(chars) => i18n.t('pdfPageCost', { chars })} from={page} to={page} locale={locale} />
          </>
        )}
        <button type="button" class="theme" data-testid="pdf-theme" data-theme={theme} onClick={toggleTheme}>
          {theme === 'dark' ? i18n.t('pdfLight') : i18n.t('pdfDark')}
        </button>
      </div>
      {session && (
        <>
          <span class="range">
            <label>
              {i18n.t('pdfFrom')} <input type="number" min={1} max={pages} value={fromText} data-testid="pdf-from" onInput={typed(setFromText)} />
            </label>
            <label>
              {i18n.t('pdfTo')} <input type="number" min={1} max={pages} value={toText} data-testid="pdf-to" onInput={typed(setToText)} />
            </label>
            <button type="button" data-testid="pdf-read" disabled={!rangeOk} onClick={() => void readRange()}>
              {i18n.t('pdfReadPages')}
            </button>
            {/* After the button: its text changes while the range is typed and counted. */}
            <CostLine testId="pdf-range-cost" cost={rangeOk ? rangeCost : null} label={(chars) => i18n.t('pdfRangeCost', { chars })} from={from} to={to} locale={locale} />
          </span>
          <span class="hint">{i18n.t('pdfHint')}</span>
        </>
      )}
    </header>
  );
}
