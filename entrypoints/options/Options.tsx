import { KeptBooksBox } from '@/components/KeptBooksBox';
import { useEffect, useRef, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { Money } from '@/components/Money';
import { PageOptionsBox } from '@/components/PageOptionsBox';
import { PronunciationRules } from '@/components/PronunciationRules';
import { UsageHistory } from '@/components/UsageHistory';
import { cleanRules, growsTooMuch, type PronunciationRule } from '@/utils/text/pronunciation';
import { checkBaseUrl, originPattern } from '@/utils/speech/base-url';
import { errorText, i18n, uiLocale } from '@/utils/pages/i18n';
import { sendMessage, type SettingsView } from '@/utils/messaging/protocol';
import { AUDIO_FORMATS, type AccountInfo, type AudioFormat, type CleanupSettings, cleanupOf, DEFAULT_SETTINGS, type UrlReading } from '@/utils/storage/settings';

const locale = uiLocale();
document.documentElement.lang = locale.slice(0, 2);

/** The shape of a key, not a word: the same in every language. */
const KEY_PLACEHOLDER = 'vk_live_…';

/** An error is kept as its code (and the service's own message); its words are made when shown. */
interface ShownError {
  code: string;
  detail?: string;
  /** With `key-origin`: the new address's origin, which the user may confirm. */
  origin?: string;
}

const hostOf = (origin: string) => new URL(origin).host;

/** Rules as they would be saved could make a text too long (the background refuses them too: `saveAndCheck`). */
const rulesGrowTooMuch = (rules: PronunciationRule[]) => growsTooMuch(cleanRules(rules) ?? []);

const CLEANUP_IDS = { previewFirst: 'preview-first', readCode: 'read-code', leaveOutCaptions: 'leave-out-captions', leaveOutTables: 'leave-out-tables' } as const;

/**
 * Asks for the service's origin when it is not the default: a local service's address too (only
 * development and test builds hold loopback access from the start; there it resolves with no prompt).
 * Asked at once, with no await before it: Firefox refuses a request that is no
 * longer inside the click. An origin already granted resolves true with no prompt.
 */
async function allowOrigin(baseUrl: string): Promise<boolean> {
  const url = checkBaseUrl(baseUrl);
  if (!url.ok || url.isDefault) return true;
  return browser.permissions.request({ origins: [originPattern(url.origin)] });
}

export function Options() {
  const [view, setView] = useState<SettingsView | null>(null);
  const [key, setKey] = useState('');
  const [baseUrl, setBaseUrl] = useState(DEFAULT_SETTINGS.baseUrl);
  const [voice, setVoice] = useState('');
  const [format, setFormat] = useState<AudioFormat>('mp3');
  const [threshold, setThreshold] = useState(DEFAULT_SETTINGS.confirmThresholdRub);
  const [readReferences, setReadReferences] = useState(false);
  const [dailyCap, setDailyCap] = useState('');
  const [monthlyCap, setMonthlyCap] = useState('');
  const [rules, setRules] = useState<PronunciationRule[]>([]);
  const [cleanup, setCleanup] = useState<CleanupSettings>(cleanupOf({}));
  const [account, setAccount] = useState<AccountInfo | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);

  // Fields typed into before the saved settings arrive keep what was typed.
  const edited = useRef(new Set<string>());
  const edit = (field: string, set: (value: string) => void) => (e: { currentTarget: { value: string } }) => {
    edited.current.add(field);
    set(e.currentTarget.value);
  };

  const show = (v: SettingsView) => {
    const keep = edited.current;
    setView(v);
    if (!keep.has('baseUrl')) setBaseUrl(v.settings.baseUrl);
    if (!keep.has('voice')) setVoice(v.settings.voice);
    if (!keep.has('format')) setFormat(v.settings.format);
    if (!keep.has('threshold')) setThreshold(v.settings.confirmThresholdRub);
    if (!keep.has('readReferences')) setReadReferences(v.settings.readReferences === true);
    if (!keep.has('dailyCap')) setDailyCap(v.settings.dailyCapRub ?? '');
    if (!keep.has('monthlyCap')) setMonthlyCap(v.settings.monthlyCapRub ?? '');
    if (!keep.has('rules')) setRules(v.settings.pronunciations ?? []);
    if (!keep.has('cleanup')) setCleanup(cleanupOf(v.settings));
    setAccount(v.keyMask ? v.account : null);
  };

  useEffect(() => {
    void sendMessage('getSettings').then(show);
  }, []);

  async function save(e: Event, confirmOrigin?: string) {
    e.preventDefault();
    setError(null);
    setSaved(false);
    const url = checkBaseUrl(baseUrl);
    if (!url.ok) {
      setError({ code: 'bad-url' });
      return;
    }
    // Refused here, before the background would: the form keeps the rules to be shortened.
    if (rulesGrowTooMuch(rules)) {
      setError({ code: 'rules-growth' });
      return;
    }
    if (!(await allowOrigin(url.baseUrl).catch(() => false))) {
      setError({ code: 'permission-denied' });
      return;
    }
    setBusy(true);
    try {
      const result = await sendMessage('saveSettings', { key, baseUrl, voice, format, confirmThresholdRub: threshold, readReferences, dailyCapRub: dailyCap, monthlyCapRub: monthlyCap, pronunciations: rules, ...cleanup, confirmOrigin });
      if (!result.ok && result.code === 'key-origin') {
        // Nothing was saved: the form keeps what was typed, and asks before the key goes to the new host.
        setError({ code: result.code, origin: result.origin });
        return;
      }
      setKey('');
      edited.current.clear();
      show(await sendMessage('getSettings'));
      if (result.ok) {
        setAccount(result.account);
        setSaved(true);
      } else {
        setAccount(null);
        setError({ code: result.code, detail: result.detail });
      }
    } finally {
      setBusy(false);
    }
  }

  async function removeKey() {
    setError(null);
    setSaved(false);
    show(await sendMessage('removeKey'));
  }

  return (
    <main class="options">
      <h1>{i18n.t('optionsTitle')}</h1>
      <p>
        <a href={browser.runtime.getURL('/welcome.html')} data-testid="open-welcome">
          {i18n.t('openWelcome')}
        </a>
        {' · '}
        <a href={browser.runtime.getURL('/privacy.html')} data-testid="open-privacy">
          {i18n.t('privacy')}
        </a>
      </p>
      <form onSubmit={save} noValidate>
        <label for="api-key">{i18n.t('apiKey')}</label>
        <input
          id="api-key"
          data-testid="api-key"
          type="password"
          autocomplete="off"
          spellcheck={false}
          value={key}
          placeholder={view?.keyMask ? i18n.t('apiKeyPlaceholderSaved') : KEY_PLACEHOLDER}
          onInput={edit('key', setKey)}
        />
        {view?.keyMask && (
          <p class="hint row">
            <span>
              {i18n.t('apiKeySaved')} <code data-testid="key-mask">{view.keyMask}</code>
            </span>
            <button type="button" data-testid="remove-key" onClick={() => void removeKey()}>
              {i18n.t('removeKey')}
            </button>
          </p>
        )}

        <label for="base-url">{i18n.t('baseUrl')}</label>
        <input id="base-url" data-testid="base-url" type="url" value={baseUrl} onInput={edit('baseUrl', setBaseUrl)} />

        <label for="voice">{i18n.t('voice')}</label>
        <input id="voice" data-testid="voice" value={voice} placeholder={i18n.t('voicePlaceholder')} onInput={edit('voice', setVoice)} />

        <label for="format">{i18n.t('format')}</label>
        <select id="format" data-testid="format" value={format} onChange={edit('format', (f) => setFormat(f as AudioFormat))}>
          {AUDIO_FORMATS.map((f) => (
            <option value={f} key={f}>
              {f}
            </option>
          ))}
        </select>

        <label for="confirm-threshold">{i18n.t('threshold')}</label>
        <input
          id="confirm-threshold"
          data-testid="confirm-threshold"
          inputMode="decimal"
          value={threshold}
          onInput={edit('threshold', setThreshold)}
        />

        <fieldset class="budget">
          <legend>{i18n.t('budget')}</legend>
          <label for="daily-cap">{i18n.t('dailyCap')}</label>
          <input id="daily-cap" data-testid="daily-cap" inputMode="decimal" placeholder={i18n.t('noCap')} value={dailyCap} onInput={edit('dailyCap', setDailyCap)} />
          <label for="monthly-cap">{i18n.t('monthlyCap')}</label>
          <input id="monthly-cap" data-testid="monthly-cap" inputMode="decimal" placeholder={i18n.t('noCap')} value={monthlyCap} onInput={edit('monthlyCap', setMonthlyCap)} />
        </fieldset>

        <fieldset class="cleanup">
          <legend>{i18n.t('cleanup')}</legend>
          {(['previewFirst', 'readCode', 'leaveOutCaptions', 'leaveOutTables'] as const).map((name) => (
            <label class="check" key={name}>
              <input
                type="checkbox"
                data-testid={CLEANUP_IDS[name]}
                checked={cleanup[name]}
                onChange={(e) => {
                  edited.current.add('cleanup');
                  setCleanup({ ...cleanup, [name]: e.currentTarget.checked });
                }}
              />{' '}
              {i18n.t(name)}
            </label>
          ))}
          <label for="urls">{i18n.t('urls')}</label>
          <select
            id="urls"
            data-testid="urls"
            value={cleanup.urls}
            onChange={(e) => {
              edited.current.add('cleanup');
              setCleanup({ ...cleanup, urls: e.currentTarget.value as UrlReading });
            }}
          >
            <option value="domain">{i18n.t('urlsDomain')}</option>
            <option value="out">{i18n.t('urlsOut')}</option>
            <option value="read">{i18n.t('urlsRead')}</option>
          </select>
        </fieldset>

        <PronunciationRules
          rules={rules}
          onChange={(next) => {
            edited.current.add('rules');
            setRules(next);
            // An imported or edited set that could grow a text too much is said at once, and unsaid once it cannot.
            const over = rulesGrowTooMuch(next);
            setError((shown) => (over ? { code: 'rules-growth' } : shown?.code === 'rules-growth' ? null : shown));
          }}
          onBadFile={() => setError({ code: 'bad-rules' })}
        />

        <label class="check">
          <input
            type="checkbox"
            data-testid="read-references"
            checked={readReferences}
            onChange={(e) => {
              edited.current.add('readReferences');
              setReadReferences(e.currentTarget.checked);
            }}
          />{' '}
          {i18n.t('readReferences')}
        </label>

        <div class="actions">
          <button class="save" type="submit" data-testid="save" disabled={busy}>
            {busy ? i18n.t('saving') : i18n.t('save')}
          </button>
          {saved && <span class="ok">{i18n.t('saved')}</span>}
        </div>
      </form>

      <p class="error" role="alert" data-testid="options-error" data-code={error?.code ?? ''} hidden={!error}>
        {error && (error.origin ? i18n.t('keyOriginAsk', { host: hostOf(error.origin) }) : errorText(error.code, error.detail))}
      </p>
      {error?.origin && (
        <p class="actions">
          <button type="button" data-testid="confirm-origin" data-host={hostOf(error.origin)} disabled={busy} onClick={(e) => void save(e, error.origin)}>
            {i18n.t('keyOriginConfirm', { host: hostOf(error.origin) })}
          </button>
        </p>
      )}

      {account && (
        <section
          class="account"
          data-testid="account"
          data-balance={account.balanceRub}
          data-price={account.pricePerMillionRub}
          data-concurrency={String(account.maxConcurrency)}
        >
          <h2>{i18n.t('account')}</h2>
          <dl>
            <dt>{i18n.t('accountName')}</dt>
            <dd>{account.name}</dd>
            <dt>{i18n.t('provider')}</dt>
            <dd>{account.provider}</dd>
            <dt>{i18n.t('balance')}</dt>
            <dd>
              <Money value={account.balanceRub} locale={locale} />
            </dd>
            <dt>{i18n.t('price')}</dt>
            <dd>
              <Money value={account.pricePerMillionRub} locale={locale} />
            </dd>
            <dt>{i18n.t('concurrency')}</dt>
            <dd>{account.maxConcurrency}</dd>
          </dl>
        </section>
      )}

      <PageOptionsBox />

      <UsageHistory locale={locale} />
      <p>
        <a href={browser.runtime.getURL('/book.html')} target="_blank" data-testid="open-book">
          {i18n.t('openBook')}
        </a>
      </p>
      <KeptBooksBox locale={locale} />
    </main>
  );
}
