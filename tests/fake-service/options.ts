/** Options of the fake service, their defaults, and checks for values that arrive as JSON. */
import type { AudioSource } from './audio.ts';
import { ERROR_SHAPES, type ErrorShape } from './faults.ts';
import { parseRub } from './money.ts';

export interface AccountOptions {
  key: string;
  name: string;
  /** Decimal string, up to 4 fraction digits, may be negative. */
  balanceRub: string;
  pricePerMillionRub: string;
  maxConcurrency: number;
  /** How far below zero the balance may go; default "0.0000". */
  overdraftRub?: string;
  disabled?: boolean;
  provider?: string;
}

export interface TimingOptions {
  /**
   * A network between the client and the service: every request (account, speech, errors) waits this
   * long before the service sees it — its trip there and its answer's trip back, taken together. Not
   * part of the service's own first byte (`firstByteAt - arrivedAt` in the log).
   */
  roundTripMs: number;
  /** Delay before the first byte (headers and audio) of a successful answer. */
  firstByteMs: number;
  /** Size of the pieces of a streamed body. */
  chunkBytes: number;
  /** Pause between streamed pieces (ignored when realtimeFactor is set). */
  chunkIntervalMs: number;
  /**
   * Synthesis speed as a multiple of real time: audio of duration D is delivered
   * over D / realtimeFactor after the first byte (streamed), or all at once after
   * firstByteMs + D / realtimeFactor (not streamed). null = as fast as possible.
   */
  realtimeFactor: number | null;
}

export interface ServiceOptions extends TimingOptions {
  accounts: AccountOptions[];
  /** Tone length per billed character, and the shortest tone. */
  msPerChar: number;
  minMs: number;
  audio: AudioSource;
  /** Shape of error bodies, unless a fault says otherwise. */
  errorShape: ErrorShape;
  /** Texts containing any of these substrings get 422 content_rejected. */
  rejectTexts: string[];
  /** Send Retry-After with 429: true = 1 second, a number = that many seconds. */
  retryAfterOnConcurrency: boolean | number;
}

export interface LogHook<Entry> {
  /** Called once per logged request when its response has ended (or was aborted). */
  onRequestEnd?: (entry: Entry) => void;
}

export type FakeServiceOptionsOf<Entry> = Partial<ServiceOptions> &
  LogHook<Entry> & {
    /** Port on 127.0.0.1; default 0 = any free port. Fixed at start. */
    port?: number;
  };

export const DEFAULT_ACCOUNT: Readonly<Required<AccountOptions>> = {
  key: 'vk_live_test_key',
  name: 'Test account',
  balanceRub: '100.0000',
  pricePerMillionRub: '1500.0000',
  maxConcurrency: 2,
  overdraftRub: '0.0000',
  disabled: false,
  provider: 'trySasha',
};

export function defaultOptions(): ServiceOptions {
  return {
    accounts: [{ ...DEFAULT_ACCOUNT }],
    roundTripMs: 0,
    firstByteMs: 0,
    chunkBytes: 4096,
    chunkIntervalMs: 0,
    realtimeFactor: null,
    msPerChar: 2,
    minMs: 300,
    audio: 'tone',
    errorShape: 'nested',
    rejectTexts: [],
    retryAfterOnConcurrency: false,
  };
}

function need(ok: boolean, message: string): void {
  if (!ok) throw new Error(message);
}

const isNonNegative = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isRub(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    parseRub(value);
    return true;
  } catch {
    return false;
  }
}

function checkAccount(account: unknown, index: number): void {
  const at = `accounts[${index}]`;
  need(isRecord(account), `${at} must be an object`);
  const a = account as Record<string, unknown>;
  need(typeof a.key === 'string' && a.key !== '', `${at}.key must be a non-empty string`);
  need(typeof a.name === 'string', `${at}.name must be a string`);
  need(isRub(a.balanceRub), `${at}.balanceRub must be a decimal string like "100.0000"`);
  need(isRub(a.pricePerMillionRub) && !String(a.pricePerMillionRub).startsWith('-'), `${at}.pricePerMillionRub must be a non-negative decimal string`);
  need(Number.isInteger(a.maxConcurrency) && (a.maxConcurrency as number) >= 0, `${at}.maxConcurrency must be a whole number`);
  need(a.overdraftRub === undefined || (isRub(a.overdraftRub) && !String(a.overdraftRub).startsWith('-')), `${at}.overdraftRub must be a non-negative decimal string`);
  need(a.disabled === undefined || typeof a.disabled === 'boolean', `${at}.disabled must be a boolean`);
  need(a.provider === undefined || typeof a.provider === 'string', `${at}.provider must be a string`);
}

const CHECKS: Record<keyof ServiceOptions, (value: unknown) => void> = {
  accounts: (v) => {
    need(Array.isArray(v), 'accounts must be an array');
    (v as unknown[]).forEach(checkAccount);
    const keys = (v as AccountOptions[]).map((a) => a.key);
    need(new Set(keys).size === keys.length, 'account keys must be unique');
  },
  roundTripMs: (v) => need(isNonNegative(v), 'roundTripMs must be a number ≥ 0'),
  firstByteMs: (v) => need(isNonNegative(v), 'firstByteMs must be a number ≥ 0'),
  chunkBytes: (v) => need(Number.isInteger(v) && (v as number) >= 1, 'chunkBytes must be a whole number ≥ 1'),
  chunkIntervalMs: (v) => need(isNonNegative(v), 'chunkIntervalMs must be a number ≥ 0'),
  realtimeFactor: (v) => need(v === null || (isNonNegative(v) && (v as number) > 0), 'realtimeFactor must be a number > 0 or null'),
  msPerChar: (v) => need(isNonNegative(v), 'msPerChar must be a number ≥ 0'),
  minMs: (v) => need(isNonNegative(v), 'minMs must be a number ≥ 0'),
  audio: (v) => need(v === 'tone' || v === 'speech' || v === 'timed', 'audio must be "tone", "speech" or "timed"'),
  errorShape: (v) => need(ERROR_SHAPES.includes(v as ErrorShape), `errorShape must be one of ${ERROR_SHAPES.join(', ')}`),
  rejectTexts: (v) => need(Array.isArray(v) && v.every((s) => typeof s === 'string'), 'rejectTexts must be a list of strings'),
  retryAfterOnConcurrency: (v) =>
    need(typeof v === 'boolean' || (Number.isInteger(v) && (v as number) >= 0), 'retryAfterOnConcurrency must be a boolean or whole seconds'),
};

/**
 * Checks a partial set of run-time options (from code or JSON) and returns it with
 * undefined values turned into "back to the default". Throws on unknown or bad values.
 */
export function checkOptions(input: unknown): Partial<ServiceOptions> {
  need(isRecord(input), 'options must be a JSON object');
  const defaults = defaultOptions();
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input as Record<string, unknown>)) {
    need(name in CHECKS, `unknown option "${name}"${name === 'port' ? ' (the port is fixed at start)' : ''}`);
    const option = name as keyof ServiceOptions;
    const resolved = value === undefined ? defaults[option] : value;
    CHECKS[option](resolved);
    out[option] = resolved;
  }
  return out as Partial<ServiceOptions>;
}
