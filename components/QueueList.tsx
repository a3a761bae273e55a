import { useEffect, useState } from 'preact/hooks';
import { Money } from '@/components/Money';
import { sendMessage } from '@/utils/messaging/protocol';
import { i18n } from '@/utils/pages/i18n';
import { costOf, formatRubPlain, parseRub } from '@/utils/money/money';
import { followStored } from '@/utils/storage/stored-value';
import { type QueueEntry, type QueueRun, queueRunStorage, queueStorage, queueTotal } from '@/utils/storage/queue';

interface Props {
  locale: string;
  /** The price per million characters (decimal rubles), for the estimates; '' when not known. */
  priceRub: string;
}

/**
 * The listening queue in the popup: its pages in order, each with its estimate, the total, and
 * controls to reorder, remove and play. Entries are added from the context menu.
 */
export function QueueList({ locale, priceRub }: Props) {
  const [queue, setQueue] = useState<QueueEntry[]>([]);
  const [run, setRun] = useState<QueueRun | null>(null);
  useEffect(() => followStored(queueStorage, [], setQueue), []);
  useEffect(() => followStored(queueRunStorage, null, setRun), []);
  const price = parseRub(priceRub);
  const rub = (chars: number | null) => (chars === null || price === null ? '' : formatRubPlain(costOf(chars, price)));
  const total = queueTotal(queue);
  const fmt = new Intl.NumberFormat(locale);
  return (
    <details class="queue-box" open={queue.length > 0}>
      <summary>
        {i18n.t('queue')} ({queue.length})
      </summary>
      <section class="queue" data-testid="queue" data-count={String(queue.length)}>
        {queue.length === 0 ? (
          <p class="hint">{i18n.t('queueEmpty')}</p>
        ) : (
          <>
            <ol>
              {queue.map((e, k) => (
                <li key={e.id} data-testid="queue-item" data-url={e.url} data-chars={e.chars === null ? '' : String(e.chars)} data-value={rub(e.chars)} data-playing={String(run?.entryId === e.id)}>
                  <span class="queue-title" title={e.url}>
                    {run?.entryId === e.id && <strong class="queue-now">{i18n.t('queuePlaying')} · </strong>}
                    {e.title}
                    <small> {e.site}</small>
                  </span>
                  <span class="queue-cost">{e.chars === null ? '…' : <Money value={rub(e.chars)} locale={locale} />}</span>
                  <span class="queue-actions">
                    <button type="button" data-testid="queue-up" aria-label={i18n.t('queueUp')} title={i18n.t('queueUp')} disabled={k === 0} onClick={() => void sendMessage('queue', { action: 'move', id: e.id, delta: -1 })}>
                      ↑
                    </button>
                    <button type="button" data-testid="queue-down" aria-label={i18n.t('queueDown')} title={i18n.t('queueDown')} disabled={k === queue.length - 1} onClick={() => void sendMessage('queue', { action: 'move', id: e.id, delta: 1 })}>
                      ↓
                    </button>
                    <button type="button" data-testid="queue-remove" aria-label={i18n.t('queueRemove')} title={i18n.t('queueRemove')} onClick={() => void sendMessage('queue', { action: 'remove', id: e.id })}>
                      ×
                    </button>
                  </span>
                </li>
              ))}
            </ol>
            <p class="queue-total" data-testid="queue-total" data-chars={String(total.chars)} data-value={rub(total.chars)} data-unknown={String(total.unknown)}>
              {i18n.t('queueTotal', { chars: fmt.format(total.chars) })} · <Money value={rub(total.chars)} locale={locale} />
              {total.unknown > 0 && <> · {i18n.t('queueUnknown', { count: total.unknown })}</>}
            </p>
            <button type="button" class="queue-play" data-testid="queue-play" onClick={() => void sendMessage('queue', { action: 'play' })}>
              {i18n.t('queuePlay')}
            </button>
          </>
        )}
      </section>
    </details>
  );
}
