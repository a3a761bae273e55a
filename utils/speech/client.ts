import { ignore } from '../log';
import { parseRub, type RubUnits } from '../money/money';
import { errorCodeFor, parseErrorBody } from './errors';
import type { AccountInfo } from '../storage/settings';

/** A failure the reading can act on; `status` 0 means no HTTP answer at all. */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string = '',
    readonly retryAfter: string | null = null,
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

export interface Auth {
  baseUrl: string;
  key: string;
}

function headersFor(auth: Auth): Record<string, string> {
  return { Authorization: `Bearer ${auth.key}` };
}

async function send(url: string, init: RequestInit): Promise<Response> {
  let res: Response;
  try {
    // Never followed: a 307 or 308 would send the text, and the key, to wherever it points.
    res = await fetch(url, { ...init, redirect: 'manual' });
  } catch (err) {
    if (init.signal?.aborted) throw init.signal.reason ?? err;
    // The network error's text is not shown: it may echo the URL, never the key, but keep it plain.
    throw new ServiceError(0, 'network', 'The service could not be reached.');
  }
  if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400)) {
    void res.body?.cancel().catch(() => undefined);
    throw new ServiceError(res.status || 307, 'service-redirect', 'The service address answered with a redirect.');
  }
  return res;
}

async function errorFrom(res: Response): Promise<ServiceError> {
  const body = await res.text().catch(() => '');
  const parsed = parseErrorBody(body, res.headers.get('Content-Type'));
  return new ServiceError(
    res.status,
    errorCodeFor(res.status, parsed.code),
    parsed.message,
    res.headers.get('X-Request-Id') ?? '',
    res.headers.get('Retry-After'),
  );
}

export async function fetchAccount(auth: Auth, signal?: AbortSignal): Promise<AccountInfo> {
  const res = await send(`${auth.baseUrl}/v1/account`, { headers: headersFor(auth), signal, cache: 'no-store' });
  if (!res.ok) throw await errorFrom(res);
  let json: Record<string, unknown>;
  try {
    json = (await res.json()) as Record<string, unknown>;
  } catch {
    throw new ServiceError(res.status, 'bad-response', 'The service answered with something that is not an account.');
  }
  const balance = typeof json.balance_rub === 'string' ? parseRub(json.balance_rub) : null;
  const price = typeof json.price_per_million_chars_rub === 'string' ? parseRub(json.price_per_million_chars_rub) : null;
  if (balance === null || price === null || typeof json.max_concurrency !== 'number') {
    throw new ServiceError(res.status, 'bad-response', 'The service answered with something that is not an account.');
  }
  return {
    name: String(json.name ?? ''),
    provider: String(json.provider ?? ''),
    balanceRub: json.balance_rub as string,
    pricePerMillionRub: json.price_per_million_chars_rub as string,
    maxConcurrency: Math.max(1, Math.floor(json.max_concurrency)),
    checkedAt: Date.now(),
  };
}

export interface SpeechBody {
  text: string;
  voice?: string;
  format?: string;
  stream: true;
  previous_text?: string;
  next_text?: string;
}

export interface SpeechReceipt {
  requestId: string;
  /** null when the header is missing or not a number. */
  charsBilled: number | null;
  cost: RubUnits | null;
  balance: RubUnits | null;
}

export interface SpeechStream {
  receipt: SpeechReceipt;
  /** Audio bytes as they arrive; throws ServiceError on a dropped or stalled body. */
  chunks: AsyncGenerator<Uint8Array, void, void>;
}

function readReceipt(res: Response): SpeechReceipt {
  const billed = res.headers.get('X-Characters-Billed');
  const chars = billed !== null && /^\d+$/.test(billed.trim()) ? Number(billed.trim()) : null;
  const money = (name: string) => {
    const v = res.headers.get(name);
    return v === null ? null : parseRub(v);
  };
  return {
    requestId: res.headers.get('X-Request-Id') ?? '',
    charsBilled: chars,
    cost: money('X-Cost-Rub'),
    balance: money('X-Balance-Rub'),
  };
}

/** MPEG audio frame sync or an ID3 tag: the only starts an audio/mpeg body may have. */
export function looksLikeMp3(bytes: Uint8Array): boolean {
  if (bytes.length < 3) return bytes.length > 0 && bytes[0] === 0xff;
  if (bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33) return true;
  return bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0;
}

/**
 * Starts a streaming synthesis. The status and the content type are checked
 * before a single byte is treated as audio, and the first bytes must look like
 * MP3: an error body is never handed to the player.
 */
export async function openSpeechStream(
  auth: Auth,
  body: SpeechBody,
  opts: { signal: AbortSignal; answerMs?: number; stallMs?: number },
): Promise<SpeechStream> {
  // Synthesis of a long part may take a while to start; once audio flows, a silence this long means a stalled body.
  const answerMs = opts.answerMs ?? 30_000;
  const stallMs = opts.stallMs ?? 10_000;
  // A request for a reading already stopped is never sent (it would be billed).
  opts.signal.throwIfAborted();
  const controller = new AbortController();
  const onAbort = () => controller.abort(opts.signal.reason);
  opts.signal.addEventListener('abort', onAbort, { once: true });
  let stalled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      stalled = true;
      controller.abort();
    }, ms);
  };
  const cleanup = () => {
    clearTimeout(timer);
    opts.signal.removeEventListener('abort', onAbort);
  };
  const timeoutError = () => new ServiceError(0, 'timeout', 'The service stopped sending audio.');

  arm(answerMs);
  let res: Response;
  try {
    res = await send(`${auth.baseUrl}/v1/speech`, {
      method: 'POST',
      headers: { ...headersFor(auth), 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: controller.signal,
      cache: 'no-store',
    });
  } catch (err) {
    cleanup();
    throw stalled ? timeoutError() : err;
  }
  if (!res.ok) {
    // The error body is read under the same timer: a stalled one cannot hang the reading.
    arm(stallMs);
    const error = await errorFrom(res);
    cleanup();
    throw error;
  }
  const receipt = readReceipt(res);
  const type = (res.headers.get('Content-Type') ?? '').toLowerCase();
  if (!type.startsWith('audio/') || !res.body) {
    cleanup();
    await res.body?.cancel().catch(ignore('dropping a body that is not audio'));
    throw new ServiceError(res.status, 'bad-audio', 'The service answered without audio.', receipt.requestId);
  }
  const reader = res.body.getReader();

  async function* chunks(): AsyncGenerator<Uint8Array, void, void> {
    let first = true;
    try {
      for (;;) {
        arm(first ? answerMs : stallMs);
        let step: ReadableStreamReadResult<Uint8Array>;
        try {
          step = await reader.read();
        } catch (err) {
          if (stalled) throw timeoutError();
          if (opts.signal.aborted) throw opts.signal.reason ?? err;
          throw new ServiceError(0, 'network', 'The connection was lost while audio was arriving.', receipt.requestId);
        }
        if (step.done) return;
        if (step.value.byteLength === 0) continue;
        if (first) {
          first = false;
          if (!looksLikeMp3(step.value)) {
            throw new ServiceError(res.status, 'bad-audio', 'The service answered with something that is not audio.', receipt.requestId);
          }
        }
        yield step.value;
      }
    } finally {
      cleanup();
      // A body read to its end has nothing left to cancel; one cut short is let go.
      reader.cancel().catch(ignore('letting go of a response body'));
    }
  }
  return { receipt, chunks: chunks() };
}
