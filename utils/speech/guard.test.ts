import { describe, expect, it } from 'vitest';
import { authorize } from './guard';

const KEY = 'vk_live_0123456789abcdef';
const granted = new Set(['https://api.trysasha.ru', 'http://127.0.0.1:8787', 'https://proxy.example.com']);
const hasPermission = async (origin: string) => granted.has(origin);

describe('authorize: the key goes only to the origin it was saved for, over https or loopback, with permission', () => {
  it.each([
    ['the default service', 'https://api.trysasha.ru', 'https://api.trysasha.ru', { ok: true, auth: { key: KEY, baseUrl: 'https://api.trysasha.ru' } }],
    ['a proxy path under the same origin', 'https://proxy.example.com/tts', 'https://proxy.example.com', { ok: true, auth: { key: KEY, baseUrl: 'https://proxy.example.com/tts' } }],
    ['loopback with its port', 'http://127.0.0.1:8787', 'http://127.0.0.1:8787', { ok: true }],
    ['an address changed behind the options page (a content script wrote storage)', 'http://127.0.0.1:9999', 'http://127.0.0.1:8787', { ok: false, code: 'key-origin' }],
    ['a look-alike host', 'https://api.trysasha.ru.evil.example', 'https://api.trysasha.ru', { ok: false, code: 'key-origin' }],
    ['plain http off loopback, even if it were the key’s origin', 'http://evil.example', 'http://evil.example', { ok: false, code: 'bad-url' }],
    ['http on [::1]', 'http://[::1]:8787', 'http://[::1]:8787', { ok: false, code: 'bad-url' }],
    ['an origin the browser does not let the extension reach', 'https://other.example', 'https://other.example', { ok: false, code: 'permission-denied' }],
    ['garbage', 'javascript:alert(1)', 'https://api.trysasha.ru', { ok: false, code: 'bad-url' }],
  ])('%s', async (_name, baseUrl, keyOrigin, expected) => {
    expect(await authorize(baseUrl, { key: KEY, origin: keyOrigin }, hasPermission)).toMatchObject(expected);
  });

  it('no key: no-key, whatever the address', async () => {
    expect(await authorize('https://api.trysasha.ru', null, hasPermission)).toEqual({ ok: false, code: 'no-key' });
  });
});
