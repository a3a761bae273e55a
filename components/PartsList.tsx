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

/** Whether item `index` of `list` shows (any of it) inside the list. */
function itemShown(list: HTMLElement, index: number): boolean {
  const item = list.querySelector<HTMLElement>(`[data-index="${index}"]`);
  return !!item && isInView(list.getBoundingClientRect(), item.getBoundingClientRect());
}

/** Scrolls `list` (and nothing around it) so its current item shows. */
function showCurrent(list: HTMLElement) {
  const item = list.querySelector<HTMLElement>('[aria-current="true"]');
  if (!item) return;
  const top = scrollTopToShow(list.getBoundingClientRect(), item.getBoundingClientRect(), list.scrollTop);
  if (top !== null) list.scrollTop = top;
}

/**
 * The reading's parts; a click jumps there (played from the cache when it was fetched before).
 * The list follows the part being read while that part shows in it; once the user has scrolled it
 * away (to pick a part), it stays where they left it until the reading shows in it again (a part
 * picked, a scroll back) or the list is unfolded again. Decided from where the items are at each new
 * part, not from scroll events, which come a frame late.
 */
export function PartsList({ parts, current, label, disabled, onJump }: Props) {
  const list = useRef<HTMLOListElement>(null);
  const previous = useRef<number | null>(null);
  useEffect(() => {
    const el = list.current;
    if (el && (previous.current === null || itemShown(el, previous.current) || itemShown(el, current))) showCurrent(el);
    previous.current = current;
  }, [current]);
  useEffect(() => {
    const details = list.current?.closest('details');
    if (!details) return;
    const onToggle = () => {
      if (details.open && list.current) showCurrent(list.current);
    };
    details.addEventListener('toggle', onToggle);
    return () => details.removeEventListener('toggle', onToggle);
  }, []);
  return (
    <ol class="parts" data-testid="parts" aria-label={label} ref={list}>
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
