import { describe, expect, it } from 'vitest';
import {
  actionFor,
  BACKOFF_CAP_MS,
  errorCodeFor,
  isKnownErrorCode,
  KNOWN_ERROR_CODES,
  MAX_RETRIES,
  parseErrorBody,
  retryDelayMs,
  RETRY_AFTER_CAP_MS,
  type ErrorAction,
  type ParsedError,
} from './errors';

const JSON_TYPE = 'application/json';

describe('parseErrorBody', () => {
  it.each<[string, string, string | null, ParsedError]>([
    [
      'nested error object',
      '{"error":{"code":"insufficient_balance","message":"Balance exhausted"}}',
      JSON_TYPE,
      { code: 'insufficient_balance', message: 'Balance exhausted' },
    ],
    [
      'flat code and message',
      '{"code":"unknown_voice","message":"Voice not found"}',
      JSON_TYPE,
      { code: 'unknown_voice', message: 'Voice not found' },
    ],
    ['detail string', '{"detail":"Not authenticated"}', JSON_TYPE, { code: null, message: 'Not authenticated' }],
    [
      'detail object',
      '{"detail":{"code":"text_too_long","message":"Too long"}}',
      JSON_TYPE,
      { code: 'text_too_long', message: 'Too long' },
    ],
    [
      'detail object wrapping an error',
      '{"detail":{"error":{"code":"content_rejected","message":"Refused"}}}',
      JSON_TYPE,
      { code: 'content_rejected', message: 'Refused' },
    ],
    [
      'detail validation array',
      '{"detail":[{"loc":["body","text"],"msg":"field required","type":"missing"},{"msg":"bad voice"}]}',
      JSON_TYPE,
      { code: null, message: 'body.text: field required; bad voice' },
    ],
    [
      'nested error wins over the flat fields',
      '{"error":{"code":"unauthorized","message":"Bad key"},"code":"other","message":"Other"}',
      JSON_TYPE,
      { code: 'unauthorized', message: 'Bad key' },
    ],
    [
      'flat fields win over detail',
      '{"code":"client_disabled","message":"Disabled","detail":"ignored"}',
      JSON_TYPE,
      { code: 'client_disabled', message: 'Disabled' },
    ],
    ['code without message', '{"code":"synthesis_failed"}', JSON_TYPE, { code: 'synthesis_failed', message: '' }],
    [
      'error as a code string beside a message',
      '{"error":"unauthorized","message":"Invalid key"}',
      JSON_TYPE,
      { code: 'unauthorized', message: 'Invalid key' },
    ],
    ['error as a sentence', '{"error":"Something broke"}', JSON_TYPE, { code: null, message: 'Something broke' }],
    ['JSON without a content type', '{"code":"unknown_model","message":"m"}', null, { code: 'unknown_model', message: 'm' }],
    ['numeric code is not a code', '{"code":422,"message":"Bad"}', JSON_TYPE, { code: null, message: 'Bad' }],
    ['plain text is trimmed', '  Upstream timed out \n', 'text/plain', { code: null, message: 'Upstream timed out' }],
    ['broken JSON falls back to text', '{"code": "unauth', JSON_TYPE, { code: null, message: '{"code": "unauth' }],
    ['JSON of another shape falls back to text', '{"ok":false}', JSON_TYPE, { code: null, message: '{"ok":false}' }],
    ['a JSON string is text', '"just a string"', JSON_TYPE, { code: null, message: '"just a string"' }],
    [
      'HTML error page',
      '<html><head><title>502</title><style>p{color:red}</style></head><body><h1>502 Bad Gateway</h1><p>nginx &amp; co</p></body></html>',
      'text/html',
      { code: null, message: '502 502 Bad Gateway nginx & co' },
    ],
    ['empty body', '', null, { code: null, message: '' }],
    ['null JSON', 'null', JSON_TYPE, { code: null, message: 'null' }],
  ])('%s', (_name, body, contentType, expected) => {
    expect(parseErrorBody(body, contentType)).toEqual(expected);
  });

  it.each<[string, string, number]>([
    ['ascii', 'x'.repeat(1000), 300],
    ['astral characters are not split', '😀'.repeat(400), 300],
    ['a long JSON message', JSON.stringify({ code: 'invalid_request', message: 'y'.repeat(500) }), 300],
  ])('cuts %s to 300 code points', (_name, body, max) => {
    const { message } = parseErrorBody(body, null);
    expect(Array.from(message).length).toBe(max);
    expect(message.endsWith('…')).toBe(true);
    expect(message).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it.each<[unknown]>([['{"detail":'], ['[1,2,3]'], ['{"detail":[null,5,{}]}'], ['\u0000\uD800'], ['{"error":{}}']])(
    'never throws on %j',
    (body) => {
      expect(() => parseErrorBody(body as string, JSON_TYPE)).not.toThrow();
      expect(typeof parseErrorBody(body as string, JSON_TYPE).message).toBe('string');
    },
  );
});

describe('actionFor', () => {
  it.each<[number, string | null, ErrorAction]>([
    [401, 'unauthorized', 'stop-key'],
    [401, null, 'stop-key'],
    [403, 'client_disabled', 'stop'],
    [402, 'insufficient_balance', 'stop'],
    [402, null, 'stop'],
    [422, 'invalid_request', 'stop'],
    [422, 'unknown_voice', 'stop-settings'],
    [422, 'unknown_model', 'stop-settings'],
    [422, 'unknown_format', 'stop-settings'],
    [422, 'text_too_long', 'split'],
    [422, 'unsupported_language', 'skip'],
    [422, 'content_rejected', 'skip'],
    [422, 'something_new', 'stop'],
    [422, null, 'stop'],
    [429, 'concurrency_limit', 'retry'],
    [429, null, 'retry'],
    [500, 'synthesis_failed', 'retry'],
    [502, null, 'retry'],
    [503, 'invalid_request', 'retry'],
    [599, null, 'retry'],
    [400, null, 'stop'],
    [400, 'unknown_voice', 'stop-settings'],
    [404, null, 'stop'],
    [408, null, 'retry'],
    [413, null, 'split'],
    [418, null, 'stop'],
    [0, null, 'stop'],
    [302, null, 'stop'],
  ])('%i %s → %s', (status, code, action) => {
    expect(actionFor(status, code)).toBe(action);
  });
});

describe('errorCodeFor', () => {
  it.each<[number, string | null, string]>([
    [422, 'unknown_voice', 'unknown_voice'],
    [500, 'synthesis_failed', 'synthesis_failed'],
    [402, 'insufficient_balance', 'insufficient_balance'],
    [401, null, 'unauthorized'],
    [402, null, 'insufficient_balance'],
    [403, null, 'client_disabled'],
    [429, null, 'concurrency_limit'],
    [500, null, 'synthesis_failed'],
    [504, null, 'synthesis_failed'],
    [404, null, 'http-404'],
    [422, null, 'http-422'],
    [400, '', 'http-400'],
  ])('%i %j → %s', (status, code, shown) => {
    expect(errorCodeFor(status, code)).toBe(shown);
  });
});

describe('retryDelayMs', () => {
  const now = Date.parse('2025-03-01T12:00:00Z');

  it.each<[number, number]>([
    [0, 500],
    [1, 1_000],
    [2, 2_000],
    [3, 4_000],
    [4, 8_000],
    [5, 8_000],
    [50, 8_000],
    [-1, 500],
    [Number.NaN, 500],
  ])('backs off exponentially: attempt %s → %i ms', (attempt, delay) => {
    expect(retryDelayMs(attempt, null, now)).toBe(delay);
  });

  it.each<[string, number]>([
    ['3', 3_000],
    [' 0 ', 0],
    ['1.5', 1_500],
    ['Sat, 01 Mar 2025 12:00:07 GMT', 7_000],
    ['Sat, 01 Mar 2025 11:59:00 GMT', 0],
    ['3600', RETRY_AFTER_CAP_MS],
  ])('honours Retry-After %j → %i ms', (header, delay) => {
    expect(retryDelayMs(3, header, now)).toBe(delay);
  });

  it.each(['', 'soon', '-5', '12abc', '1e3', 'Mon'])('ignores an unusable Retry-After %j', (header) => {
    expect(retryDelayMs(2, header, now)).toBe(2_000);
  });

  it('keeps every try within the cap over MAX_RETRIES retries', () => {
    const delays = Array.from({ length: MAX_RETRIES }, (_, attempt) => retryDelayMs(attempt, null, now));
    expect(MAX_RETRIES).toBeGreaterThanOrEqual(2);
    expect(delays.every((d, i) => d <= BACKOFF_CAP_MS && (i === 0 || d >= delays[i - 1]!))).toBe(true);
  });
});

describe('isKnownErrorCode', () => {
  it.each([...KNOWN_ERROR_CODES])('%s is known', (code) => {
    expect(isKnownErrorCode(code)).toBe(true);
  });

  it('lists every code once', () => {
    expect(new Set(KNOWN_ERROR_CODES).size).toBe(KNOWN_ERROR_CODES.length);
  });

  it('knows the codes the reader and the options page raise', () => {
    for (const code of ['insufficient_balance', 'no-key', 'restricted-page', 'permission-denied', 'bad-threshold', 'bad-response', 'budget-limit', 'key-origin']) {
      expect(isKnownErrorCode(code)).toBe(true);
    }
  });

  it.each(['no-such-code', 'http-404', 'toString', '__proto__', 'constructor', ''])('does not know %j', (code) => {
    expect(isKnownErrorCode(code)).toBe(false);
  });
});
