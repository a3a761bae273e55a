import { useEffect, useState } from 'preact/hooks';
import { i18n } from '@/utils/pages/i18n';
import { sendMessage } from '@/utils/messaging/protocol';
import { saveFile } from '@/utils/pages/save-file';
import { followStored } from '@/utils/storage/stored-value';
import { dailyTotals, type DayTotal, monthlyTotals, usageCsv, type UsageEntry, usageFailedStorage, usageStorage } from '@/utils/storage/usage-history';
import { Money } from './Money';

const SHOWN = 200;

/** Totals per period (a month, a day): its requests, characters and cost. */
function TotalsTable(props: { caption: string; period: string; rows: DayTotal[]; testId: string; dataName: string; locale: string }) {
  const number = new Intl.NumberFormat(props.locale);
  return (
    <table class="days">
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">{props.period}</th>
          <th scope="col">{i18n.t('requests')}</th>
          <th scope="col">{i18n.t('chars')}</th>
          <th scope="col">{i18n.t('historyCost')}</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((d) => (
          <tr key={d.date} data-testid={props.testId} {...{ [props.dataName]: d.date }} data-chars={String(d.chars)} data-value={d.costRub}>
            <td>{d.date}</td>
            <td>{number.format(d.requests)}</td>
            <td>{number.format(d.chars)}</td>
            <td>
              <Money value={d.costRub} locale={props.locale} exact />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Every paid request (time, page, characters, cost, request id), totals per day, CSV export, clearing. */
export function UsageHistory({ locale }: { locale: string }) {
  const [entries, setEntries] = useState<UsageEntry[]>([]);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const stops = [followStored(usageStorage, [], setEntries), followStored(usageFailedStorage, false, setFailed)];
    return () => stops.forEach((stop) => stop());
  }, []);
  const days = dailyTotals(entries);
  const months = monthlyTotals(entries);
  const time = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'medium' });
  const number = new Intl.NumberFormat(locale);

  function exportCsv() {
    const csv = new Blob([usageCsv(entries)], { type: 'text/csv;charset=utf-8' });
    saveFile(csv, `trysasha-usage-${new Date().toISOString().slice(0, 10)}.csv`);
  }

  return (
    <section class="history" data-testid="history" data-count={String(entries.length)} aria-labelledby="history-title">
      <h2 id="history-title">{i18n.t('history')}</h2>
      <div class="actions">
        <button type="button" data-testid="export-csv" disabled={entries.length === 0} onClick={exportCsv}>
          {i18n.t('exportCsv')}
        </button>
        <button type="button" data-testid="clear-history" disabled={entries.length === 0} onClick={() => void sendMessage('clearHistory')}>
          {i18n.t('clearHistory')}
        </button>
      </div>
      <p class="hint" data-testid="history-keeps-totals">{i18n.t('historyKeepsTotals')}</p>
      {failed && (
        <p class="error" role="alert" data-testid="history-error">
          {i18n.t('historyWriteFailed')}
        </p>
      )}
      {entries.length === 0 ? (
        <p class="hint">{i18n.t('historyEmpty')}</p>
      ) : (
        <>
          <TotalsTable caption={i18n.t('perMonth')} period={i18n.t('month')} rows={months} testId="history-month" dataName="data-month" locale={locale} />
          <TotalsTable caption={i18n.t('perDay')} period={i18n.t('day')} rows={days} testId="history-day" dataName="data-date" locale={locale} />
          <table class="requests">
            <caption>{i18n.t('requestsList')}</caption>
            <thead>
              <tr>
                <th scope="col">{i18n.t('time')}</th>
                <th scope="col">{i18n.t('page')}</th>
                <th scope="col">{i18n.t('chars')}</th>
                <th scope="col">{i18n.t('historyCost')}</th>
                <th scope="col">{i18n.t('requestId')}</th>
              </tr>
            </thead>
            <tbody>
              {entries
                .slice(-SHOWN)
                .reverse()
                .map((e) => (
                  <tr key={e.requestId + e.time} data-testid="history-row" data-request-id={e.requestId} data-chars={String(e.chars)} data-value={e.costRub}>
                    <td>{time.format(e.time)}</td>
                    <td class="page-title">{e.title}</td>
                    <td>{number.format(e.chars)}</td>
                    <td>
                      <Money value={e.costRub} locale={locale} exact />
                    </td>
                    <td>
                      <code>{e.requestId}</code>
                    </td>
                  </tr>
                ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
