import { useEffect, useRef } from 'preact/hooks';

interface Props {
  parts: readonly string[];
  current: number;
  label: string;
  disabled: boolean;
  onJump(part: number): void;
}

const preview = (text: string) => (text.length > 90 ? `${text.slice(0, 90).trimEnd()}…` : text);

/** The reading's parts; a click jumps there (played from the cache when it was fetched before). */
export function PartsList({ parts, current, label, disabled, onJump }: Props) {
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const el = list.current?.querySelector<HTMLElement>('[aria-current="true"]');
    el?.scrollIntoView?.({ block: 'nearest' });
  }, [current]);
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
