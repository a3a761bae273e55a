/** Fault injection: what can go wrong, and which requests it hits. */

export type ErrorShape = 'nested' | 'flat' | 'detail' | 'text';
export const ERROR_SHAPES: readonly ErrorShape[] = ['nested', 'flat', 'detail', 'text'];

export interface FaultMatch {
  /** 1-based number of the POST /v1/speech request since start or the last resetLog(). */
  nth?: number;
  /** Substring of the request's `text`. */
  text?: string;
  /** Exact request path; default "/v1/speech". */
  path?: string;
}

export type FaultKind =
  | { kind: 'status'; status: number; code: string; message?: string; retryAfter?: number; errorShape?: ErrorShape }
  | { kind: 'reset'; afterBytes: number }
  | { kind: 'stall'; afterBytes: number; stallMs?: number }
  | { kind: 'json200' }
  | { kind: 'not-audio-200' }
  | { kind: 'headers'; omit?: string[]; malformed?: string[] }
  | { kind: 'delay'; firstByteMs: number };

export type Fault = FaultKind & {
  match?: FaultMatch;
  /** How many requests it hits; default 1, Infinity allowed ("Infinity" or null over HTTP). */
  times?: number;
};

export type FaultName = FaultKind['kind'];
export const FAULT_KINDS: readonly FaultName[] = ['status', 'reset', 'stall', 'json200', 'not-audio-200', 'headers', 'delay'];

/** Status faults replace the whole answer; the others shape an otherwise successful one. */
export type AnswerFault = Extract<FaultKind, { kind: 'status' }>;
export type AudioFault = Exclude<FaultKind, AnswerFault>;

export interface FaultTarget {
  path: string;
  /** Speech request number; null for other requests. */
  nth: number | null;
  text: string;
}

interface ArmedFault {
  fault: Fault;
  remaining: number;
}

export class FaultList {
  private armed: ArmedFault[] = [];

  add(fault: Fault): void {
    this.armed.push({ fault, remaining: fault.times ?? 1 });
  }

  clear(): void {
    this.armed = [];
  }

  /** Faults that can still fire, with how many times each has left. */
  pending(): Array<Fault & { remaining: number }> {
    return this.armed.map(({ fault, remaining }) => ({ ...fault, remaining }));
  }

  /** Takes (uses up one time of) the first armed fault of the wanted kinds that matches. */
  take<K extends FaultName>(target: FaultTarget, kinds: readonly K[]): Extract<Fault, { kind: K }> | null {
    const found = this.armed.find(
      (a) => a.remaining > 0 && (kinds as readonly FaultName[]).includes(a.fault.kind) && matches(a.fault.match ?? {}, target),
    );
    if (!found) return null;
    found.remaining -= 1;
    this.armed = this.armed.filter((a) => a.remaining > 0);
    return found.fault as Extract<Fault, { kind: K }>;
  }
}

function matches(match: FaultMatch, target: FaultTarget): boolean {
  if (target.path !== (match.path ?? '/v1/speech')) return false;
  if (match.nth !== undefined && match.nth !== target.nth) return false;
  if (match.text !== undefined && !target.text.includes(match.text)) return false;
  return true;
}

// --- checking faults that arrive as JSON over HTTP ---

type Record_ = Record<string, unknown>;

function isRecord(value: unknown): value is Record_ {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function need(ok: boolean, message: string): void {
  if (!ok) throw new Error(message);
}

const isCount = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isStringList = (v: unknown): boolean => Array.isArray(v) && v.every((s) => typeof s === 'string');

function checkMatch(match: unknown): void {
  if (match === undefined) return;
  need(isRecord(match), '"match" must be an object');
  const m = match as Record_;
  need(m.nth === undefined || (isCount(m.nth) && (m.nth as number) >= 1), '"match.nth" must be a positive integer');
  need(m.text === undefined || typeof m.text === 'string', '"match.text" must be a string');
  need(m.path === undefined || typeof m.path === 'string', '"match.path" must be a string');
}

function checkKind(f: Record_): void {
  switch (f.kind) {
    case 'status':
      need(isCount(f.status) && (f.status as number) >= 100 && (f.status as number) <= 599, '"status" must be an HTTP status');
      need(typeof f.code === 'string', '"code" must be a string');
      need(f.message === undefined || typeof f.message === 'string', '"message" must be a string');
      need(f.retryAfter === undefined || isCount(f.retryAfter), '"retryAfter" must be a whole number of seconds');
      need(f.errorShape === undefined || ERROR_SHAPES.includes(f.errorShape as ErrorShape), '"errorShape" is not a known shape');
      return;
    case 'reset':
      need(isCount(f.afterBytes), '"afterBytes" must be a whole number');
      return;
    case 'stall':
      need(isCount(f.afterBytes), '"afterBytes" must be a whole number');
      need(f.stallMs === undefined || isCount(f.stallMs), '"stallMs" must be a whole number');
      return;
    case 'headers':
      need(f.omit === undefined || isStringList(f.omit), '"omit" must be a list of header names');
      need(f.malformed === undefined || isStringList(f.malformed), '"malformed" must be a list of header names');
      return;
    case 'delay':
      need(isCount(f.firstByteMs), '"firstByteMs" must be a whole number');
      return;
    case 'json200':
    case 'not-audio-200':
      return;
    default:
      throw new Error(`"kind" must be one of ${FAULT_KINDS.join(', ')}`);
  }
}

/** A fault from untrusted JSON; `times` may be "Infinity" or null for Infinity. Throws on anything malformed. */
export function faultFromJson(input: unknown): Fault {
  need(isRecord(input), 'a fault must be a JSON object');
  const f = { ...(input as Record_) };
  if (f.times === 'Infinity' || f.times === null) f.times = Infinity;
  need(f.times === undefined || f.times === Infinity || (isCount(f.times) && (f.times as number) >= 1), '"times" must be a positive integer or "Infinity"');
  checkMatch(f.match);
  checkKind(f);
  return f as Fault;
}
