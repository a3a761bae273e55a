import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FRAME_MS, hasMp3InfoHeader, mp3DurationMs, parseMp3Frames } from './audio.ts';
import { DEFAULT_ACCOUNT, startFakeService, type AccountOptions, type FakeService, type Fault, type ServiceOptions } from './server.ts';

const KEY = DEFAULT_ACCOUNT.key;
let service: FakeService;

beforeEach(async () => {
  service = await startFakeService();
});
afterEach(async () => {
  await service.close();
});

interface SpeakInit {
  /** null = no key at all */
  key?: string | null;
  /** raw body instead of JSON.stringify(body) */
  raw?: string;
  contentType?: string;
  keyHeader?: 'bearer' | 'x-api-key';
  signal?: AbortSignal;
}

function authHeaders(key: string | null, how: 'bearer' | 'x-api-key'): Record<string, string> {
  if (key === null) return {};
  return how === 'bearer' ? { Authorization: `Bearer ${key}` } : { 'X-API-Key': key };
}

function speak(body: unknown, init: SpeakInit = {}): Promise<Response> {
  return fetch(`${service.url}/v1/speech`, {
    method: 'POST',
    headers: { 'Content-Type': init.contentType ?? 'application/json', ...authHeaders(init.key === undefined ? KEY : init.key, init.keyHeader ?? 'bearer') },
    body: init.raw ?? JSON.stringify(body),
    signal: init.signal,
  });
}

function getAccount(key: string | null = KEY): Promise<Response> {
  return fetch(`${service.url}/v1/account`, { headers: authHeaders(key, 'bearer') });
}

async function bytesOf(res: Response): Promise<Uint8Array> {
  return new Uint8Array(await res.arrayBuffer());
}

function account(overrides: Partial<AccountOptions>): AccountOptions {
  return { ...DEFAULT_ACCOUNT, ...overrides };
}

