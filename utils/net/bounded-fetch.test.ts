import { describe, expect, it } from 'vitest';
import { fetchChecked, hopAllowed, isLocalHost, localReachable, MAX_HOPS, readCapped, readTextCapped } from './bounded-fetch';

describe('local addresses', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['localhost', true],
    ['api.localhost', true],
    ['printer.local', true],
    ['10.0.0.1', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['172.32.0.1', false],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['0.0.0.0', true],
    ['100.64.0.1', true],
    ['[::1]', true],
    ['[fd00::1]', true],
    ['[fe80::1]', true],
    ['[::ffff:127.0.0.1]', true],
    ['[2a00:1450::1]', false],
    ['8.8.8.8', false],
    ['example.ru', false],
    ['localhost.example.ru', false],
  ])('%s → %s', (host, local) => expect(isLocalHost(host)).toBe(local));

  // As a link writes them, through the URL parser (which rewrites most of them): what the background is given.
  it.each([
    ['http://[::ffff:127.0.0.1]/', true],
    ['http://[::ffff:7f00:1]/', true],
    ['http://[0:0:0:0:0:ffff:a00:1]/', true],
    ['http://[::ffff:0:7f00:1]/', true],
    ['http://[::127.0.0.1]/', true],
    ['http://[::ffff:8.8.8.8]/', false],
    ['http://localhost./', true],
    ['http://LOCALHOST.:80/', true],
    ['http://api.localhost./', true],
    ['http://127.0.0.1./', true],
    ['http://2130706433/', true],
    ['http://0x7f.1/', true],
    ['http://[fd12:3456::1]/', true],
    ['http://[fe80::1]/', true],
    ['http://[2001:db8::1]/', false],
    ['http://example.ru./', false],
  ])('%s → %s', (url, local) => expect(isLocalHost(new URL(url).hostname)).toBe(local));
});

const granted = (...origins: string[]) => ({ mayReach: async (u: URL) => origins.includes(u.origin) });

describe('a page on this machine or the local network, with loopback granted', () => {
  it.each([
    ['https://example.com/a', 'https://api.trysasha.ru', true],
    ['http://127.0.0.1:8080/admin', 'https://api.trysasha.ru', false],
    ['http://192.168.1.1/', 'https://api.trysasha.ru', false],
    ['http://localhost:3000/page', 'https://api.trysasha.ru', false],
    ['http://127.0.0.1:8787/article.html', 'http://127.0.0.1:8787', true],
    ['http://127.0.0.1:6379/', 'http://127.0.0.1:8787', false],
    ['http://127.0.0.1:5173/article.html', 'http://127.0.0.1:8787', false],
    ['http://[::ffff:7f00:1]:8787/article.html', 'http://127.0.0.1:8787', false],
    ['http://localhost:5173/article.html', 'http://127.0.0.1:8787', false],
    ['http://127.0.0.1/x', 'not a url', false],
  ])('%s with the service at %s → %s', (url, service, want) => expect(localReachable(new URL(url), service)).toBe(want));
});

describe('a hop', () => {
  it.each([
    ['same site, http → https', 'http://example.ru/a', 'https://example.ru/a', ['https://example.ru'], true],
    ['to another granted site', 'https://example.ru/a', 'https://cdn.example.ru/a', ['https://cdn.example.ru'], true],
    ['to a site without access', 'https://example.ru/a', 'https://other.ru/a', ['https://example.ru'], false],
    ['from a site into loopback', 'https://example.ru/a', 'http://127.0.0.1:8080/admin', ['http://127.0.0.1:8080'], false],
    ['from one local service to another', 'http://127.0.0.1:3000/a', 'http://localhost:8080/', ['http://localhost:8080'], false],
    ['within the local page the user queued', 'http://127.0.0.1:3000/a', 'http://127.0.0.1:3000/b', ['http://127.0.0.1:3000'], true],
    ['into the router', 'https://example.ru/a', 'http://192.168.0.1/', ['http://192.168.0.1'], false],
    ['to a file', 'https://example.ru/a', 'file:///etc/passwd', ['null'], false],
    ['to data:', 'https://example.ru/a', 'data:text/html,x', ['null'], false],
    ['with a password in it', 'https://example.ru/a', 'https://u:p@example.ru/a', ['https://example.ru'], false],
  ])('%s', async (_n, from, to, origins, ok) => expect(await hopAllowed(new URL(from), new URL(to), granted(...origins))).toBe(ok));
});

const redirect = (to: string) => new Response(null, { status: 302, headers: { Location: to } });
const page = (body = '<p>x</p>') => new Response(body, { headers: { 'Content-Type': 'text/html' } });
/** What a browser answers a `manual` request that redirects: no status, no Location. */
const opaque = () => {
  const r = new Response(null, { status: 200 });
  Object.defineProperty(r, 'type', { value: 'opaqueredirect' });
  return r;
};
const endedAt = (url: string) => {
  const r = page();
  Object.defineProperty(r, 'url', { value: url });
  return r;
};

