import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { Icon } from '@/components/Icon';
import { WaitingNote } from '@/components/WaitingNote';
import { Money } from '@/components/Money';
import { PartsList } from '@/components/PartsList';
import { PlaybackControls } from '@/components/PlaybackControls';
import { SleepTimer } from '@/components/SleepTimer';
import { SaveMp3 } from '@/components/SaveMp3';
import { QueueList } from '@/components/QueueList';
import { Shortcuts } from '@/components/Shortcuts';
import { errorText, i18n, uiLocale } from '@/utils/pages/i18n';
import { type ReadingCommand, sendMessage } from '@/utils/messaging/protocol';
import { type OpeningStart, openingStart, tabIdFromQuery } from '@/utils/pages/popup-start';
import { PREVIEW_MAX } from '@/utils/reading/preview';
import { IDLE_VIEW, isActive, readingViewStorage, type ReadingView } from '@/utils/reading/state';
import { accountStorage, type AccountInfo, DEFAULT_PLAYBACK, type Playback, playbackStorage } from '@/utils/storage/settings';
import { followStored } from '@/utils/storage/stored-value';
import { loadPlan } from '@/utils/reading/plan-store';
import { type AskedStart, HOLD_MS, mayWait, startingView } from '@/utils/pages/view-pace';

const locale = uiLocale();
document.documentElement.lang = locale.slice(0, 2);
/** Seconds played, to a tenth: made once, not at each of the player's ticks. */
const secondsFormat = new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** `popup.html?tabId=N` acts on tab N; opened from the toolbar it acts on the active tab. */
async function targetTabId(): Promise<number | null> {
  const fromQuery = tabIdFromQuery(location.search);
  if (fromQuery !== null) return fromQuery;
  const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
  return tab?.id ?? null;
}

function useReadingView(): ReadingView | null {
  const [view, setView] = useState<ReadingView | null>(null);
  const asked = useAskedStart();
  useEffect(() => {
    // The view last drawn, and the newest one waiting to be (each view is whole: the newest is all of them).
    let shown: ReadingView | null = null;
    let waiting: ReadingView | null = null;
    let held: ReturnType<typeof setTimeout> | undefined;
    const show = (next: ReadingView) => {
      clearTimeout(held);
      held = undefined;
      waiting = null;
      shown = next;
      setView(next);
    };
    const stop = followStored(readingViewStorage, IDLE_VIEW, (next) => {
      if (!mayWait(shown, next)) return show(next);
      waiting = next;
      held ??= setTimeout(() => waiting && show(waiting), HOLD_MS);
    });
    return () => {
      clearTimeout(held);
      stop();
    };
  }, []);
  return startingView(view, asked, Date.now());
}

/**
 * The reading this popup asked for as it opened (`popup-start.ts`), until the background turns it down (a
 * reading is active) or cannot be asked: while it starts, the last reading's end is not drawn as its.
 */
let askedStart: AskedStart | null = null;
const askedStartFollowers = new Set<(asked: AskedStart | null) => void>();

function setAskedStart(value: AskedStart | null): void {
  askedStart = value;
  askedStartFollowers.forEach((follow) => follow(value));
}

function useAskedStart(): AskedStart | null {
  const [asked, setAsked] = useState(askedStart);
  useEffect(() => {
    askedStartFollowers.add(setAsked);
    setAsked(askedStart);
    return () => void askedStartFollowers.delete(setAsked);
  }, []);
  return asked;
}

/** 760.4 → "12:40"; 3725 → "1:02:05". */
function clockTime(seconds: number): string {
  const s = Math.floor(seconds);
  const hms = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  const [h, m, sec] = hms as [number, number, number];
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')}` : `${m}:${String(sec).padStart(2, '0')}`;
}

const command = (c: ReadingCommand) => void sendMessage('command', { command: c });

const tabIdPromise = targetTabId();

