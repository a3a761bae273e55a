import { DEFAULT_BASE_URL } from '../storage/settings';

export type BaseUrlCheck =
  | { ok: true; baseUrl: string; origin: string; loopback: boolean; isDefault: boolean }
  | { ok: false; reason: 'bad-url' | 'insecure' };

/**
 * Loopback origins the manifest grants (`http://127.0.0.1/*`, `http://localhost/*`). `[::1]` is not one of
 * them: it would be plain http with no permission behind it, so it is refused like any other http address.
 */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost']);

/**
 * The service is reached over https only; plain http is allowed for loopback,
 * where the local service runs. The result has no trailing slash, and no trailing `/v1`: the client
 * adds `/v1/…` itself, so an address copied from the API reference (`https://api.trysasha.ru/v1`)
 * is repaired rather than sent to `/v1/v1/speech`. A path before it (a proxy's prefix) is kept.
 */
export function checkBaseUrl(input: string): BaseUrlCheck {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return { ok: false, reason: 'bad-url' };
  }
  if (url.username || url.password || url.search || url.hash) return { ok: false, reason: 'bad-url' };
  const loopback = LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    return { ok: false, reason: url.protocol === 'http:' ? 'insecure' : 'bad-url' };
  }
  const baseUrl = `${url.origin}${url.pathname}`.replace(/\/+$/, '').replace(/\/v1$/i, '');
  return { ok: true, baseUrl, origin: url.origin, loopback, isDefault: url.origin === new URL(DEFAULT_BASE_URL).origin };
}

/** The match pattern for a host permission on this origin (ports are not part of patterns). */
export function originPattern(origin: string): string {
  const url = new URL(origin);
  return `${url.protocol}//${url.hostname}/*`;
}