describe('following a link', () => {
  const all = { mayReach: async (u: URL) => u.protocol === 'https:' || u.hostname === '127.0.0.1' };
  it.each<[string, Record<string, () => Response>, string | null, string[]]>([
    ['answered at once', { 'https://a.ru/': () => page() }, null, ['https://a.ru/ manual include']],
    ['readable redirects, each checked, cookies on the first request only', { 'https://a.ru/': () => redirect('/b'), 'https://a.ru/b': () => page() }, null, ['https://a.ru/ manual include', 'https://a.ru/b manual omit']],
    ['a readable redirect into loopback: never requested', { 'https://a.ru/': () => redirect('http://127.0.0.1/admin') }, 'redirect-refused', ['https://a.ru/ manual include']],
    ['an opaque redirect: followed without cookies, ending on the web', { 'https://a.ru/': () => opaque(), 'https://a.ru/ follow': () => endedAt('https://b.ru/x') }, null, ['https://a.ru/ manual include', 'https://a.ru/ follow omit']],
    ['an opaque redirect ending in loopback', { 'https://a.ru/': () => opaque(), 'https://a.ru/ follow': () => endedAt('http://127.0.0.1:9/') }, 'redirect-refused', ['https://a.ru/ manual include', 'https://a.ru/ follow omit']],
    ['an opaque redirect the browser refuses (no access there)', { 'https://a.ru/': () => opaque() }, 'redirect-refused', ['https://a.ru/ manual include', 'https://a.ru/ follow omit']],
    ['a loop', { 'https://a.ru/': () => redirect('/') }, 'redirect-refused', ['https://a.ru/ manual include', ...Array<string>(MAX_HOPS).fill('https://a.ru/ manual omit')]],
    ['no connection', {}, 'network', ['https://a.ru/ manual include']],
  ])('%s', async (_n, answers, code, asked) => {
    const log: string[] = [];
    const fetch = async (url: string, init: RequestInit) => {
      log.push(`${url} ${init.redirect} ${init.credentials}`);
      const answer = answers[init.redirect === 'follow' ? `${url} follow` : url];
      if (!answer) throw new TypeError('Failed to fetch');
      return answer();
    };
    const run = fetchChecked('https://a.ru/', { credentials: 'include' }, { fetch, ...all });
    if (code === null) await expect(run).resolves.toBeInstanceOf(Response);
    else await expect(run).rejects.toMatchObject({ code });
    expect(log).toEqual(asked);
  });

  it('an address without access is not requested at all', async () => {
    const log: string[] = [];
    const run = fetchChecked('http://192.168.0.1/', {}, { fetch: async (u) => (log.push(u), page()), mayReach: async () => false });
    await expect(run).rejects.toMatchObject({ code: 'permission-denied' });
    expect(log).toEqual([]);
  });
});

const streamOf = (sizes: number[], onPull: () => void = () => undefined) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const n of sizes) c.enqueue(new Uint8Array(n).fill(65));
      c.close();
    },
    pull: onPull,
  });

describe('a body under a byte bound', () => {
  it.each<[string, () => Response, number, number | 'too-large']>([
    ['under the bound', () => new Response(streamOf([3, 4])), 10, 7],
    ['exactly the bound', () => new Response(streamOf([5, 5])), 10, 10],
    ['past the bound as it streams (no length given)', () => new Response(streamOf([6, 6])), 10, 'too-large'],
    ['declared too long (refused before reading)', () => new Response('x', { headers: { 'Content-Length': '11' } }), 10, 'too-large'],
    ['empty', () => new Response(null), 10, 0],
  ])('%s', async (_n, res, max, expected) => {
    const run = readCapped(res(), max);
    if (expected === 'too-large') await expect(run).rejects.toMatchObject({ code: 'too-large' });
    else expect((await run).byteLength).toBe(expected);
  });

  it('stops reading the moment the bound is passed', async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({ pull: (c) => (pulled++, c.enqueue(new Uint8Array(1024))) });
    await expect(readCapped(new Response(endless), 8 * 1024)).rejects.toMatchObject({ code: 'too-large' });
    expect(pulled).toBeLessThan(12);
  });

  it.each([
    ['utf-8 by default', 'text/html', new TextEncoder().encode('Привет'), 'Привет'],
    ['windows-1251 as the header says', 'text/html; charset=windows-1251', new Uint8Array([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]), 'Привет'],
    ['an unknown charset read as utf-8', 'text/html; charset=x-nonsense', new TextEncoder().encode('ok'), 'ok'],
  ])('text: %s', async (_n, type, bytes, text) => {
    expect(await readTextCapped(new Response(bytes, { headers: { 'Content-Type': type } }), 100)).toBe(text);
  });
});
