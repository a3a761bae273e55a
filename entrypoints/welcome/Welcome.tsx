import { useEffect, useState } from 'preact/hooks';
import { Money } from '@/components/Money';
import { Shortcuts } from '@/components/Shortcuts';
import { errorText, i18n, uiLocale } from '@/utils/pages/i18n';
import { sendMessage } from '@/utils/messaging/protocol';
import { costOf, formatRubPlain, parseRub } from '@/utils/money/money';
import { sampleChars, sampleFor } from '@/utils/text/sample';
import { type AccountInfo, cleanupOf } from '@/utils/storage/settings';

const locale = uiLocale();
document.documentElement.lang = locale.slice(0, 2);
document.title = i18n.t('welcomeTitle');
const sample = sampleFor(locale);
/** What the sample costs at a price per million characters, as a decimal ruble string. */
const sampleCost = (price: bigint) => formatRubPlain(costOf(sampleChars(sample), price));

/** Where keys are made: the service's own site. */
const KEYS_URL = 'https://trysasha.ru';

/**
 * The first run (opened once, on install; again from the options page): what the extension does and costs,
 * where a key comes from, the key checked at once, a short sample read with its cost shown first, the shortcuts.
 */
export function Welcome() {
  const [key, setKey] = useState('');
  const [account, setAccount] = useState<AccountInfo | null>(null);
  const [hasKey, setHasKey] = useState(false);
  const [error, setError] = useState<{ code: string; detail?: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [trying, setTrying] = useState(false);

  useEffect(() => {
    void sendMessage('getSettings').then((v) => {
      setHasKey(!!v.keyMask);
      if (v.keyMask) setAccount(v.account);
    });
  }, []);

  async function save(e: Event) {
    e.preventDefault();
    setError(null);
    if (!key.trim()) {
      setError({ code: 'no-key' });
      return;
    }
    setBusy(true);
    try {
      // The key alone: the other settings stay as they are.
      const { settings } = await sendMessage('getSettings');
      const result = await sendMessage('saveSettings', {
        key,
        baseUrl: settings.baseUrl,
        voice: settings.voice,
        format: settings.format,
        confirmThresholdRub: settings.confirmThresholdRub,
        readReferences: settings.readReferences === true,
        dailyCapRub: settings.dailyCapRub ?? '',
        monthlyCapRub: settings.monthlyCapRub ?? '',
        pronunciations: settings.pronunciations ?? [],
        ...cleanupOf(settings),
      });
      setKey('');
      if (result.ok) {
        setAccount(result.account);
        setHasKey(true);
      } else {
        setAccount(null);
        setHasKey(result.code !== 'unauthorized');
        setError({ code: result.code, detail: result.detail });
      }
    } finally {
      setBusy(false);
    }
  }

  async function trySample() {
    setTrying(true);
    try {
      await sendMessage('trySample');
    } finally {
      setTrying(false);
    }
  }

  const price = account ? parseRub(account.pricePerMillionRub) : null;
  return (
    <main class="options welcome">
      <h1>{i18n.t('welcomeTitle')}</h1>
      <p class="lead">{i18n.t('welcomeWhat')}</p>
      <p>
        {i18n.t('welcomeCost')}{' '}
        {account && (
          <span data-testid="welcome-price" data-value={account.pricePerMillionRub}>
            {i18n.t('welcomePrice')} <Money value={account.pricePerMillionRub} locale={locale} />
          </span>
        )}
      </p>
      <ol class="steps">
        <li>
          <h2>{i18n.t('welcomeKeyTitle')}</h2>
          <p>
            {i18n.t('welcomeKeyWhere')}{' '}
            <a href={KEYS_URL} target="_blank" rel="noreferrer">
              trysasha.ru
            </a>
          </p>
          <form onSubmit={save} noValidate>
            <label for="welcome-key">{i18n.t('apiKey')}</label>
            <div class="key-row">
              <input id="welcome-key" data-testid="welcome-key" type="password" autoComplete="off" spellcheck={false} placeholder="vk_live_…" value={key} onInput={(e) => setKey(e.currentTarget.value)} />
              <button class="save" type="submit" data-testid="welcome-save" disabled={busy}>
                {i18n.t('welcomeSave')}
              </button>
            </div>
          </form>
          <p class="error" role="alert" data-testid="options-error" data-code={error?.code ?? ''} hidden={!error}>
            {error && errorText(error.code, error.detail)}
          </p>
          {account && (
            <section class="account" data-testid="account" data-balance={account.balanceRub} data-price={account.pricePerMillionRub} data-concurrency={String(account.maxConcurrency)}>
              <p role="status">
                {i18n.t('welcomeKeyOk', { name: account.name })} {i18n.t('balance')}: <Money value={account.balanceRub} locale={locale} />
              </p>
            </section>
          )}
        </li>
        <li>
          <h2>{i18n.t('welcomeTryTitle')}</h2>
          <div class="try">
            <button type="button" data-testid="try-sample" disabled={!hasKey || trying} onClick={() => void trySample()}>
              {i18n.t('welcomeTry')}
            </button>
            <span data-testid="sample-cost" data-chars={String(sampleChars(sample))} data-value={price === null ? '' : sampleCost(price)}>
              {price === null ? i18n.t('welcomeTryNoKey') : <>{i18n.t('welcomeTryCost', { chars: sampleChars(sample).toLocaleString(locale) })} ≈ <Money value={sampleCost(price)} locale={locale} /></>}
            </span>
          </div>
        </li>
        <li>
          <h2>{i18n.t('welcomeUseTitle')}</h2>
          <p>{i18n.t('welcomeUse')}</p>
          <Shortcuts title={i18n.t('shortcuts')} unset={i18n.t('shortcutUnset')} change={i18n.t('changeShortcuts')} />
        </li>
      </ol>
      <p>{i18n.t('welcomeLater')}</p>
    </main>
  );
}
