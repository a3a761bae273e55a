import { createStore, del, get, set } from 'idb-keyval';

/*
 * The API key lives in the extension origin's IndexedDB, not in storage.local:
 * content scripts can read storage.local, but never the extension's own
 * IndexedDB. Only the background touches this module.
 */
const store = () => createStore('trysasha-secrets', 'secrets');
const KEY = 'api-key';

export async function getApiKey(): Promise<string | null> {
  return ((await get<string>(KEY, store())) ?? null) || null;
}

export async function setApiKey(key: string): Promise<void> {
  await set(KEY, key, store());
}

export async function clearApiKey(): Promise<void> {
  await del(KEY, store());
}

/** A saved key is shown only by its ends, e.g. `vk_live_…a1b2`. */
export function maskKey(key: string): string {
  if (key.length <= 12) return '•'.repeat(key.length);
  return `${key.slice(0, 8)}…${key.slice(-4)}`;
}
