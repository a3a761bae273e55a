/**
 * Error bodies of the speech service, what the reader does about them, which codes have words of their
 * own, and the reader's own failures before any request (`ReadingError`, told by a local code).
 */

export interface ParsedError {
  code: string | null;
  message: string;
}

export type ErrorAction = 'stop' | 'stop-settings' | 'stop-key' | 'skip' | 'split' | 'retry';

/** Retries after the first try of a request (so at most MAX_RETRIES + 1 tries). */
export const MAX_RETRIES = 4;
export const BACKOFF_BASE_MS = 500;
export const BACKOFF_CAP_MS = 8_000;
/** A Retry-After asking for longer than this is cut down: the reader would look hung otherwise. */
export const RETRY_AFTER_CAP_MS = 60_000;

const MESSAGE_MAX_CHARS = 300;
const CODE_PATTERN = /^[A-Za-z][\w.-]{0,63}$/;

/**
 * Reads an error body in the nesting orders SERVICE.md lists:
 * `{"error":{"code","message"}}`, `{"code","message"}`, `{"detail": string | {code,message} | [{msg}]}`,
 * then plain text (HTML error pages of proxies are reduced to their text). Never throws.
 */
export function parseErrorBody(body: string, contentType: string | null): ParsedError {
  try {
    const json = parseJson(body, contentType);
    const fromJson = json === undefined ? null : fromJsonBody(json);
    if (fromJson) return { code: fromJson.code, message: cut(fromJson.message) };
    return { code: null, message: cut(plainText(body, contentType)) };
  } catch {
    return { code: null, message: '' };
  }
}

function parseJson(body: string, contentType: string | null): unknown {
  const trimmed = body.trim();
  const looksJson = trimmed.startsWith('{') || trimmed.startsWith('[');
  if (!looksJson && !/json/i.test(contentType ?? '')) return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}

function fromJsonBody(json: unknown): ParsedError | null {
  if (!isRecord(json)) return null;
  const error = json.error;
  if (isRecord(error)) {
    const found = codeAndMessage(error);
    if (found) return found;
  }
  if (typeof error === 'string' && error.trim() !== '') {
    // {"error": "unauthorized", "message": "…"} or {"error": "Something went wrong"}
    const message = stringField(json, 'message');
    if (message !== null && CODE_PATTERN.test(error.trim())) return { code: error.trim(), message };
    return { code: stringCode(json.code), message: error.trim() };
  }
  const top = codeAndMessage(json);
  if (top) return top;
  if ('detail' in json) return fromDetail(json.detail);
  return null;
}

function fromDetail(detail: unknown): ParsedError | null {
  if (typeof detail === 'string') return { code: null, message: detail.trim() };
  if (isRecord(detail)) return codeAndMessage(detail) ?? (isRecord(detail.error) ? codeAndMessage(detail.error) : null);
  if (Array.isArray(detail)) {
    const messages = detail.map(validationMessage).filter((m) => m !== '');
    return messages.length > 0 ? { code: null, message: messages.join('; ') } : null;
  }
  return null;
}

/** FastAPI validation items: `{"loc": ["body", "text"], "msg": "field required", "type": "…"}`. */
function validationMessage(item: unknown): string {
  if (typeof item === 'string') return item.trim();
  if (!isRecord(item)) return '';
  const msg = stringField(item, 'msg') ?? stringField(item, 'message') ?? '';
  const loc = Array.isArray(item.loc) ? item.loc.filter((p) => typeof p === 'string' || typeof p === 'number') : [];
  return msg && loc.length > 0 ? `${loc.join('.')}: ${msg}` : msg;
}

function codeAndMessage(obj: Record<string, unknown>): ParsedError | null {
  const code = stringCode(obj.code);
  const message = stringField(obj, 'message') ?? stringField(obj, 'detail');
  if (code === null && message === null) return null;
  return { code, message: message ?? '' };
}

function stringCode(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const code = value.trim();
  return CODE_PATTERN.test(code) ? code : null;
}

