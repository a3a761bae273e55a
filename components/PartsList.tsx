import { useEffect, useRef } from 'preact/hooks';
import { isInView, scrollTopToShow } from '@/utils/pages/follow-scroll';

interface Props {
  parts: readonly string[];
  current: number;
  label: string;
  disabled: boolean;
  onJump(part: number): void;
}

const preview = (text: string) => (text.length > 90 ? `${text.slice(0, 90).trimEnd()}…` : text);

/** Scrolls `list` (and nothing around it) so its current item shows. */
function showCurrent(list: HTMLElement) {
  const item = list.querySelector<HTMLElement>('[aria-current="true"]');
  if (!item) return;
  const top = scrollTopToShow(list.getBoundingClientRect(), item.getBoundingClientRect(), list.scrollTop);
  if (top !== null) list.scrollTop = top;
}

/**
 * The reading's parts; a click jumps there (played from the cache when it was fetched before).
 * The list follows the part being read, unless the user has scrolled it away from that part:
 * then it stays where they left it (to pick a part) until they scroll back or unfold it again.
 */
export function PartsList({ parts, current, label, disabled, onJump }: Props) {
  const list = useRef<HTMLOListElement>(null);
  const follow = useRef(true);
  useEffect(() => {
    if (list.current && follow.current) showCurrent(list.current);
  }, [current]);
  useEffect(() => {
    const details = list.current?.closest('details');
    if (!details) return;
    const onToggle = () => {
      if (!details.open || !list.current) return;
      follow.current = true;
      showCurrent(list.current);
    };
    details.addEventListener('toggle', onToggle);
    return () => details.removeEventListener('toggle', onToggle);
  }, []);
  const onScroll = () => {
    const el = list.current;
    const item = el?.querySelector<HTMLElement>('[aria-current="true"]');
    if (el && item) follow.current = isInView(el.getBoundingClientRect(), item.getBoundingClientRect());
  };
  return (
    <ol class="parts" data-testid="parts" aria-label={label} ref={list} onScroll={onScroll}>
      {parts.map((text, i) => (
        <li key={i}>
          <button
            type="button"
            data-testid="part-item"
            data-index={String(i)}
            aria-current={i === current ? 'true' : undefined}
            disabled={disabled}
            onClick={() => onJump(i)}
          >
            <span class="part-number">{i + 1}.</span> {preview(text)}
          </button>
        </li>
      ))}
    </ol>
  );
}
