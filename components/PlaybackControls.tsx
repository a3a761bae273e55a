import { PLAYBACK_RATES, type Playback } from '@/utils/storage/settings';

interface Props {
  playback: Playback;
  labels: { speed: string; volume: string };
  locale: string;
  onChange(patch: Partial<Playback>): void;
}

/** Speed (pitch kept) and volume; both apply at once and are remembered. */
export function PlaybackControls({ playback, labels, locale, onChange }: Props) {
  const fmt = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  return (
    <div class="playback">
      <label>
        {labels.speed}
        <select
          data-testid="speed"
          value={String(playback.rate)}
          onChange={(e) => onChange({ rate: Number(e.currentTarget.value) })}
        >
          {PLAYBACK_RATES.map((r) => (
            <option key={r} value={String(r)}>
              {fmt.format(r)}×
            </option>
          ))}
        </select>
      </label>
      <label>
        {labels.volume}
        <input
          type="range"
          data-testid="volume"
          min="0"
          max="1"
          step="0.05"
          value={String(playback.volume)}
          aria-valuetext={`${Math.round(playback.volume * 100)}%`}
          onChange={(e) => onChange({ volume: Number(e.currentTarget.value) })}
        />
      </label>
    </div>
  );
}
