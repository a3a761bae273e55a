import { createStore, del, get, set } from 'idb-keyval';
import { DEFAULT_BASE_URL } from './settings';

/*
 * The API key lives in the extension origin's IndexedDB, not in storage.local:
 * content scripts can read storage.local, but never the extension's own
 * IndexedDB. Only the background touches this module.
 */
const store = () => createStore('trysasha-secrets', 'secrets');
const KEY = 'api-key';

/** The key and the one service origin it was saved for: it is sent nowhere else. */
export interface StoredKey {
  key: string;
  origin: string;
}

export async function getStoredKey(): Promise<StoredKey | null> {
  const saved = await get<unknown>(KEY, store());
  // Keys saved before the binding existed belong to the default service.
  if (typeof saved === 'string') return saved ? { key: saved, origin: new URL(DEFAULT_BASE_URL).origin } : null;
  if (saved && typeof saved === 'object' && typeof (saved as StoredKey).key === 'string' && typeof (saved as StoredKey).origin === 'string') {
    return saved as StoredKey;
  }
  return null;
}

export async function setStoredKey(key: string, origin: string): Promise<void> {
  await set(KEY, { key, origin } satisfies StoredKey, store());
}

export async function clearApiKey(): Promise<void> {
  await del(KEY, store());
}

/** A saved key is shown only by its ends, e.g. `vk_live_…a1b2`. */
export function maskKey(key: string): string {
  if (key.length <= 12) return '•'.repeat(key.length);
  return `${key.slice(0, 8)}…${key.slice(-4)}`;
}
