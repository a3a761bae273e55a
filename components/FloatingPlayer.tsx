import { useEffect, useRef, useState } from 'preact/hooks';
import { Icon } from '@/components/Icon';
import { Money } from '@/components/Money';
import { WaitingNote } from '@/components/WaitingNote';
import type { FloatingCommand } from '@/utils/messaging/protocol';
import { errorText, i18n } from '@/utils/pages/i18n';
import type { FloatingView } from '@/utils/messaging/views';
import type { FloatingPlace } from '@/utils/storage/page-options';
import { PLAYBACK_RATES } from '@/utils/audio/rates';

export const DEFAULT_PLACE: FloatingPlace = { right: 16, bottom: 16 };
/** Arrow keys on the handle move it this far (with Shift, four times as far). */
const KEY_STEP = 16;

interface Props {
  view: FloatingView;
  place: FloatingPlace | null;
  locale: string;
  onCommand(command: FloatingCommand): void;
  onRate(rate: number): void;
  /** Called when a move ends (the pointer is let go, or an arrow key moved it). */
  onMoved(place: FloatingPlace): void;
  onClose(): void;
}

/** Keeps the player inside the window: `size` is its own width and height. */
export function clampPlace(place: FloatingPlace, size: { width: number; height: number }, win: { width: number; height: number }): FloatingPlace {
  const fit = (n: number, room: number) => Math.round(Math.min(Math.max(0, room), Math.max(0, n)));
  return { right: fit(place.right, win.width - size.width), bottom: fit(place.bottom, win.height - size.height) };
}

/**
 * The mini-player on the page being read: play/pause, previous/next, speed, this reading's cost; it can
 * be dragged by its handle (or moved with the arrow keys there) and closed. Only the user's own input
 * moves the reading: a page's scripted clicks (`isTrusted` false) on its buttons are ignored.
 */