/** Follows the start the popup's opening asked for (the background decides whether a reading starts). */
export function followOpeningStart(): void {
  const follow = (start: OpeningStart | null) => {
    if (!start) return;
    setAskedStart(start.asked);
    void start.starts.then((starts) => void (!starts && askedStart === start.asked && setAskedStart(null)));
  };
  const start = openingStart();
  // A tab named in the address is known now: the first drawing already shows its start.
  if (start instanceof Promise) void start.then(follow);
  else follow(start);
}

/**
 * The texts of the current reading's parts: the plan is in IndexedDB (a book is megabytes), read again
 * when the reading or its part count changes (the background writes a view only once the plan it
 * names is written).
 */
function usePartTexts(view: ReadingView): string[] {
  const [loaded, setLoaded] = useState<{ id: string; texts: string[] }>({ id: '', texts: [] });
  useEffect(() => {
    if (!view.id || view.parts === 0) return;
    let live = true;
    void loadPlan().then((plan) => live && plan?.id === view.id && setLoaded({ id: plan.id, texts: plan.parts.map((p) => p.text) }));
    return () => void (live = false);
  }, [view.id, view.parts]);
  // A part halved: the list shows the texts before until the new ones are read.
  return view.id && view.parts > 0 && loaded.id === view.id ? loaded.texts : [];
}

function usePlayback(): [Playback, (patch: Partial<Playback>) => void] {
  const [playback, setPlayback] = useState<Playback>(DEFAULT_PLAYBACK);
  useEffect(() => {
    return followStored(playbackStorage, DEFAULT_PLAYBACK, setPlayback);
  }, []);
  const change = (patch: Partial<Playback>) => {
    setPlayback((p) => ({ ...p, ...patch }));
    void sendMessage('setPlayback', patch);
  };
  return [playback, change];
}

