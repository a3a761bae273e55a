/**
 * A local stand-in of the trySasha speech service (see /work/shared/SERVICE.md):
 * the same endpoints, errors and billing, plus fault injection and a request log.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { renderAudio, type RenderedAudio } from './audio.ts';
import { renderTimedVoice } from './timed-voice.ts';
import {
  FaultList,
  faultFromJson,
  type AnswerFault,
  type AudioFault,
  type ErrorShape,
  type Fault,
  type FaultName,
  type FaultTarget,
} from './faults.ts';
import { costUnits, formatRub, parseRub } from './money.ts';
import {
  checkOptions,
  defaultOptions,
  type AccountOptions,
  type FakeServiceOptionsOf,
  type ServiceOptions,
} from './options.ts';
import { parseJson, parseSpeechBody, type Json, type SpeechRequest } from './speech-request.ts';

export { DEFAULT_ACCOUNT, type AccountOptions, type ServiceOptions } from './options.ts';
export type { ErrorShape, Fault, FaultKind, FaultMatch, FaultName } from './faults.ts';

export interface LogEntry {
  /** The X-Request-Id of the answer. */
  id: string;
  /** 1-based number among POST /v1/speech requests (since start or resetLog()); null for others. */
  nth: number | null;
  method: string;
  path: string;
  /** The key the request presented (Bearer or X-API-Key), known or not; null when none. */
  key: string | null;
  body: Json | null;
  /** The body's fields when they are strings; '' otherwise. */
  text: string;
  previousText: string;
  nextText: string;
  /** HTTP status once the answer started; 0 before. */
  status: number;
  /** Error code of an error answer. */
  code: string | null;
  billedChars: number;
  /** Cost in ten-thousandths of a ruble. */
  costUnits: number;
  /** Epoch milliseconds with a sub-millisecond fraction: performance.timeOrigin + performance.now(). */
  arrivedAt: number;
  firstByteAt: number | null;
  endedAt: number | null;
  /** Other speech requests of the same account in flight when this one arrived. */
  inFlightAtArrival: number;
  /** The client closed the connection before the body ended. */
  aborted: boolean;
  /** The timed voice's words (`audio: 'timed'`): when each is said in the audio sent. For the tests; never in an answer. */
  trueWords?: Array<{ start: number; end: number; startMs: number; endMs: number }>;
  /** Body bytes written (audio or error body). */
  bytesSent: number;
  fault: FaultName | null;
}

export interface AccountState extends Required<AccountOptions> {
  /** Requests of the account in flight now. */
  inFlight: number;
}

/** Everything optional: port (fixed at start), onRequestEnd, and the run-time ServiceOptions. */
export type FakeServiceOptions = FakeServiceOptionsOf<LogEntry>;

export interface FakeService {
  /** http://127.0.0.1:PORT, no trailing slash. */
  readonly url: string;
  /** Serves every request outside `/v1/` and `/__fake` with `handle` (the tests' pages, at the service's address); null stops. */
  mountPages(handle: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | null): void;
  readonly port: number;
  /** The first account's key. */
  readonly key: string;
  /** Every request except the /__fake control endpoints, in arrival order; entries fill in as answers progress. */
  readonly log: readonly LogEntry[];
  speechLog(): LogEntry[];
  /** Empties the log and restarts the nth count and maxInFlightSeen. */
  resetLog(): void;
  readonly options: Readonly<ServiceOptions>;
  /** Changes options at run time; `accounts` replaces all accounts (and their balances). */
  configure(partial: Partial<ServiceOptions>): void;
  /** Throws for an unknown key. */
  account(key: string): AccountState;
  setBalance(key: string, balanceRub: string): void;
  addFault(fault: Fault): void;
  clearFaults(): void;
  /** POST /v1/speech requests of the account in flight, from arrival until the body ends or the client aborts. */
  inFlight(key: string): number;
  /** The highest inFlight() of any account seen, counting requests that were answered 429 too. */
  readonly maxInFlightSeen: number;
  /**
   * The service gone from the network for `seconds` (a tunnel, a Wi-Fi hand-over): from now, or from the
   * `fromNth` speech request on (that one included), every connection to it is cut unanswered and every
   * answer still being sent is cut where it is. Control requests (`/__fake`) still answer.
   */
  outage(opts: { seconds: number; fromNth?: number }): void;
  /** The outage armed or under way: when it ends (epoch ms; 0: none begun) and how many connections it cut. */
  outageState(): OutageState;
  /** Closes the server and drops every connection, stalled ones included. */
  close(): Promise<void>;
}