export function FloatingPlayer({ view, place, locale, onCommand, onRate, onMoved, onClose }: Props) {
  const root = useRef<HTMLDivElement>(null);
  const [at, setAt] = useState<FloatingPlace>(place ?? DEFAULT_PLACE);
  const drag = useRef<{ x: number; y: number; from: FloatingPlace; pointer: number } | null>(null);

  const fitted = (p: FloatingPlace) => {
    const box = root.current?.getBoundingClientRect();
    return clampPlace(p, { width: box?.width ?? 0, height: box?.height ?? 0 }, { width: window.innerWidth, height: window.innerHeight });
  };
  useEffect(() => setAt(fitted(place ?? DEFAULT_PLACE)), [place?.right, place?.bottom]);
  useEffect(() => {
    const onResize = () => setAt((p) => fitted(p));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  const trusted = (e: Event) => e.isTrusted;
  const playing = view.state === 'playing' || view.state === 'loading';
  const fmt = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  const cmd = (c: FloatingCommand) => (e: Event) => trusted(e) && onCommand(c);

  return (
    <div
      ref={root}
      class="fp"
      role="region"
      aria-label={i18n.t('floatingLabel')}
      data-testid="floating-player"
      data-state={view.state}
      data-wait={view.wait ?? ''}
      data-part={String(view.part)}
      data-parts={String(view.parts)}
      data-right={String(at.right)}
      data-bottom={String(at.bottom)}
      style={{ right: `${at.right}px`, bottom: `${at.bottom}px` }}
    >
      <div class="row">
        <button
          type="button"
          class="grip"
          data-testid="floating-grip"
          aria-label={i18n.t('floatingMove')}
          title={i18n.t('floatingMove')}
          onPointerDown={(e) => {
            if (!trusted(e) || e.button !== 0) return;
            drag.current = { x: e.clientX, y: e.clientY, from: at, pointer: e.pointerId };
            e.currentTarget.setPointerCapture(e.pointerId);
            e.preventDefault();
          }}
          onPointerMove={(e) => {
            const d = drag.current;
            if (!d || e.pointerId !== d.pointer) return;
            setAt(fitted({ right: d.from.right - (e.clientX - d.x), bottom: d.from.bottom - (e.clientY - d.y) }));
          }}
          onPointerUp={(e) => {
            const d = drag.current;
            if (!d || e.pointerId !== d.pointer) return;
            drag.current = null;
            const end = fitted({ right: d.from.right - (e.clientX - d.x), bottom: d.from.bottom - (e.clientY - d.y) });
            setAt(end);
            onMoved(end);
          }}
          onPointerCancel={() => (drag.current = null)}
          onKeyDown={(e) => {
            if (!trusted(e)) return;
            const step = e.shiftKey ? KEY_STEP * 4 : KEY_STEP;
            const moves: Record<string, [number, number]> = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
            const move = moves[e.key];
            if (!move) return;
            e.preventDefault();
            const next = fitted({ right: at.right + move[0], bottom: at.bottom + move[1] });
            setAt(next);
            onMoved(next);
          }}
        >
          <svg viewBox="0 0 24 24" width="14" height="18" aria-hidden="true" focusable="false">
            <path d="M9 5h2v2H9zM13 5h2v2h-2zM9 11h2v2H9zM13 11h2v2h-2zM9 17h2v2H9zM13 17h2v2h-2z" fill="currentColor" />
          </svg>
        </button>
        <button type="button" data-testid="floating-prev" aria-label={i18n.t('prev')} title={i18n.t('prev')} onClick={cmd('prev')}>
          <Icon name="prev" />
        </button>
        <button
          type="button"
          class="main"
          data-testid="floating-play-pause"
          aria-label={playing ? i18n.t('pause') : i18n.t('play')}
          title={playing ? i18n.t('pause') : i18n.t('play')}
          disabled={view.state === 'error'}
          onClick={cmd('toggle')}
        >
          <Icon name={playing ? 'pause' : 'play'} />
        </button>
        <button type="button" data-testid="floating-next" aria-label={i18n.t('next')} title={i18n.t('next')} onClick={cmd('next')}>
          <Icon name="next" />
        </button>
        <button type="button" data-testid="floating-stop" aria-label={i18n.t('stop')} title={i18n.t('stop')} onClick={cmd('stop')}>
          <Icon name="stop" />
        </button>
        <select
          data-testid="floating-speed"
          aria-label={i18n.t('speed')}
          title={i18n.t('speed')}
          value={String(view.rate)}
          // Speed costs nothing: a scripted change (as tests make it) is taken too.
          onChange={(e) => onRate(Number(e.currentTarget.value))}
        >
          {PLAYBACK_RATES.map((r) => (
            <option key={r} value={String(r)}>
              {fmt.format(r)}×
            </option>
          ))}
        </select>
        <span class="cost" data-testid="floating-cost" data-value={view.costRub} title={i18n.t('cost')}>
          <Money value={view.costRub} locale={locale} />
        </span>
        <button type="button" class="close" data-testid="floating-close" aria-label={i18n.t('floatingClose')} title={i18n.t('floatingClose')} onClick={(e) => trusted(e) && onClose()}>
          <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
            <path d="M6.4 5 5 6.4 10.6 12 5 17.6 6.4 19l5.6-5.6 5.6 5.6 1.4-1.4-5.6-5.6L19 6.4 17.6 5 12 10.6z" fill="currentColor" />
          </svg>
        </button>
      </div>
      <div class="status">
        {view.error ? (
          <span role="alert" data-testid="floating-error" data-code={view.error}>
            {errorText(view.error)}
          </span>
        ) : (
          <>
            <span class="part">{view.parts > 0 ? i18n.t('partOf', { part: view.part + 1, parts: view.parts }) : i18n.t('floatingStarting')}</span>
            {view.wait === 'network' ? (
              <WaitingNote since={view.waitSince} class="title" />
            ) : (
              <span class="title" title={view.title}>
                {view.title}
              </span>
            )}
          </>
        )}
      </div>
    </div>
  );
}
