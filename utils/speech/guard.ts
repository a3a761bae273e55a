import type { StoredKey } from '../storage/key-store';
import { checkBaseUrl } from './base-url';
import type { Auth } from './client';

/** Why no request may go out: the words are made by the page that shows the code. */
export type Refusal = 'no-key' | 'bad-url' | 'key-origin' | 'permission-denied';

/**
 * Decides, before every request, whether the key may be sent to the stored service address. The address
 * is read from storage.local, which a content script may be able to write, so it is checked again here
 * rather than trusted because the options page once checked it:
 * - https, or http on a loopback host the manifest grants (the same rule as the options page);
 * - the origin the key was saved for (a changed address gets the key only when the user types it again
 *   or confirms the new host in the options page);
 * - a host permission the browser holds for that origin.
 */
export async function authorize(
  baseUrl: string,
  stored: StoredKey | null,
  hasPermission: (origin: string) => Promise<boolean>,
): Promise<{ ok: true; auth: Auth } | { ok: false; code: Refusal }> {
  if (!stored) return { ok: false, code: 'no-key' };
  const url = checkBaseUrl(baseUrl);
  if (!url.ok) return { ok: false, code: 'bad-url' };
  if (url.origin !== stored.origin) return { ok: false, code: 'key-origin' };
  if (!(await hasPermission(url.origin))) return { ok: false, code: 'permission-denied' };
  return { ok: true, auth: { key: stored.key, baseUrl: url.baseUrl } };
}