const control = (path: string, method = 'GET', body?: unknown): Promise<Response> =>
  fetch(`${service.url}/__fake/${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

const REQUEST_ID = /^req_\d+_[0-9a-f]{8}$/;

describe('every error of the service table', () => {
  interface Row {
    status: number;
    code: string;
    why: string;
    body?: unknown;
    init?: SpeakInit;
    options?: Partial<ServiceOptions>;
    fault?: Fault;
  }
  const valid = { text: 'Привет' };
  const rows: Row[] = [
    { status: 401, code: 'unauthorized', why: 'no key', body: valid, init: { key: null } },
    { status: 401, code: 'unauthorized', why: 'unknown Bearer key', body: valid, init: { key: 'vk_live_nope' } },
    { status: 401, code: 'unauthorized', why: 'unknown X-API-Key', body: valid, init: { key: 'vk_live_nope', keyHeader: 'x-api-key' } },
    { status: 403, code: 'client_disabled', why: 'disabled account', body: valid, options: { accounts: [account({ disabled: true })] } },
    { status: 402, code: 'insufficient_balance', why: 'zero balance', body: valid, options: { accounts: [account({ balanceRub: '0.0000' })] } },
    { status: 422, code: 'invalid_request', why: 'malformed JSON', init: { raw: '{"text": "a"' } },
    { status: 422, code: 'invalid_request', why: 'empty body', init: { raw: '' } },
    { status: 422, code: 'invalid_request', why: 'body is an array', body: ['text'] },
    { status: 422, code: 'invalid_request', why: 'body is null', body: null },
    { status: 422, code: 'invalid_request', why: 'text missing', body: { voice: 'sasha-lite' } },
    { status: 422, code: 'invalid_request', why: 'text not a string', body: { text: 42 } },
    { status: 422, code: 'invalid_request', why: 'text empty', body: { text: '' } },
    { status: 422, code: 'invalid_request', why: 'voice not a string', body: { ...valid, voice: 1 } },
    { status: 422, code: 'invalid_request', why: 'model not a string', body: { ...valid, model: true } },
    { status: 422, code: 'invalid_request', why: 'format not a string', body: { ...valid, format: ['mp3'] } },
    { status: 422, code: 'invalid_request', why: 'stream not a boolean', body: { ...valid, stream: 'yes' } },
    { status: 422, code: 'invalid_request', why: 'previous_text not a string', body: { ...valid, previous_text: 1 } },
    { status: 422, code: 'invalid_request', why: 'next_text not a string', body: { ...valid, next_text: {} } },
    { status: 422, code: 'invalid_request', why: 'not sent as JSON', body: valid, init: { contentType: 'text/plain' } },
    { status: 422, code: 'unknown_voice', why: 'other voice', body: { ...valid, voice: 'sasha-pro' } },
    { status: 422, code: 'unknown_model', why: 'other model', body: { ...valid, model: 'turbo' } },
    { status: 422, code: 'unknown_format', why: 'other format', body: { ...valid, format: 'ogg' } },
    { status: 422, code: 'text_too_long', why: '10,001 characters', body: { text: 'я'.repeat(10_001) } },
    { status: 422, code: 'unsupported_language', why: 'German umlaut', body: { text: 'Grüße aus Berlin' } },
    { status: 422, code: 'unsupported_language', why: 'Greek word', body: { text: 'Привет, Ελλάδα' } },
    { status: 422, code: 'unsupported_language', why: 'Chinese', body: { text: '中文' } },
    { status: 422, code: 'unsupported_language', why: 'Ukrainian letter', body: { text: 'Київ' } },
    { status: 422, code: 'content_rejected', why: 'rejected substring', body: { text: 'Скажи запретное слово' }, options: { rejectTexts: ['запретное'] } },
    { status: 429, code: 'concurrency_limit', why: 'limit of 0', body: valid, options: { accounts: [account({ maxConcurrency: 0 })] } },
    { status: 500, code: 'synthesis_failed', why: 'injected 500', body: valid, fault: { kind: 'status', status: 500, code: 'synthesis_failed' } },
    { status: 503, code: 'synthesis_failed', why: 'injected 503', body: valid, fault: { kind: 'status', status: 503, code: 'synthesis_failed' } },
  ];

  it.each(rows)('$status $code ($why): error body, request id, nothing billed', async (row) => {
    if (row.options) service.configure(row.options);
    if (row.fault) service.addFault(row.fault);
    const balanceBefore = service.account(KEY).balanceRub;
    const res = await speak(row.body, row.init);
    expect(res.status).toBe(row.status);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ error: { code: row.code, message: expect.any(String) } });
    expect(res.headers.get('x-request-id')).toMatch(REQUEST_ID);
    for (const header of ['x-characters-billed', 'x-cost-rub', 'x-balance-rub', 'retry-after']) expect(res.headers.get(header)).toBeNull();
    expect(service.account(KEY).balanceRub).toBe(balanceBefore);
    const [entry] = service.speechLog();
    expect(entry).toMatchObject({ id: res.headers.get('x-request-id'), status: row.status, code: row.code, billedChars: 0, costUnits: 0 });
  });

  it.each<[number, string, string | null, Partial<ServiceOptions>]>([
    [401, 'unauthorized', null, {}],
    [401, 'unauthorized', 'vk_live_nope', {}],
    [403, 'client_disabled', KEY, { accounts: [account({ disabled: true })] }],
  ])('GET /v1/account %i %s', async (status, code, key, options) => {
    service.configure(options);
    const res = await getAccount(key);
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ error: { code, message: expect.any(String) } });
  });

  it('accepts digits, punctuation, symbols, emoji, whitespace, combining marks and Ёё; checks only text', async () => {
    const texts = ['Ёлка, ёж и «кавычки» — 123 € № § 😀\n\t!', 'Cafe\u0301 is fine with a combining accent', '😀'.repeat(10_000)];
    for (const text of texts) expect((await speak({ text, previous_text: 'Ελλάδα', next_text: 'Grüße' })).status).toBe(200);
  });

  it('counts the 10,000-character limit in code points', async () => {
    expect((await speak({ text: 'я'.repeat(10_000) })).status).toBe(200);
    expect((await speak({ text: '😀'.repeat(10_001) })).status).toBe(422);
  });
});

describe('errorShape', () => {
  it.each([
    ['nested', 'application/json', '{"error":{"code":"unauthorized","message":"Missing API key"}}'],
    ['flat', 'application/json', '{"code":"unauthorized","message":"Missing API key"}'],
    ['detail', 'application/json', '{"detail":"Missing API key"}'],
    ['text', 'text/plain; charset=utf-8', 'Missing API key'],
  ] as const)('%s', async (shape, contentType, body) => {
    service.configure({ errorShape: shape });
    const res = await speak({ text: 'a' }, { key: null });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe(contentType);
    expect(await res.text()).toBe(body);
  });

  it('a status fault can bring its own shape and Retry-After', async () => {
    service.addFault({ kind: 'status', status: 503, code: 'synthesis_failed', message: 'busy', errorShape: 'detail', retryAfter: 7 });
    const res = await speak({ text: 'a' });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(await res.json()).toEqual({ detail: 'busy' });
  });
});

describe('account', () => {
  it('GET /v1/account returns the account with money as 4-digit strings, with either auth header', async () => {
    service.configure({ accounts: [account({ balanceRub: '12.5', pricePerMillionRub: '1500', provider: 'acme' })] });
    const expected = { name: 'Test account', balance_rub: '12.5000', price_per_million_chars_rub: '1500.0000', max_concurrency: 2, provider: 'acme' };
    const bearer = await getAccount();
    expect(bearer.status).toBe(200);
    expect(bearer.headers.get('x-request-id')).toMatch(REQUEST_ID);
    expect(await bearer.json()).toEqual(expected);
    const apiKey = await fetch(`${service.url}/v1/account`, { headers: { 'X-API-Key': KEY } });
    expect(await apiKey.json()).toEqual(expected);
  });

  it('reflects billing and setBalance', async () => {
    await (await speak({ text: 'a'.repeat(1000) })).arrayBuffer();
    expect((await (await getAccount()).json()).balance_rub).toBe('98.5000');
    service.setBalance(KEY, '-0.0150');
    expect(service.account(KEY).balanceRub).toBe('-0.0150');
    expect((await (await getAccount()).json()).balance_rub).toBe('-0.0150');
  });

  it('answers 404 for unknown paths and 405 for wrong methods, with a request id', async () => {
    const notFound = await fetch(`${service.url}/v1/voices`, { headers: authHeaders(KEY, 'bearer') });
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('x-request-id')).toMatch(REQUEST_ID);
    const wrongMethod = await fetch(`${service.url}/v1/speech`, { headers: authHeaders(KEY, 'bearer') });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
  });
});

describe('billing', () => {
  it.each([
    // chars, price per million, cost: chars × price / 1e6, half-up to 0.0001
    [1, '1500.0000', '0.0015'],
    [1000, '1500.0000', '1.5000'],
    [333, '1500.0000', '0.4995'],
    [10_000, '1500.0000', '15.0000'],
    [1, '50.0000', '0.0001'], // 0.00005 → up
    [3, '50.0000', '0.0002'], // 0.00015 → up
    [1, '49.9999', '0.0000'], // 0.0000499999 → down
    [7, '1234.5678', '0.0086'], // 0.0086419746
    [9, '5.5555', '0.0000'], // 0.0000499995
    [2, '0.0000', '0.0000'],
  ])('%i chars at %s ₽/M cost %s ₽', async (chars, price, cost) => {
    service.configure({ accounts: [account({ pricePerMillionRub: price })] });
    const res = await speak({ text: 'a'.repeat(chars) });
    expect(res.status).toBe(200);
    const costUnits = Math.round(Number(cost) * 10_000);
    const balance = ((1_000_000 - costUnits) / 10_000).toFixed(4);
    expect(res.headers.get('x-characters-billed')).toBe(String(chars));
    expect(res.headers.get('x-cost-rub')).toBe(cost);
    expect(res.headers.get('x-balance-rub')).toBe(balance);
    expect(service.account(KEY).balanceRub).toBe(balance);
    expect(service.speechLog()[0]).toMatchObject({ billedChars: chars, costUnits });
  });

  it('bills code points of text only, never previous_text or next_text', async () => {
    const res = await speak({ text: 'Ёж 😀', previous_text: 'a'.repeat(5000), next_text: 'b'.repeat(5000) });
    expect(res.headers.get('x-characters-billed')).toBe('4');
    expect(res.headers.get('x-cost-rub')).toBe('0.0060');
    expect(service.speechLog()[0]).toMatchObject({ billedChars: 4, previousText: 'a'.repeat(5000), nextText: 'b'.repeat(5000) });
  });

  it.each([
    // balance, overdraft, chars at 1500 ₽/M (0.0015 each), status, balance after
    ['0.0015', '0.0000', 1, 200, '0.0000'],
    ['0.0014', '0.0000', 1, 402, '0.0014'],
    ['0.0000', '0.0000', 1, 402, '0.0000'],
    ['0.0010', '0.0100', 1, 200, '-0.0005'],
    ['-0.0085', '0.0100', 1, 200, '-0.0100'],
    ['-0.0090', '0.0100', 1, 402, '-0.0090'],
    ['0.0000', '0.0100', 7, 402, '0.0000'], // 0.0105 > overdraft
  ] as const)('balance %s, overdraft %s, %i chars → %i, balance %s', async (balanceRub, overdraftRub, chars, status, after) => {
    service.configure({ accounts: [account({ balanceRub, overdraftRub })] });
    const res = await speak({ text: 'ы'.repeat(chars) });
    expect(res.status).toBe(status);
    if (status === 200) expect(res.headers.get('x-balance-rub')).toBe(after);
    expect(service.account(KEY).balanceRub).toBe(after);
  });

  it('spends the balance down to 402 and stops there', async () => {
    service.configure({ accounts: [account({ balanceRub: '0.0040' })] });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await speak({ text: 'a' })).status);
    expect(statuses).toEqual([200, 200, 402, 402]);
    expect(service.account(KEY).balanceRub).toBe('0.0010');
  });
});

describe('audio answers', () => {
  it('non-streamed: audio/mpeg with Content-Length; MP3 frames only, duration following the text', async () => {
    const res = await speak({ text: 'a'.repeat(500), stream: false });
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    const bytes = await bytesOf(res);
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(hasMp3InfoHeader(bytes)).toBe(false);
    expect(mp3DurationMs(bytes)).toBeCloseTo(Math.ceil(1000 / FRAME_MS) * FRAME_MS, 6);
    expect(service.speechLog()[0]!.bytesSent).toBe(bytes.length);
  });

  it('streamed: chunked, no Content-Length, the same bytes', async () => {
    const whole = await bytesOf(await speak({ text: 'Привет' }));
    const res = await speak({ text: 'Привет', stream: true });
    expect(res.headers.get('content-length')).toBeNull();
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(await bytesOf(res)).toEqual(whole);
  });

  it.each([
    ['mp3_low', 32],
    ['mp3', 48],
    ['mp3_high', 64],
  ] as const)('format %s is %i kbps MP3', async (format, kbps) => {
    const bytes = await bytesOf(await speak({ text: 'abc', format }));
    expect(new Set(parseMp3Frames(bytes).map((f) => `${f.bitrateKbps}/${f.sampleRate}`))).toEqual(new Set([`${kbps}/22050`]));
  });

  it('format pcm is a WAV of the tone', async () => {
    const res = await speak({ text: 'a'.repeat(200), format: 'pcm' });
    expect(res.headers.get('content-type')).toBe('audio/wav');
    const bytes = await bytesOf(res);
    expect(Buffer.from(bytes.subarray(0, 4)).toString('latin1')).toBe('RIFF');
    expect(bytes.length).toBe(44 + 2 * Math.round(0.4 * 22050));
  });

  it('honours firstByteMs, and a delay fault for one request: the undelayed one answers first', async () => {
    service.configure({ firstByteMs: 150 });
    service.addFault({ match: { nth: 2 }, kind: 'delay', firstByteMs: 0 });
    const order: string[] = [];
    const slow = speak({ text: 'slow', stream: true }).then((r) => (order.push('slow'), r.arrayBuffer()));
    await vi.waitFor(() => expect(service.speechLog()).toHaveLength(1));
    const fast = speak({ text: 'fast', stream: true }).then((r) => (order.push('fast'), r.arrayBuffer()));
    await Promise.all([slow, fast]);
    expect(order).toEqual(['fast', 'slow']);
    const [slowEntry, fastEntry] = service.speechLog();
    expect(slowEntry!.firstByteAt! - slowEntry!.arrivedAt).toBeGreaterThanOrEqual(140); // 150 ms, timers may fire early
    expect(fastEntry!.fault).toBe('delay');
  });

  it('roundTripMs: every request, the account too, waits before the service sees it, outside its own first byte', async () => {
    service.configure({ roundTripMs: 120 });
    const sent = performance.timeOrigin + performance.now();
    const res = await fetch(`${service.url}/v1/account`, { headers: { Authorization: `Bearer ${service.key}` } });
    expect(res.status).toBe(200);
    const [entry] = service.log.filter((e) => e.path === '/v1/account');
    expect(entry!.arrivedAt - sent).toBeGreaterThanOrEqual(110); // 120 ms, timers may fire early
    await (await speak({ text: 'после дороги', stream: true })).arrayBuffer();
    const [speech] = service.speechLog();
    expect(speech!.firstByteAt! - speech!.arrivedAt).toBeLessThan(110);
  });

  it('streams in chunkBytes pieces chunkIntervalMs apart: the first piece arrives before the body ends', async () => {
    service.configure({ chunkBytes: 400, chunkIntervalMs: 15 });
    const res = await speak({ text: 'a'.repeat(200), stream: true });
    const reader = res.body!.getReader();
    const reads: number[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) reads.push(r.value.length);
    expect(reads.length).toBeGreaterThan(1);
    // Pieces of at most 400 bytes (a client slowed by a busy machine may take two or more in one read).
    expect(Math.min(...reads)).toBeLessThanOrEqual(400);
    const pieces = Math.ceil(reads.reduce((a, b) => a + b, 0) / 400);
    const entry = service.speechLog()[0]!;
    // Paced, not sent at once (which takes ~1 ms); timers may fire a little early, hence 90 % of the schedule.
    expect(entry.endedAt! - entry.firstByteAt!).toBeGreaterThanOrEqual((pieces - 1) * 15 * 0.9);
  });

  it('realtimeFactor paces a stream over duration / factor, and delays an unstreamed answer by it', async () => {
    service.configure({ realtimeFactor: 4, chunkBytes: 300 });
    const streamed = await speak({ text: 'a', stream: true });
    const bytes = await bytesOf(streamed);
    const spreadMs = mp3DurationMs(bytes) / 4;
    const whole = await speak({ text: 'a' });
    await whole.arrayBuffer();
    const [s, w] = service.speechLog();
    expect(s!.endedAt! - s!.firstByteAt!).toBeGreaterThanOrEqual(spreadMs - 3);
    expect(w!.firstByteAt! - w!.arrivedAt).toBeGreaterThanOrEqual(spreadMs - 3);
  });
});

describe('concurrency', () => {
  const stallForever: Fault = { kind: 'stall', afterBytes: 0, times: 2 };

  it.each([
    [false, null],
    [true, '1'],
  ] as const)('the request over max_concurrency gets 429 (retryAfterOnConcurrency %s → Retry-After %s)', async (retry, header) => {
    service.configure({ retryAfterOnConcurrency: retry });
    service.addFault(stallForever);
    const first = new AbortController();
    const open = [await speak({ text: 'one' }, { signal: first.signal }), await speak({ text: 'two' })];
    expect(open.map((r) => r.status)).toEqual([200, 200]);
    expect(service.inFlight(KEY)).toBe(2);

    const third = await speak({ text: 'three' });
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe(header);
    expect((await third.json()).error.code).toBe('concurrency_limit');
    expect(service.speechLog()[2]).toMatchObject({ inFlightAtArrival: 2, billedChars: 0 });
    expect(service.maxInFlightSeen).toBe(3);

    first.abort();
    await vi.waitFor(() => expect(service.inFlight(KEY)).toBe(1));
    expect(service.speechLog()[0]).toMatchObject({ aborted: true, fault: 'stall' });
    expect((await speak({ text: 'four' })).status).toBe(200);
  });

  it('POST /__fake/cut drops every speech request in flight and frees its slot', async () => {
    service.addFault(stallForever);
    const open = [await speak({ text: 'one' }), await speak({ text: 'two' })];
    expect(service.inFlight(KEY)).toBe(2);
    expect(await (await control('cut', 'POST')).json()).toEqual({ cut: 2 });
    await Promise.all(open.map((r) => expect(r.arrayBuffer()).rejects.toThrow()));
    await vi.waitFor(() => expect(service.inFlight(KEY)).toBe(0));
    expect(service.speechLog().map((e) => e.aborted)).toEqual([true, true]);
    expect(await (await control('cut', 'POST')).json()).toEqual({ cut: 0 });
  });

  it('a finished answer frees its slot before the client can send the next request', async () => {
    service.configure({ accounts: [account({ maxConcurrency: 1 })] });
    for (let i = 0; i < 10; i++) {
      const res = await speak({ text: `n${i}` });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
  });

  it('limits per account', async () => {
    service.configure({ accounts: [account({ maxConcurrency: 1 }), account({ key: 'vk_live_other', maxConcurrency: 1 })] });
    service.addFault({ kind: 'stall', afterBytes: 0 });
    expect((await speak({ text: 'a' })).status).toBe(200);
    expect((await speak({ text: 'a' })).status).toBe(429);
    expect((await speak({ text: 'a' }, { key: 'vk_live_other' })).status).toBe(200);
  });
});

describe('outage', () => {
  const stallForever: Fault = { kind: 'stall', afterBytes: 0 };

  it('cuts every connection unanswered for its seconds, the answer on its way too, then answers again', async () => {
    service.addFault(stallForever);
    const streaming = await speak({ text: 'on its way' });
    expect(streaming.status).toBe(200);
    service.outage({ seconds: 0.4 });
    await expect(streaming.arrayBuffer()).rejects.toThrow();
    await expect(speak({ text: 'during' })).rejects.toThrow();
    await expect(getAccount()).rejects.toThrow();
    // The control endpoints still answer, and say what was cut.
    expect(await (await control('outage')).json()).toMatchObject({ refused: 2, cut: 1, seconds: 0.4 });
    // The service never saw the requests it could not be reached for.
    expect(service.speechLog().map((e) => e.text)).toEqual(['on its way']);
    await vi.waitFor(async () => expect((await speak({ text: 'after' })).status).toBe(200), { timeout: 2_000, interval: 50 });
    expect(service.speechLog().map((e) => e.text)).toEqual(['on its way', 'after']);
  });

  it('fromNth: begins at that speech request, which is cut too; set over HTTP', async () => {
    expect(await (await control('outage', 'POST', { seconds: 30, fromNth: 2 })).json()).toMatchObject({ until: 0, fromNth: 2 });
    expect((await speak({ text: 'first' })).status).toBe(200);
    await expect(speak({ text: 'second' })).rejects.toThrow();
    expect(service.outageState()).toMatchObject({ fromNth: 0, refused: 1 });
    expect(service.outageState().until).toBeGreaterThan(Date.now() + 25_000);
    // Over again at once.
    service.outage({ seconds: 0 });
    expect((await speak({ text: 'third' })).status).toBe(200);
    expect(service.speechLog().map((e) => [e.nth, e.text])).toEqual([[1, 'first'], [2, 'third']]);
  });
});

describe('faults', () => {
  it('status by nth hits only that request, and is not billed', async () => {
    service.addFault({ match: { nth: 2 }, kind: 'status', status: 500, code: 'synthesis_failed' });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await speak({ text: 'abc' })).status);
    expect(statuses).toEqual([200, 500, 200]);
    expect(service.speechLog().map((e) => e.billedChars)).toEqual([3, 0, 3]);
    expect(service.speechLog()[1]!.fault).toBe('status');
  });

  it('times, Infinity, text match and clearFaults', async () => {
    service.addFault({ match: { text: 'плохо' }, kind: 'status', status: 503, code: 'synthesis_failed', times: 2 });
    const statuses = async (text: string, n: number) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) out.push((await speak({ text })).status);
      return out;
    };
    expect(await statuses('хорошо', 1)).toEqual([200]);
    expect(await statuses('очень плохо', 3)).toEqual([503, 503, 200]);
    service.addFault({ kind: 'status', status: 500, code: 'synthesis_failed', times: Infinity });
    expect(await statuses('всё', 3)).toEqual([500, 500, 500]);
    service.clearFaults();
    expect(await statuses('всё', 1)).toEqual([200]);
  });

  it('path match hits another endpoint', async () => {
    service.addFault({ match: { path: '/v1/account' }, kind: 'status', status: 503, code: 'synthesis_failed' });
    expect((await speak({ text: 'a' })).status).toBe(200);
    expect((await getAccount()).status).toBe(503);
    expect((await getAccount()).status).toBe(200);
  });

  it.each([false, true])('reset (stream %s): billed, headers and afterBytes sent, then the connection drops', async (stream) => {
    service.addFault({ kind: 'reset', afterBytes: 1000 });
    const res = await speak({ text: 'a'.repeat(500), stream }); // ≈ 6 KB of audio
    expect(res.status).toBe(200);
    expect(res.headers.get('x-characters-billed')).toBe('500');
    await expect(res.arrayBuffer()).rejects.toThrow();
    expect(service.speechLog()[0]).toMatchObject({ fault: 'reset', bytesSent: 1000, billedChars: 500, aborted: false });
    expect(service.account(KEY).balanceRub).toBe('99.2500');
    expect(service.inFlight(KEY)).toBe(0);
  });

  it('stall without stallMs: afterBytes, then nothing until the client aborts', async () => {
    service.addFault({ kind: 'stall', afterBytes: 500 });
    const abort = new AbortController();
    const res = await speak({ text: 'a'.repeat(500), stream: true }, { signal: abort.signal });
    const reader = res.body!.getReader();
    let received = 0;
    while (received < 500) received += (await reader.read()).value!.length;
    expect(received).toBe(500);
    expect(service.speechLog()[0]!.endedAt).toBeNull();
    abort.abort();
    await vi.waitFor(() => expect(service.speechLog()[0]!.endedAt).not.toBeNull());
    expect(service.speechLog()[0]).toMatchObject({ aborted: true, bytesSent: 500, fault: 'stall' });
  });

  it('stall with stallMs: the rest follows after the pause', async () => {
    const whole = await bytesOf(await speak({ text: 'a'.repeat(300) }));
    service.addFault({ kind: 'stall', afterBytes: 100, stallMs: 60 });
    const res = await speak({ text: 'a'.repeat(300), stream: true });
    expect(await bytesOf(res)).toEqual(whole);
    const entry = service.speechLog()[1]!;
    expect(entry.endedAt! - entry.firstByteAt!).toBeGreaterThanOrEqual(54); // a 60 ms stall; timers may fire early
  });

  it('json200: a 200 with a JSON body, not billed', async () => {
    service.addFault({ kind: 'json200' });
    const res = await speak({ text: 'abc' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual(expect.any(Object));
    expect(res.headers.get('x-characters-billed')).toBeNull();
    expect(service.account(KEY).balanceRub).toBe('100.0000');
  });

  it('not-audio-200: labelled audio/mpeg but the bytes are JSON text', async () => {
    service.addFault({ kind: 'not-audio-200' });
    const res = await speak({ text: 'abc', stream: true });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    const bytes = await bytesOf(res);
    expect(mp3DurationMs(bytes)).toBe(0);
    expect(JSON.parse(Buffer.from(bytes).toString('utf8'))).toHaveProperty('error');
  });

  it('headers: omitted and malformed billing headers on good audio', async () => {
    service.addFault({ kind: 'headers', omit: ['X-Cost-Rub', 'X-Request-Id'], malformed: ['X-Balance-Rub', 'X-Characters-Billed'] });
    const res = await speak({ text: 'abc' });
    expect(res.headers.get('x-cost-rub')).toBeNull();
    expect(res.headers.get('x-request-id')).toBeNull();
    expect(res.headers.get('x-balance-rub')).toBe('abc');
    expect(res.headers.get('x-characters-billed')).toBe('abc');
    expect(mp3DurationMs(await bytesOf(res))).toBeGreaterThan(300);
    expect(service.account(KEY).balanceRub).toBe('99.9955');
  });

  it('rejects malformed faults', () => {
    expect(() => service.addFault({ kind: 'explode' } as unknown as Fault)).toThrow(/kind/);
    expect(() => service.addFault({ kind: 'reset', afterBytes: -1 })).toThrow(/afterBytes/);
  });
});

describe('request log', () => {
  it('records every field of a speech request', async () => {
    const body = { text: 'Привет', previous_text: 'До', next_text: 'После', stream: true };
    const res = await speak(body, { keyHeader: 'x-api-key' });
    const bytes = await bytesOf(res);
    const [entry] = service.log;
    expect(entry).toEqual({
      id: res.headers.get('x-request-id'),
      nth: 1,
      method: 'POST',
      path: '/v1/speech',
      key: KEY,
      body,
      text: 'Привет',
      previousText: 'До',
      nextText: 'После',
      status: 200,
      code: null,
      billedChars: 6,
      costUnits: 90,
      arrivedAt: expect.any(Number),
      firstByteAt: expect.any(Number),
      endedAt: expect.any(Number),
      inFlightAtArrival: 0,
      aborted: false,
      bytesSent: bytes.length,
      fault: null,
    });
    expect(entry!.arrivedAt).toBeLessThanOrEqual(entry!.firstByteAt!);
    expect(entry!.firstByteAt).toBeLessThanOrEqual(entry!.endedAt!);
    expect(Math.abs(entry!.arrivedAt - Date.now())).toBeLessThan(5000);
  });

  it('logs every request, speechLog() only speech; ids are unique; resetLog() restarts nth', async () => {
    await getAccount(null);
    await speak({ text: 'a' });
    await speak({ text: 'b' }, { key: 'vk_live_nope' });
    expect(service.log.map((e) => [e.path, e.status, e.key])).toEqual([
      ['/v1/account', 401, null],
      ['/v1/speech', 200, KEY],
      ['/v1/speech', 401, 'vk_live_nope'],
    ]);
    expect(service.speechLog().map((e) => e.nth)).toEqual([1, 2]);
    expect(new Set(service.log.map((e) => e.id)).size).toBe(3);
    service.resetLog();
    expect(service.log).toHaveLength(0);
    await speak({ text: 'c' });
    expect(service.speechLog()[0]!.nth).toBe(1);
  });
});

describe('control endpoints', () => {
  it('faults, log and configure over HTTP, with CORS only on /__fake', async () => {
    const added = await control('faults', 'POST', [
      { match: { nth: 1 }, kind: 'status', status: 503, code: 'synthesis_failed' },
      { kind: 'json200', times: 'Infinity', match: { text: 'json' } },
    ]);
    expect(added.headers.get('access-control-allow-origin')).toBe('*');
    expect(await added.json()).toEqual({ added: 2 });
    expect((await (await control('faults')).json())[1].remaining).toBe('Infinity');

    const failed = await speak({ text: 'a' });
    expect(failed.status).toBe(503);
    expect(failed.headers.get('access-control-allow-origin')).toBeNull();
    const ok = await speak({ text: 'a' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBeNull();

    const log = await (await control('log')).json();
    expect(log.map((e: { status: number }) => e.status)).toEqual([503, 200]);

    expect((await control('faults', 'DELETE')).status).toBe(200);
    expect((await speak({ text: 'json' })).headers.get('content-type')).toBe('audio/mpeg');

    await control('configure', 'POST', { errorShape: 'flat' });
    expect(await (await speak({ text: 'a' }, { key: null })).json()).toEqual({ code: 'unauthorized', message: expect.any(String) });
    expect((await control('log?speech=1').then((r) => r.json())).length).toBe(4);
    await control('log', 'DELETE');
    expect(service.log).toHaveLength(0);
  });

  it('balance and accounts over HTTP', async () => {
    await control('balance', 'POST', { key: KEY, balanceRub: '0.0000' });
    expect((await speak({ text: 'a' })).status).toBe(402);
    const [state] = await (await control('accounts')).json();
    expect(state).toMatchObject({ key: KEY, balanceRub: '0.0000', inFlight: 0 });
  });

  it('answers preflight and rejects bad input with 400', async () => {
    const preflight = await control('configure', 'OPTIONS');
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect((await control('configure', 'POST', { firstByteMs: -1 })).status).toBe(400);
    expect((await control('configure', 'POST', { nonsense: 1 })).status).toBe(400);
    expect((await control('faults', 'POST', { kind: 'status' })).status).toBe(400);
    expect((await control('nothing')).status).toBe(404);
  });
});

describe('lifecycle', () => {
  it('close() drops stalled connections promptly', async () => {
    service.addFault({ kind: 'stall', afterBytes: 10 });
    const res = await speak({ text: 'a', stream: true });
    const body = res.arrayBuffer();
    await service.close();
    await expect(body).rejects.toThrow();
    expect(service.speechLog()[0]!.aborted).toBe(false);
  });

  it('listens on 127.0.0.1, on a random port by default', async () => {
    const other = await startFakeService({ port: 0 });
    expect(other.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(other.url).not.toBe(service.url);
    await other.close();
  });
});
