import { useEffect, useState } from 'preact/hooks';
import { i18n } from '@/utils/pages/i18n';
import { minutesSeconds } from '@/utils/pages/clock';

export const SLEEP_MINUTES = [5, 15, 30, 60] as const;

interface Props {
  /** When the timer is up (epoch ms; 0: no timer). */
  sleepAt: number;
  /** Stop at the end of the article being read (the listening queue does not go on). */
  atEnd: boolean;
  /** A book's reading: the end of the chapter being read is offered too. */
  chapters?: boolean;
  /** Pause at the end of the chapter being read. */
  atChapter?: boolean;
  onChange(minutes: number | null, atEnd?: boolean, atChapter?: boolean): void;
}

const clock = minutesSeconds;

/** The sleep timer: off, 5–60 minutes, to the end of the article, or (a book) of the chapter; while set, the time left. The reading stops at the end of a sentence. */
export function SleepTimer({ sleepAt, atEnd, chapters = false, atChapter = false, onChange }: Props) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!sleepAt) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [sleepAt]);
  const left = sleepAt ? sleepAt - now : 0;
  return (
    <div class="sleep">
      <label>
        {i18n.t('sleepTimer')}{' '}
        <select
          data-testid="sleep-timer"
          value={sleepAt ? 'on' : atEnd ? 'end' : atChapter ? 'chapter' : ''}
          onChange={(e) => {
            const v = e.currentTarget.value;
            if (v === 'end') onChange(null, true);
            else if (v === 'chapter') onChange(null, false, true);
            else if (v !== 'on') onChange(v ? Number(v) : null);
          }}
        >
          <option value="">{i18n.t('sleepOff')}</option>
          {sleepAt > 0 && <option value="on">{i18n.t('sleepLeft', { time: clock(left) })}</option>}
          {SLEEP_MINUTES.map((m) => (
            <option key={m} value={String(m)}>
              {i18n.t('sleepMinutes', { minutes: m })}
            </option>
          ))}
          {(chapters || atChapter) && <option value="chapter">{i18n.t('sleepEndOfChapter')}</option>}
          <option value="end">{i18n.t('sleepEndOfArticle')}</option>
        </select>
      </label>
      <span class="sleep-left" data-testid="sleep-left" data-at={String(sleepAt)} data-end={String(atEnd)} data-chapter={String(atChapter)} aria-live="off">
        {sleepAt > 0 ? clock(left) : ''}
      </span>
    </div>
  );
}