function stringField(obj: Record<string, unknown>, key: string): string | null {
  const value = obj[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function plainText(body: string, contentType: string | null): string {
  const html = /html/i.test(contentType ?? '') || /^\s*<(!doctype|html|head|body|\w+[\s>])/i.test(body);
  const text = html ? htmlToText(body) : body;
  return text.replace(/\s+/g, ' ').trim();
}

function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/gi, ' ')
    .replace(/&lt;/gi, '<')
    .replace(/&gt;/gi, '>')
    .replace(/&quot;/gi, '"')
    .replace(/&#0*39;|&apos;/gi, "'")
    .replace(/&amp;/gi, '&');
}

/** Cuts to MESSAGE_MAX_CHARS code points, so a surrogate pair is never split. */
function cut(text: string): string {
  const points = Array.from(text);
  return points.length <= MESSAGE_MAX_CHARS ? text : `${points.slice(0, MESSAGE_MAX_CHARS - 1).join('')}…`;
}

const ACTION_BY_CODE: Readonly<Record<string, ErrorAction>> = {
  unauthorized: 'stop-key',
  client_disabled: 'stop',
  insufficient_balance: 'stop',
  invalid_request: 'stop',
  unknown_voice: 'stop-settings',
  unknown_model: 'stop-settings',
  unknown_format: 'stop-settings',
  text_too_long: 'split',
  unsupported_language: 'skip',
  content_rejected: 'skip',
  concurrency_limit: 'retry',
  synthesis_failed: 'retry',
};

/**
 * What to do about a failed request (SERVICE.md, "Errors"). The status decides first where it is
 * unambiguous (401, 402, 403, 429, 5xx); otherwise the service code; otherwise the status class.
 * Beyond the table: 408 is retried and a bare 413 (a proxy's body limit) is split, as HTTP means them.
 */
export function actionFor(status: number, code: string | null): ErrorAction {
  if (status >= 500 && status <= 599) return 'retry';
  if (status === 401) return 'stop-key';
  if (status === 402 || status === 403) return 'stop';
  if (status === 429) return 'retry';
  const byCode = code === null ? undefined : ACTION_BY_CODE[code];
  if (byCode !== undefined) return byCode;
  if (status === 408) return 'retry';
  if (status === 413) return 'split';
  return 'stop';
}

/** The code the popup shows in `error[data-code]`: the service's own code, else one derived from the status. */
export function errorCodeFor(status: number, code: string | null): string {
  if (code !== null && code.trim() !== '') return code.trim();
  if (status === 401) return 'unauthorized';
  if (status === 402) return 'insufficient_balance';
  if (status === 403) return 'client_disabled';
  if (status === 429) return 'concurrency_limit';
  if (status >= 500 && status <= 599) return 'synthesis_failed';
  return `http-${status}`;
}

/**
 * Delay before retry number `attempt` (0 = the first retry). `Retry-After` wins when it parses
 * (delay-seconds or an HTTP date; capped at RETRY_AFTER_CAP_MS); otherwise 500 ms × 2^attempt,
 * capped at 8 s. Deterministic: there is no jitter, a single reader has nothing to de-synchronize from.
 */
export function retryDelayMs(attempt: number, retryAfterHeader: string | null, nowMs: number = Date.now()): number {
  const fromHeader = retryAfterMs(retryAfterHeader, nowMs);
  if (fromHeader !== null) return Math.min(fromHeader, RETRY_AFTER_CAP_MS);
  const n = Number.isFinite(attempt) && attempt > 0 ? Math.floor(attempt) : 0;
  return Math.min(BACKOFF_BASE_MS * 2 ** Math.min(n, 30), BACKOFF_CAP_MS);
}

function retryAfterMs(header: string | null, nowMs: number): number | null {
  const value = header?.trim() ?? '';
  if (value === '') return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  // An HTTP date needs letters (a day or month name); this keeps "-5" or "12abc" from parsing as a year.
  if (!/[A-Za-z]{3}/.test(value)) return null;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/**
 * The codes the extension has a sentence of its own for, in every locale (`locales/*.yml`, under
 * `error:` with `-` turned into `_`). Plain data, so the background can use it without i18n.
 */
export const KNOWN_ERROR_CODES = [
  'unauthorized',
  'client_disabled',
  'insufficient_balance',
  'invalid_request',
  'unknown_voice',
  'unknown_model',
  'unknown_format',
  'text_too_long',
  'unsupported_language',
  'content_rejected',
  'concurrency_limit',
  'synthesis_failed',
  'network',
  'timeout',
  'no-text',
  'no-key',
  'bad-url',
  'restricted-page',
  'bad-audio',
  'permission-denied',
  'bad-threshold',
  'bad-response',
  'service-redirect',
  'budget-limit',
  'bad-budget',
  'bad-rules',
  'rules-growth',
  'key-origin',
  'file-access',
  'bad-pdf',
  'bad-book',
  'drm',
  'book-file-access',
  'page-refused',
  'not-a-page',
  'too-large',
  'redirect-refused',
  'save-changed',
  'save-incomplete',
  'still-counting',
  'stopped',
] as const;

const KNOWN = new Set<string>(KNOWN_ERROR_CODES);

/** Whether the extension has a sentence of its own for `code` (else the service's message, or a generic one). */
export function isKnownErrorCode(code: string): boolean {
  return KNOWN.has(code);
}

/** A failure before any request: shown with a local code. */
export class ReadingError extends Error {
  constructor(readonly code: string) {
    super(code);
    this.name = 'ReadingError';
  }
}