export interface OutageState {
  /** Epoch ms the outage ends at; 0 while armed for a later request, or with none. */
  until: number;
  /** A speech request number that will begin it (0: none armed). */
  fromNth: number;
  seconds: number;
  /** Connections cut unanswered, and answers cut mid-way, since the outage was set. */
  refused: number;
  cut: number;
}

interface Account {
  options: Required<AccountOptions>;
  balance: bigint;
  price: bigint;
  overdraft: bigint;
}

interface Flight {
  open: number;
  /** Requests that got past the concurrency check. */
  admitted: number;
}

interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  entry: LogEntry;
  account: Account | null;
  admitted: boolean;
  /** Aborted when the connection closes before the answer ended. */
  closed: AbortController;
  done: boolean;
}

interface Piece {
  bytes: Uint8Array;
  /** When to send it, in ms after the first byte. */
  atMs: number;
}

const AUDIO_FAULTS = ['reset', 'stall', 'json200', 'not-audio-200', 'headers', 'delay'] as const;
const MALFORMED_HEADER_VALUE = 'abc';

const now = (): number => performance.timeOrigin + performance.now();

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function presentedKey(req: IncomingMessage): string | null {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (bearer?.[1]) return bearer[1];
  const apiKey = req.headers['x-api-key'];
  return typeof apiKey === 'string' && apiKey.trim() !== '' ? apiKey.trim() : null;
}

function isJsonContentType(req: IncomingMessage): boolean {
  return /^application\/json\b/i.test(req.headers['content-type'] ?? '');
}

export function errorBody(shape: ErrorShape, code: string, message: string): { contentType: string; body: string } {
  switch (shape) {
    case 'nested':
      return { contentType: 'application/json', body: JSON.stringify({ error: { code, message } }) };
    case 'flat':
      return { contentType: 'application/json', body: JSON.stringify({ code, message }) };
    case 'detail':
      return { contentType: 'application/json', body: JSON.stringify({ detail: message }) };
    case 'text':
      return { contentType: 'text/plain; charset=utf-8', body: message };
  }
}

/** The body as timed pieces: one piece when not streaming, else chunkBytes-sized pieces. */
function piecesOf(bytes: Uint8Array, stream: boolean, chunkBytes: number, intervalMs: number, spreadMs: number): Piece[] {
  if (!stream) return [{ bytes, atMs: 0 }];
  const pieces: Piece[] = [];
  for (let offset = 0, i = 0; offset < bytes.length; offset += chunkBytes, i++) {
    const piece = bytes.subarray(offset, offset + chunkBytes);
    // Paced like a synthesizer: a piece leaves when the audio in it is ready.
    const atMs = spreadMs > 0 ? (i === 0 ? 0 : ((offset + piece.length) / bytes.length) * spreadMs) : i * intervalMs;
    pieces.push({ bytes: piece, atMs });
  }
  return pieces;
}

/** Splits the pieces after `byteCount` bytes. */
function splitPieces(pieces: readonly Piece[], byteCount: number): [Piece[], Piece[]] {
  const before: Piece[] = [];
  const after: Piece[] = [];
  let left = byteCount;
  for (const piece of pieces) {
    const take = Math.max(0, Math.min(left, piece.bytes.length));
    if (take > 0) before.push({ bytes: piece.bytes.subarray(0, take), atMs: piece.atMs });
    if (take < piece.bytes.length) after.push({ bytes: piece.bytes.subarray(take), atMs: piece.atMs });
    left -= take;
  }
  return [before, after];
}

function newAccount(options: AccountOptions): Account {
  const full: Required<AccountOptions> = { overdraftRub: '0.0000', disabled: false, provider: 'trySasha', ...options };
  return {
    options: full,
    balance: parseRub(full.balanceRub),
    price: parseRub(full.pricePerMillionRub),
    overdraft: parseRub(full.overdraftRub),
  };
}