export function Popup() {
  const view = useReadingView();
  const [tabId, setTabId] = useState<number | null>(null);
  useEffect(() => {
    void tabIdPromise.then((id) => setTabId(id ?? -1));
  }, []);

  const v = view ?? IDLE_VIEW;
  const active = isActive(v.state);
  const partTexts = usePartTexts(v);
  const [playback, changePlayback] = usePlayback();
  const error = v.state === 'error' ? v.error : null;
  /** No key yet (a new user): what to do and where, nothing of a reading's figures or controls. */
  const noKey = error?.code === 'no-key';
  const [account, setAccount] = useState<AccountInfo | null>(null);
  useEffect(() => followStored(accountStorage, null, setAccount), []);

  return (
    <main class="popup" data-theme-root>
      <header>
        <h1>{i18n.t('extName')}</h1>
      </header>
      <section
        class="player"
        data-testid="player"
        data-state={v.state}
        data-position={String(v.position)}
        data-part={v.parts ? String(v.part) : ''}
        data-parts={v.parts ? String(v.parts) : ''}
        data-rate={String(v.rate)}
        data-wait={active ? (v.wait ?? '') : ''}
        aria-live="polite"
      >
        <div class="state">{noKey ? i18n.t('popupNoKeyTitle') : i18n.t(`state.${v.state}`)}</div>
        {/* The title's line and the progress are there before a reading has them: the controls below never move. */}
        {!noKey && (
          <>
            <div class="title">{v.title}</div>
            <div class="progress" aria-hidden={v.parts > 0 ? undefined : 'true'} data-empty={v.parts > 0 ? undefined : ''}>
              <span>{i18n.t('partOf', { part: v.part + 1, parts: Math.max(v.parts, 1) })}</span>
              <span>{i18n.t('played', { seconds: secondsFormat.format(v.position) })}</span>
              <progress max={Math.max(v.parts, 1)} value={v.state === 'finished' ? v.parts : v.part} />
            </div>
          </>
        )}
      </section>

      {/* Right under the reading: the notes, warnings and figures that come and go are below them. */}
      <nav class="controls" hidden={noKey}>
        <button type="button" data-testid="prev" aria-label={i18n.t('prev')} title={i18n.t('prev')} disabled={!active} onClick={() => command('prev')}>
          <Icon name="prev" />
        </button>
        <button
          type="button"
          data-testid="play-pause"
          aria-label={v.state === 'paused' ? i18n.t('play') : i18n.t('pause')}
          title={v.state === 'paused' ? i18n.t('play') : i18n.t('pause')}
          disabled={!active && tabId === null}
          onClick={() => {
            if (active) command('toggle');
            else if (tabId !== null && tabId > 0) void sendMessage('startReading', { tabId, force: true });
          }}
        >
          <Icon name={v.state === 'playing' || v.state === 'loading' ? 'pause' : 'play'} />
        </button>
        <button type="button" data-testid="stop" aria-label={i18n.t('stop')} title={i18n.t('stop')} disabled={!active} onClick={() => command('stop')}>
          <Icon name="stop" />
        </button>
        <button type="button" data-testid="next" aria-label={i18n.t('next')} title={i18n.t('next')} disabled={!active} onClick={() => command('next')}>
          <Icon name="next" />
        </button>
      </nav>
      {v.resumeOffer && active && (
        <button
          type="button"
          class="resume"
          data-testid="resume-offer"
          data-part={String(v.resumeOffer.part)}
          data-position={String(v.resumeOffer.position)}
          onClick={() => void sendMessage('resumeFromOffer', undefined)}
        >
          {i18n.t('resumeFrom', { time: clockTime(v.resumeOffer.position) })}
        </button>
      )}
      {active && v.wait === 'network' && <WaitingNote since={v.waitSince} />}

      <section class="confirm" hidden={v.state !== 'confirm'}>
        <p data-testid="confirm-reason" data-reason={v.confirmReason ?? ''}>
          {v.confirmReason === 'budget' ? i18n.t('confirmBudget') : v.confirmReason === 'preview' ? i18n.t('confirmPreview') : i18n.t('confirmQuestion')}
        </p>
        {v.state === 'confirm' && (v.preview ?? []).length > 0 && (
          <ul class="preview" data-testid="preview" aria-label={i18n.t('previewLabel')}>
            {v.preview.map((b) => (
              <li key={b.block} data-testid="preview-block" data-block={String(b.block)} data-chars={String(b.chars)} data-value={b.rub} data-on={String(b.on)} class={b.on ? '' : 'off'}>
                <label>
                  <input
                    type="checkbox"
                    data-testid="preview-toggle"
                    checked={b.on}
                    onChange={(e) => void sendMessage('setBlockOn', { block: b.block, on: e.currentTarget.checked })}
                  />
                  <span class={`head ${b.kind}`}>{b.head}</span>
                </label>
                <span class="cost">
                  {b.chars.toLocaleString(locale)} · <Money value={b.rub} locale={locale} />
                </span>
              </li>
            ))}
            {v.parts > 0 && v.preview.length >= PREVIEW_MAX && <li class="more">{i18n.t('previewMore')}</li>}
          </ul>
        )}
        <button type="button" data-testid="confirm-read" onClick={() => command('confirm')}>
          {i18n.t('confirmRead')}
        </button>
      </section>

      <dl class="figures" hidden={noKey}>
        <dt>{i18n.t('cost')}</dt>
        <dd data-testid="cost" data-value={v.costRub}>
          <Money value={v.costRub} locale={locale} />
        </dd>
        <dt>{i18n.t('chars')}</dt>
        <dd data-testid="chars" data-value={v.id ? String(v.chars) : ''}>
          {v.chars.toLocaleString(locale)}
        </dd>
        <dt>{i18n.t('balance')}</dt>
        <dd data-testid="balance" data-value={v.balanceRub}>
          <Money value={v.balanceRub} locale={locale} />
        </dd>
        <dt>{i18n.t('estimate')}</dt>
        <dd data-testid="estimate" data-chars={v.estimateChars ? String(v.estimateChars) : ''} data-value={v.estimateRub} data-counting={String(!!v.counting)}>
          {v.counting ? '≥ ' : v.estimateRub ? '≈ ' : ''}
          <Money value={v.estimateRub} locale={locale} />
          {v.estimateChars > 0 && ` · ${v.estimateChars.toLocaleString(locale)}`}
        </dd>
        <dt>{i18n.t('leftOut')}</dt>
        <dd data-testid="saved" data-chars={v.id && v.estimateRub ? String(v.savedChars) : ''} data-value={v.savedRub}>
          {v.savedChars > 0 ? (
            <>
              {i18n.t('leftOutChars', { chars: v.savedChars.toLocaleString(locale) })} ≈ <Money value={v.savedRub} locale={locale} />
            </>
          ) : (
            '—'
          )}
        </dd>
      </dl>
      {v.counting && <p class="note">{i18n.t('estimateCounting')}</p>}
      {v.estimateAboveBalance && <p class="warning">{i18n.t('estimateAboveBalance')}</p>}
      {v.stalePrice && v.estimateRub && (
        <p class="warning" data-testid="stale-price">
          {i18n.t('stalePrice')}
        </p>
      )}

      <p class="notice" data-testid="notice" data-code={v.notice.code} data-count={String(v.notice.count)} hidden={!v.notice.code}>
        {v.notice.code === 'incomplete'
          ? i18n.t('noticeIncomplete')
          : `${v.notice.code === 'skipped-words' ? i18n.t('noticeSkippedWords') : i18n.t('noticeContentRejected')} ${v.notice.count}`}
      </p>

      <div class={noKey ? 'error first-run' : 'error'} role="alert" data-testid="error" data-code={error?.code ?? ''} hidden={!error}>
        {error && (
          <>
            {!noKey && <p>{errorText(error.code, error.detail)}</p>}
            {error.requestId && (
              <p class="request-id">
                {i18n.t('requestId')}: <code>{error.requestId}</code>
              </p>
            )}
            {error.code === 'no-key' && (
              <>
                <p>{i18n.t('popupNoKey')}</p>
                <button type="button" class="primary" data-testid="open-welcome" onClick={() => void browser.tabs.create({ url: browser.runtime.getURL('/welcome.html') }).then(() => window.close())}>
                  {i18n.t('openWelcome')}
                </button>
              </>
            )}
            {['unauthorized', 'unknown_voice', 'unknown_format', 'unknown_model', 'bad-url', 'key-origin'].includes(error.code) && (
              <button type="button" onClick={() => void browser.runtime.openOptionsPage()}>
                {i18n.t('openOptions')}
              </button>
            )}
          </>
        )}
      </div>

      <div hidden={noKey}>
        <PlaybackControls playback={playback} labels={{ speed: i18n.t('speed'), volume: i18n.t('volume') }} locale={locale} onChange={changePlayback} />
        <SleepTimer
          sleepAt={v.sleepAt ?? 0}
          atEnd={v.sleepAtEnd === true}
          chapters={v.chapters === true}
          atChapter={v.sleepAtChapter === true}
          onChange={(minutes, atEnd, atChapter) => void sendMessage('setSleepTimer', { minutes, atEnd, atChapter })}
        />
      </div>

      {partTexts.length > 0 && (
        <details class="parts-box" open={partTexts.length <= 12}>
          <summary>
            {i18n.t('parts')} ({partTexts.length})
          </summary>
          <PartsList
            key={v.id}
            parts={partTexts}
            current={v.part}
            label={i18n.t('parts')}
            disabled={!active || v.state === 'confirm'}
            onJump={(part) => void sendMessage('jumpTo', { part })}
          />
        </details>
      )}

      {!noKey && <SaveMp3 locale={locale} chapters={v.chapters === true} enabled={partTexts.length > 0 && v.state !== 'confirm' && v.state !== 'extracting'} />}

      <QueueList locale={locale} priceRub={account?.pricePerMillionRub ?? ''} />

      <Shortcuts title={i18n.t('shortcuts')} unset={i18n.t('shortcutUnset')} change={i18n.t('changeShortcuts')} />

      <button type="button" class="link" data-testid="open-book" onClick={() => void browser.tabs.create({ url: browser.runtime.getURL('/book.html') }).then(() => window.close())}>
        {i18n.t('openBook')}
      </button>
    </main>
  );
}
