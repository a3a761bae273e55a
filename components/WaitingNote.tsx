import { useEffect, useState } from 'preact/hooks';
import { minutesSeconds } from '@/utils/pages/clock';
import { i18n } from '@/utils/pages/i18n';

/**
 * "Waiting for the network… 0:12": the reading cannot reach the service; what was received plays on and
 * it carries on by itself. The time counts up from `since` (epoch ms) every second while shown.
 */
export function WaitingNote({ since, class: className = 'wait' }: { since: number; class?: string }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [since]);
  return (
    <span class={className} data-testid="wait-note" role="status">
      {i18n.t('waitingNetwork', { time: minutesSeconds(since ? now - since : 0) })}
    </span>
  );
}
