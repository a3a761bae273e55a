/**
 * The options page's settings, in the background: what the page is shown (the settings, the key masked,
 * the account), and its Save (checked, written with the key, then the key checked against the service's
 * account endpoint). The storage is read and written here; `utils/speech/` only talks to the service.
 */
import { checkBaseUrl } from '../speech/base-url';
import type { CheckResult, SaveSettingsInput, SettingsView } from '../messaging/protocol';
import { parseRub } from '../money/money';
import { getStoredKey, maskKey, setStoredKey } from '../storage/key-store';
import { accountStorage, AUDIO_FORMATS, cleanupOf, readSettings, writeSettings } from '../storage/settings';
import { fetchAccount, ServiceError } from '../speech/client';
import { cleanRules, growsTooMuch } from '../text/pronunciation';

export async function settingsView(): Promise<SettingsView> {
  const stored = await getStoredKey();
  return {
    settings: await readSettings(),
    keyMask: stored ? maskKey(stored.key) : null,
    account: await accountStorage.getValue(),
  };
}

export interface SaveDeps {
  /** The background's account request, which goes through a request slot like every other. */
  check: typeof fetchAccount;
  /** Whether the browser lets the extension reach the origin (granted by the options page's click). */
  hasPermission(origin: string): Promise<boolean>;
}

/**
 * Saves the settings, then checks the key against the service's account endpoint.
 * A failure is answered with its code only: the options page renders the words.
 *
 * The key is bound to the origin it is saved for. A new address with no key typed is refused with
 * `key-origin`, and nothing is saved, until the user confirms that host (`confirmOrigin`).
 */
export async function saveAndCheck(input: SaveSettingsInput, deps: SaveDeps): Promise<CheckResult> {
  const fail = (code: string, requestId = ''): CheckResult => ({ ok: false, code, requestId });
  const url = checkBaseUrl(input.baseUrl);
  if (!url.ok) return fail('bad-url');
  const threshold = parseRub(input.confirmThresholdRub);
  if (threshold === null || threshold < 0n) return fail('bad-threshold');
  if (!AUDIO_FORMATS.includes(input.format)) return fail('unknown_format');
  const caps = [input.dailyCapRub ?? '', input.monthlyCapRub ?? ''].map((c) => c.trim().replace(',', '.'));
  if (caps.some((c) => c !== '' && !((parseRub(c) ?? -1n) >= 0n))) return fail('bad-budget');
  const pronunciations = cleanRules(input.pronunciations ?? []);
  if (!pronunciations) return fail('bad-rules');
  // A set whose rules feed each other could make a page's text many times as long (and as costly).
  if (growsTooMuch(pronunciations)) return fail('rules-growth');
  if (!(await deps.hasPermission(url.origin))) return fail('permission-denied');

  const typed = input.key.trim();
  const stored = await getStoredKey();
  if (!typed && stored && stored.origin !== url.origin && input.confirmOrigin !== url.origin) {
    return { ok: false, code: 'key-origin', origin: url.origin, keyOrigin: stored.origin };
  }
  const key = typed || stored?.key;
  if (key && (typed || stored?.origin !== url.origin)) await setStoredKey(key, url.origin);
  await writeSettings({
    baseUrl: url.baseUrl,
    voice: input.voice.trim(),
    format: input.format,
    confirmThresholdRub: input.confirmThresholdRub.trim().replace(',', '.'),
    readReferences: input.readReferences === true,
    dailyCapRub: caps[0],
    monthlyCapRub: caps[1],
    pronunciations,
    ...cleanupOf(input),
  });
  if (!key) return fail('no-key');
  try {
    const account = await deps.check({ baseUrl: url.baseUrl, key }, AbortSignal.timeout(15_000));
    await accountStorage.setValue(account);
    return { ok: true, account };
  } catch (err) {
    await accountStorage.setValue(null);
    if (err instanceof ServiceError) return fail(err.code, err.requestId);
    if (err instanceof DOMException && err.name === 'TimeoutError') return fail('timeout');
    return fail('network');
  }
}