class FakeSpeechService implements FakeService {
  readonly log: LogEntry[] = [];
  private opts: ServiceOptions = defaultOptions();
  private accounts = new Map<string, Account>();
  private readonly flights = new Map<string, Flight>();
  /** Speech requests counted in flight, for `POST /__fake/cut`. */
  private readonly open = new Set<Exchange>();
  private readonly faults = new FaultList();
  private readonly sockets = new Set<Socket>();
  private speechCount = 0;
  private requestCount = 0;
  private maxSeen = 0;
  private closing = false;
  private listeningPort = 0;
  private outageNow: OutageState = { until: 0, fromNth: 0, seconds: 0, refused: 0, cut: 0 };

  constructor(
    private readonly server: Server,
    private readonly onRequestEnd: ((entry: LogEntry) => void) | undefined,
  ) {
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => void this.handle(req, res));
  }

  async listen(port: number): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => resolve());
    });
    this.listeningPort = (this.server.address() as AddressInfo).port;
  }

  get port(): number {
    return this.listeningPort;
  }

  get url(): string {
    return `http://127.0.0.1:${this.listeningPort}`;
  }

  get key(): string {
    return this.opts.accounts[0]?.key ?? '';
  }

  get options(): Readonly<ServiceOptions> {
    return structuredClone(this.opts);
  }

  get maxInFlightSeen(): number {
    return this.maxSeen;
  }

  speechLog(): LogEntry[] {
    return this.log.filter((e) => e.method === 'POST' && e.path === '/v1/speech');
  }

  resetLog(): void {
    this.log.length = 0;
    this.speechCount = 0;
    this.maxSeen = 0;
  }

  configure(partial: Partial<ServiceOptions>): void {
    const checked = checkOptions(partial);
    this.opts = { ...this.opts, ...structuredClone(checked) };
    if (checked.accounts) this.accounts = new Map(checked.accounts.map((a) => [a.key, newAccount(a)]));
  }

  account(key: string): AccountState {
    const account = this.accounts.get(key);
    if (!account) throw new Error(`no account with key ${key}`);
    return {
      ...account.options,
      balanceRub: formatRub(account.balance),
      pricePerMillionRub: formatRub(account.price),
      overdraftRub: formatRub(account.overdraft),
      inFlight: this.inFlight(key),
    };
  }

  setBalance(key: string, balanceRub: string): void {
    const account = this.accounts.get(key);
    if (!account) throw new Error(`no account with key ${key}`);
    account.balance = parseRub(balanceRub);
  }

  addFault(fault: Fault): void {
    this.faults.add(faultFromJson(fault));
  }

  clearFaults(): void {
    this.faults.clear();
  }

  inFlight(key: string): number {
    return this.flights.get(key)?.open ?? 0;
  }

  outage({ seconds, fromNth }: { seconds: number; fromNth?: number }): void {
    if (!(seconds >= 0) || (fromNth !== undefined && !(Number.isInteger(fromNth) && fromNth >= 1))) throw new Error('need {"seconds" ≥ 0, "fromNth" ≥ 1}');
    this.outageNow = { until: 0, fromNth: fromNth ?? 0, seconds, refused: 0, cut: 0 };
    if (fromNth === undefined) this.beginOutage();
  }

  outageState(): OutageState {
    return { ...this.outageNow };
  }

  private beginOutage(): void {
    this.outageNow.fromNth = 0;
    this.outageNow.until = Date.now() + this.outageNow.seconds * 1000;
    // The answers on their way are cut where they are.
    for (const ex of [...this.open]) {
      if (ex.done) continue;
      this.outageNow.cut += 1;
      ex.res.destroy();
    }
  }

  /** Whether this request meets the outage (armed to begin at it, or under way): then it is cut unanswered. */
  private unreachable(req: IncomingMessage, path: string): boolean {
    const o = this.outageNow;
    if (o.fromNth > 0 && req.method === 'POST' && path === '/v1/speech' && this.speechCount + 1 >= o.fromNth) {
      // Not counted: `nth` counts the requests the service saw.
      this.beginOutage();
    }
    if (Date.now() >= o.until) return false;
    o.refused += 1;
    return true;
  }

  async close(): Promise<void> {
    this.closing = true;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  // --- one exchange ---

  /** Pages served at the service's own address (tests/e2e/pages-server.ts `pagesOnService`); null: none. */
  private pages: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | null = null;

  /** Serves every request outside `/v1/` and `/__fake` with `handle` (not logged, not billed, no outage); null stops. */
  mountPages(handle: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | null): void {
    this.pages = handle;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/__fake' || url.pathname.startsWith('/__fake/')) return this.control(req, res, url);
    if (this.pages && !url.pathname.startsWith('/v1/')) return this.pages(req, res);
    // Gone from the network: the connection is cut, nothing answered, nothing logged (the service never saw it).
    if (this.unreachable(req, url.pathname)) return void req.socket.destroy();
    // On the way (there and back, taken together): the service has not seen the request yet.
    if (this.opts.roundTripMs > 0) {
      const gone = new AbortController();
      res.once('close', () => gone.abort());
      await sleep(this.opts.roundTripMs, gone.signal);
      if (gone.signal.aborted) return;
    }
    const ex = this.begin(req, res, url.pathname);
    try {
      await this.answer(ex, await readBody(req));
    } catch (error) {
      this.failUnexpectedly(ex, error);
    }
  }

  private failUnexpectedly(ex: Exchange, error: unknown): void {
    if (ex.done) return;
    if (ex.res.headersSent) {
      ex.res.destroy();
      return;
    }
    this.sendError(ex, 500, 'synthesis_failed', error instanceof Error ? error.message : String(error));
  }

  private begin(req: IncomingMessage, res: ServerResponse, path: string): Exchange {
    const method = req.method ?? 'GET';
    const isSpeech = method === 'POST' && path === '/v1/speech';
    const key = presentedKey(req);
    const account = key === null ? null : (this.accounts.get(key) ?? null);
    const entry: LogEntry = {
      id: `req_${++this.requestCount}_${randomBytes(4).toString('hex')}`,
      nth: isSpeech ? ++this.speechCount : null,
      method,
      path,
      key,
      body: null,
      text: '',
      previousText: '',
      nextText: '',
      status: 0,
      code: null,
      billedChars: 0,
      costUnits: 0,
      arrivedAt: now(),
      firstByteAt: null,
      endedAt: null,
      inFlightAtArrival: key === null ? 0 : this.inFlight(key),
      aborted: false,
      bytesSent: 0,
      fault: null,
    };
    this.log.push(entry);
    res.setHeader('X-Request-Id', entry.id);
    const ex: Exchange = { req, res, entry, account, admitted: false, closed: new AbortController(), done: false };
    if (isSpeech && account) this.takeOff(ex, account);
    res.on('close', () => this.closedEarly(ex));
    // Writes racing a dropped connection report through their callbacks; keep them from crashing the process.
    res.on('error', () => {});
    return ex;
  }

  /** Counts the request in flight from its arrival; decides now whether it fits the account's limit. */
  private takeOff(ex: Exchange, account: Account): void {
    const flight = this.flights.get(account.options.key) ?? { open: 0, admitted: 0 };
    this.flights.set(account.options.key, flight);
    flight.open += 1;
    this.open.add(ex);
    this.maxSeen = Math.max(this.maxSeen, flight.open);
    ex.admitted = flight.admitted < account.options.maxConcurrency;
    if (ex.admitted) flight.admitted += 1;
  }

  private land(ex: Exchange): void {
    const flight = ex.entry.nth !== null && ex.account ? this.flights.get(ex.account.options.key) : undefined;
    if (!flight) return;
    this.open.delete(ex);
    flight.open -= 1;
    if (ex.admitted) flight.admitted -= 1;
  }

  /** Marks the exchange over; the slot is freed before the last byte leaves, so a client never races it. */
  private finish(ex: Exchange, aborted: boolean): void {
    if (ex.done) return;
    ex.done = true;
    ex.entry.endedAt = now();
    ex.entry.aborted = aborted;
    this.land(ex);
    ex.closed.abort();
    this.onRequestEnd?.(ex.entry);
  }

  private closedEarly(ex: Exchange): void {
    this.finish(ex, !this.closing);
  }

  private end(ex: Exchange, body?: Uint8Array | string): void {
    if (body !== undefined && body.length > 0) ex.entry.bytesSent += Buffer.byteLength(body);
    this.finish(ex, false);
    ex.res.end(body);
  }

  private async answer(ex: Exchange, raw: string): Promise<void> {
    const body = raw === '' ? undefined : parseJson(raw);
    this.noteBody(ex.entry, body);
    const fault = this.faults.take(this.target(ex), ['status']);
    if (fault) return this.sendFaultError(ex, fault);
    const { method, path } = ex.entry;
    if (path === '/v1/account') return method === 'GET' ? this.sendAccount(ex) : this.sendMethodNotAllowed(ex, 'GET');
    if (path === '/v1/speech') return method === 'POST' ? this.speech(ex, body) : this.sendMethodNotAllowed(ex, 'POST');
    this.sendError(ex, 404, 'not_found', `No route ${method} ${path}`);
  }

  private noteBody(entry: LogEntry, body: Json | undefined): void {
    entry.body = body ?? null;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
    const text = (field: string): string => (typeof body[field] === 'string' ? (body[field] as string) : '');
    entry.text = text('text');
    entry.previousText = text('previous_text');
    entry.nextText = text('next_text');
  }

  private target(ex: Exchange): FaultTarget {
    return { path: ex.entry.path, nth: ex.entry.nth, text: ex.entry.text };
  }

  // --- the API ---

  /** 401 / 403 checks; returns the account when the request may go on. */
  private authorize(ex: Exchange): Account | null {
    if (!ex.account) {
      this.sendError(ex, 401, 'unauthorized', ex.entry.key === null ? 'Missing API key' : 'Invalid API key');
      return null;
    }
    if (ex.account.options.disabled) {
      this.sendError(ex, 403, 'client_disabled', 'The account is not active');
      return null;
    }
    return ex.account;
  }

  private sendAccount(ex: Exchange): void {
    const account = this.authorize(ex);
    if (!account) return;
    const { name, maxConcurrency, provider } = account.options;
    this.sendJson(ex, 200, {
      name,
      balance_rub: formatRub(account.balance),
      price_per_million_chars_rub: formatRub(account.price),
      max_concurrency: maxConcurrency,
      provider,
    });
  }

  private async speech(ex: Exchange, body: Json | undefined): Promise<void> {
    const account = this.authorize(ex);
    if (!account) return;
    if (!ex.admitted) return this.sendConcurrencyLimit(ex, account);
    if (!isJsonContentType(ex.req)) return this.sendError(ex, 422, 'invalid_request', 'Content-Type must be application/json');
    const parsed = parseSpeechBody(body, this.opts.rejectTexts);
    if (!parsed.ok) return this.sendError(ex, parsed.error.status, parsed.error.code, parsed.error.message);
    const audio = await this.render(ex, parsed.request);
    if (!audio || ex.done) return;
    const chars = [...parsed.request.text].length;
    const cost = costUnits(chars, account.price);
    if (account.balance - cost < -account.overdraft) {
      return this.sendError(ex, 402, 'insufficient_balance', `Insufficient balance: ${formatRub(account.balance)} RUB`);
    }
    const fault = this.faults.take(this.target(ex), AUDIO_FAULTS);
    if (fault?.kind === 'json200' || fault?.kind === 'not-audio-200') return this.sendNotAudio(ex, fault.kind);
    this.bill(ex, account, chars, cost);
    if (audio.words) ex.entry.trueWords = audio.words;
    await this.sendAudio(ex, audio, parsed.request.stream, fault);
  }

  private async render(ex: Exchange, request: SpeechRequest): Promise<RenderedAudio | null> {
    try {
      if (this.opts.audio === 'timed') return await renderTimedVoice(request.text, request.format);
      return await renderAudio(this.opts.audio, request.text, request.format, this.opts);
    } catch (error) {
      this.sendError(ex, 500, 'synthesis_failed', `Synthesis failed: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
  }

  private bill(ex: Exchange, account: Account, chars: number, cost: bigint): void {
    account.balance -= cost;
    ex.entry.billedChars = chars;
    ex.entry.costUnits = Number(cost);
    ex.res.setHeader('X-Characters-Billed', String(chars));
    ex.res.setHeader('X-Cost-Rub', formatRub(cost));
    ex.res.setHeader('X-Balance-Rub', formatRub(account.balance));
  }

  private sendConcurrencyLimit(ex: Exchange, account: Account): void {
    const setting = this.opts.retryAfterOnConcurrency;
    const retryAfter = setting === true ? 1 : setting === false ? undefined : setting;
    this.sendError(ex, 429, 'concurrency_limit', `At most ${account.options.maxConcurrency} requests at a time`, { retryAfter });
  }

  private sendMethodNotAllowed(ex: Exchange, allow: string): void {
    ex.res.setHeader('Allow', allow);
    this.sendError(ex, 405, 'method_not_allowed', `Use ${allow}`);
  }

  private sendFaultError(ex: Exchange, fault: AnswerFault): void {
    ex.entry.fault = fault.kind;
    const message = fault.message ?? `Injected ${fault.status} ${fault.code}`;
    this.sendError(ex, fault.status, fault.code, message, { retryAfter: fault.retryAfter, shape: fault.errorShape });
  }

  private sendError(ex: Exchange, status: number, code: string, message: string, extra: { retryAfter?: number; shape?: ErrorShape } = {}): void {
    const { contentType, body } = errorBody(extra.shape ?? this.opts.errorShape, code, message);
    if (extra.retryAfter !== undefined) ex.res.setHeader('Retry-After', String(extra.retryAfter));
    ex.entry.code = code;
    this.sendBody(ex, status, contentType, body);
  }

  private sendJson(ex: Exchange, status: number, value: unknown): void {
    this.sendBody(ex, status, 'application/json', JSON.stringify(value));
  }

  private sendBody(ex: Exchange, status: number, contentType: string, body: string): void {
    if (ex.done) return;
    ex.entry.status = status;
    ex.entry.firstByteAt = now();
    ex.res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) });
    this.end(ex, body);
  }

  /** A 200 that is not audio: JSON as JSON, or JSON under an audio/mpeg label. Not billed. */
  private sendNotAudio(ex: Exchange, kind: 'json200' | 'not-audio-200'): void {
    ex.entry.fault = kind;
    const body =
      kind === 'json200'
        ? JSON.stringify({ status: 'ok', message: 'This is JSON, not audio' })
        : JSON.stringify({ error: { code: 'synthesis_failed', message: 'Not audio despite the content type' } });
    this.sendBody(ex, 200, kind === 'json200' ? 'application/json' : 'audio/mpeg', body);
  }

  // --- audio delivery ---

  private async sendAudio(ex: Exchange, audio: RenderedAudio, stream: boolean, fault: AudioFault | null): Promise<void> {
    const { firstByteMs, chunkBytes, chunkIntervalMs, realtimeFactor } = this.opts;
    const synthesisMs = realtimeFactor ? audio.durationMs / realtimeFactor : 0;
    const signal = ex.closed.signal;
    ex.entry.fault = fault?.kind ?? null;
    ex.res.setHeader('Content-Type', audio.contentType);
    if (!stream) ex.res.setHeader('Content-Length', audio.bytes.length);
    if (fault?.kind === 'headers') this.spoilHeaders(ex.res, fault);
    const delayMs = fault?.kind === 'delay' ? fault.firstByteMs : firstByteMs;
    // Without streaming the whole audio has to be synthesized before the first byte.
    await sleep(delayMs + (stream ? 0 : synthesisMs), signal);
    if (signal.aborted) return;
    ex.res.writeHead(200);
    ex.res.flushHeaders();
    ex.entry.status = 200;
    ex.entry.firstByteAt = now();
    const pieces = piecesOf(audio.bytes, stream, chunkBytes, chunkIntervalMs, synthesisMs);
    const start = now();
    if (fault?.kind !== 'reset' && fault?.kind !== 'stall') return this.writeToEnd(ex, pieces, start);
    const [before, after] = splitPieces(pieces, fault.afterBytes);
    if (!(await this.writePieces(ex, before, start))) return;
    if (fault.kind === 'reset') return await this.reset(ex);
    const stallStart = now();
    await (fault.stallMs === undefined ? untilAborted(signal) : sleep(fault.stallMs, signal));
    if (!signal.aborted) await this.writeToEnd(ex, after, start + (now() - stallStart));
  }

  private spoilHeaders(res: ServerResponse, fault: Extract<AudioFault, { kind: 'headers' }>): void {
    for (const name of fault.omit ?? []) res.removeHeader(name);
    for (const name of fault.malformed ?? []) res.setHeader(name, MALFORMED_HEADER_VALUE);
  }

  /** Writes pieces on schedule; false when the connection closed meanwhile. */
  private async writePieces(ex: Exchange, pieces: readonly Piece[], startAt: number): Promise<boolean> {
    const signal = ex.closed.signal;
    for (const piece of pieces) {
      await sleep(startAt + piece.atMs - now(), signal);
      if (signal.aborted) return false;
      await this.write(ex, piece.bytes);
    }
    return !signal.aborted;
  }

  /** Like writePieces, but the last piece goes with end(), so the slot is free before the last byte leaves. */
  private async writeToEnd(ex: Exchange, pieces: readonly Piece[], startAt: number): Promise<void> {
    const last = pieces.at(-1);
    if (!(await this.writePieces(ex, pieces.slice(0, -1), startAt))) return;
    await sleep(startAt + (last?.atMs ?? 0) - now(), ex.closed.signal);
    if (!ex.closed.signal.aborted) this.end(ex, last?.bytes);
  }

  /** Resolves once the bytes are handed to the OS (or the connection is gone). */
  private write(ex: Exchange, bytes: Uint8Array): Promise<void> {
    ex.entry.bytesSent += bytes.length;
    return new Promise((resolve) => {
      const signal = ex.closed.signal;
      const done = (): void => {
        signal.removeEventListener('abort', done);
        resolve();
      };
      signal.addEventListener('abort', done, { once: true });
      ex.res.write(bytes, done);
    });
  }

  /**
   * Drops the connection a moment after the last bytes left, as a real drop does:
   * destroyed at once, the bytes could be discarded before the client reads them.
   */
  private async reset(ex: Exchange): Promise<void> {
    await sleep(100, ex.closed.signal);
    this.finish(ex, false);
    ex.res.socket?.destroy();
  }

  // --- control endpoints for tests in other processes ---

  private async control(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    res.setHeader('Access-Control-Allow-Origin', '*');
    const route = `${req.method ?? 'GET'} ${url.pathname}`;
    try {
      const raw = await readBody(req);
      const input: unknown = raw === '' ? undefined : JSON.parse(raw);
      const result = this.controlRoute(route, input, url);
      if (result === undefined) return sendControl(res, 404, { error: `no control endpoint ${route}` });
      sendControl(res, route.startsWith('OPTIONS ') ? 204 : 200, result);
    } catch (error) {
      sendControl(res, 400, { error: error instanceof Error ? error.message : String(error) });
    }
  }

  /** The JSON answer of a control route; undefined for an unknown route. */
  private controlRoute(route: string, input: unknown, url: URL): unknown {
    if (route.startsWith('OPTIONS ')) return null;
    switch (route) {
      case 'GET /__fake/log':
        return url.searchParams.get('speech') === '1' ? this.speechLog() : this.log;
      case 'DELETE /__fake/log':
        this.resetLog();
        return { ok: true };
      case 'GET /__fake/faults':
        return this.faults.pending();
      case 'POST /__fake/faults': {
        const faults = (Array.isArray(input) ? input : [input]).map(faultFromJson);
        faults.forEach((f) => this.faults.add(f));
        return { added: faults.length };
      }
      case 'DELETE /__fake/faults':
        this.clearFaults();
        return { ok: true };
      case 'POST /__fake/configure':
        this.configure(checkOptions(input));
        return this.options;
      case 'POST /__fake/cut': {
        // Drops every speech request in flight (the benches end a stopped reading's part still arriving).
        const cut = [...this.open];
        for (const ex of cut) ex.res.destroy();
        return { cut: cut.length };
      }
      case 'POST /__fake/outage':
        this.outage((input ?? {}) as { seconds: number; fromNth?: number });
        return this.outageState();
      case 'GET /__fake/outage':
        return this.outageState();
      case 'GET /__fake/accounts':
        return this.opts.accounts.map((a) => this.account(a.key));
      case 'POST /__fake/balance': {
        const { key, balanceRub } = (input ?? {}) as { key?: unknown; balanceRub?: unknown };
        if (typeof key !== 'string' || typeof balanceRub !== 'string') throw new Error('need {"key", "balanceRub"}');
        this.setBalance(key, balanceRub);
        return this.account(key);
      }
      default:
        return undefined;
    }
  }
}

function sendControl(res: ServerResponse, status: number, value: unknown): void {
  if (status === 204) {
    res.writeHead(204, {
      'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
      'Access-Control-Allow-Headers': 'Content-Type',
      'Access-Control-Max-Age': '600',
    });
    res.end();
    return;
  }
  const body = JSON.stringify(value, (_key, v: unknown) => (v === Infinity ? 'Infinity' : v));
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** Starts the service on 127.0.0.1 (port 0 = a free one unless `options.port`). */
export async function startFakeService(options: FakeServiceOptions = {}): Promise<FakeService> {
  const { port = 0, onRequestEnd, ...rest } = options;
  const service = new FakeSpeechService(createServer(), onRequestEnd);
  service.configure({ accounts: defaultOptions().accounts, ...rest });
  await service.listen(port);
  return service;
}
