import { checkBaseUrl } from './base-url';
import type { CheckResult, SaveSettingsInput, SettingsView } from '../messaging/protocol';
import { parseRub } from './money';
import { getApiKey, maskKey, setApiKey } from '../storage/key-store';
import { accountStorage, AUDIO_FORMATS, settingsStorage } from '../storage/settings';
import { fetchAccount, ServiceError } from './client';

export async function settingsView(): Promise<SettingsView> {
  const key = await getApiKey();
  return {
    settings: await settingsStorage.getValue(),
    keyMask: key ? maskKey(key) : null,
    account: await accountStorage.getValue(),
  };
}

/**
 * Saves the settings, then checks the key against the service's account endpoint.
 * A failure is answered with its code only: the options page renders the words. `check` is the
 * background's account request, which goes through a request slot like every other.
 */
export async function saveAndCheck(input: SaveSettingsInput, check: typeof fetchAccount = fetchAccount): Promise<CheckResult> {
  const fail = (code: string, requestId = ''): CheckResult => ({ ok: false, code, requestId });
  const url = checkBaseUrl(input.baseUrl);
  if (!url.ok) return fail('bad-url');
  const threshold = parseRub(input.confirmThresholdRub);
  if (threshold === null || threshold < 0n) return fail('bad-threshold');
  if (!AUDIO_FORMATS.includes(input.format)) return fail('unknown_format');

  const key = input.key.trim() || (await getApiKey());
  if (input.key.trim()) await setApiKey(input.key.trim());
  await settingsStorage.setValue({
    baseUrl: url.baseUrl,
    voice: input.voice.trim(),
    format: input.format,
    confirmThresholdRub: input.confirmThresholdRub.trim().replace(',', '.'),
    readReferences: input.readReferences === true,
  });
  if (!key) return fail('no-key');
  try {
    const account = await check({ baseUrl: url.baseUrl, key }, AbortSignal.timeout(15_000));
    await accountStorage.setValue(account);
    return { ok: true, account };
  } catch (err) {
    await accountStorage.setValue(null);
    if (err instanceof ServiceError) return fail(err.code, err.requestId);
    if (err instanceof DOMException && err.name === 'TimeoutError') return fail('timeout');
    return fail('network');
  }
}
