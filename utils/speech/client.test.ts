import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchAccount, openSpeechStream, ServiceError } from './client';
import { actionFor, errorCodeFor } from './errors';

const auth = { baseUrl: 'https://api.trysasha.ru', key: 'sk-test-secret' };

/** What the browser answers a `manual` request that redirects (status 0, no Location), or a readable 3xx. */
const opaque = () => {
  const r = new Response(null, { status: 200 });
  Object.defineProperty(r, 'type', { value: 'opaqueredirect' });
  Object.defineProperty(r, 'status', { value: 0 });
  return r;
};
const readable = (status: number) => new Response(null, { status, headers: { Location: 'https://elsewhere.example/v1/speech' } });

describe('the service answers with a redirect', () => {
  afterEach(() => vi.unstubAllGlobals());

  it.each([
    ['a 307 the browser hides', opaque],
    ['a readable 307', () => readable(307)],
    ['a readable 308', () => readable(308)],
  ])('%s: not followed, the reading stops with its own message', async (_n, answer) => {
    const asked: RequestInit[] = [];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => (asked.push(init), answer()));
    const speech = openSpeechStream(auth, { text: 'Привет.', stream: true }, { signal: new AbortController().signal });
    const err = await speech.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    const { status, code, message } = err as ServiceError;
    expect(code).toBe('service-redirect');
    expect(actionFor(status, code)).toBe('stop');
    expect(errorCodeFor(status, code)).toBe('service-redirect');
    expect(message).not.toContain(auth.key);
    await expect(fetchAccount(auth)).rejects.toMatchObject({ code: 'service-redirect' });
    expect(asked.map((i) => i.redirect)).toEqual(['manual', 'manual']);
  });
});
