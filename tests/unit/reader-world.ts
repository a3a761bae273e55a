/**
 * A Reader wired to fakes that answer at once: an in-memory service (scripted answers, a log,
 * in-flight counting), a player that plays instantly or on command, an in-memory cache and store.
 * Unit tests of the reading's money and fault behaviour run in milliseconds on it.
 */
import { AudioCache, memoryBackend } from '../../utils/audio/cache';
import type { PlayerCommand, PlayerEvent, PlayerSink } from '../../utils/audio/player-protocol';
import { ReadingError, type ReadingPlan } from '../../utils/reading/plan';
import type { RunProgress } from '../../utils/reading/run';
import { Reader, type ReaderDeps } from '../../utils/reading/reader';
import type { ReadingView } from '../../utils/reading/state';
import { ServiceError, type SpeechBody, type SpeechReceipt, type SpeechStream } from '../../utils/speech/client';
import { RequestSlots } from '../../utils/speech/slots';
import { SpendingBook } from '../../utils/money/spending-book';
import type { SpendingTotals } from '../../utils/money/totals';
import { type AccountInfo, DEFAULT_PLAYBACK, DEFAULT_SETTINGS, type Settings } from '../../utils/storage/settings';
import type { UsageEntry } from '../../utils/storage/usage-history';
import type { TextBatch, TextBlock } from '../../utils/text/extract';
import type { ResumePoint } from '../../utils/storage/resume';
import { FRAME_BYTES, FRAME_SECONDS, mp3 } from './mp3-frames';

export { FRAME_BYTES, FRAME_SECONDS, mp3 };

/** What the fake service does with one request. */
export type Answer =
  | { kind: 'ok'; receipt?: Partial<SpeechReceipt> }
  | { kind: 'error'; status: number; code: string; retryAfter?: string }
  /** Some frames arrive, then the connection drops. */
  | { kind: 'drop'; frames: number }
  /** Holds the answer until `release()` is called (a slow synthesis). */
  | { kind: 'held' }
  /** Answers at once (billed) with the first frames, then the stream waits for `release()` (or an abort) before the rest. */
  | { kind: 'stall' }
  /** No answer at all: the service cannot be reached (logged with status 0, never billed). */
  | { kind: 'unreachable' };

export interface LoggedRequest {
  text: string;
  previousText: string;
  answer: Answer['kind'];
  status: number;
  inFlightAtArrival: number;
  aborted: boolean;
}

export interface WorldOptions {
  blocks?: TextBlock[];
  /** Frames of audio per character sent. */
  framesPerChar?: number;
  maxConcurrency?: number;
  price?: string;
  threshold?: string;
  /** The player reports progress by itself and moves on at each part's end (else tests drive it). */
  autoplay?: boolean;
  /** The player says it plays only when the test calls `playing()` (else at its first bytes). */
  playingLate?: boolean;
  /** Chooses an answer for each request (default: ok). */
  answer?: (body: SpeechBody, n: number) => Answer;
  /** The cache's backend throws on write. */
  brokenCache?: boolean;
  /** Sleeps end only when the test moves the clock with `tick` (default: at once, moving the clock). */
  manualTime?: boolean;
  /** Starts from what an earlier life of the background saved. */
  saved?: { view: ReadingView | null; plan: ReadingPlan | null; progress: RunProgress | null };
  /** The player did not outlive that life (Firefox's, in the background page; a closed offscreen document): it knows no reading. */
  newPlayer?: boolean;
  cache?: AudioCache;
  /** The account as the service has it now, when it differs from the one saved (e.g. a new price); `'fails'`: the refresh fails. */
  freshAccount?: Partial<AccountInfo> | 'fails';
  /** Spending caps (decimal rubles) and what the history already spent (ten-thousandths). */
  caps?: { dailyCapRub?: string; monthlyCapRub?: string };
  spent?: { day: bigint; month: bigint };
  /** A document read in batches: `blocks` is its first batch, these follow (each given when the reader asks; `gate` holds it back until resolved). */
  batches?: Array<TextBatch & { gate?: Promise<void> }>;
  /** Where the listener stopped, by page address (shared between worlds to stand for storage.local). */
  resumePoints?: Map<string, ResumePoint>;
  /** When given, the lookup of the place kept on a page answers only once this resolves (a slow storage). */
  resumeGate?: Promise<void>;
  /** The page's address given with the text. */
  url?: string;
  /** A reading pauses after this long without the service (the reader's default when not given). */
  networkPauseAfterMs?: number;
  /** An article read title first: the code units of its page's text (`ExtractedText.bound`). */
  bound?: number;
  /** A book: the most its text can bill, from its sections' sizes (`ExtractedText.mostChars`). */
  mostChars?: number;
}

export function sentences(n: number, words = 12, prefix = 'Предложение'): string {
  return Array.from({ length: n }, (_, i) => `${prefix} ${i + 1} ${'слово '.repeat(words).trim()}.`).join(' ');
}

export function makeWorld(opts: WorldOptions = {}) {
  const log: LoggedRequest[] = [];
  const usage: UsageEntry[] = [];
  const commands: PlayerCommand[] = [];
  const held: Array<() => void> = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let key: string | null = 'vk_live_test';
  let clock = 1_000_000;
  const timers: Array<{ at: number; resolve: () => void }> = [];
  const framesPerChar = opts.framesPerChar ?? 1;
  const backend = memoryBackend();
  if (opts.brokenCache) backend.write = async () => Promise.reject(new DOMException('full', 'QuotaExceededError'));
  const cache = opts.cache ?? new AudioCache(backend);
  const store = {
    view: opts.saved?.view ?? null,
    plan: opts.saved?.plan ?? null,
    progress: opts.saved?.progress ?? null,
  };
  const account: AccountInfo = {
    name: 't',
    provider: 't',
    balanceRub: '100.0000',
    pricePerMillionRub: opts.price ?? '1500.0000',
    maxConcurrency: opts.maxConcurrency ?? 2,
    checkedAt: 0,
  };
  const slots = new RequestSlots(1);
  // The spending totals, kept in memory (`totals` is what storage.local holds); `totalsFail` makes every write fail.
  const spending = { totals: null as SpendingTotals | null, fail: false };
  const wallet = new SpendingBook(
    {
      load: async () => spending.totals,
      save: async (t) => {
        if (spending.fail) throw new DOMException('full', 'QuotaExceededError');
        spending.totals = t;
      },
      seed: async () => opts.spent ?? { day: 0n, month: 0n },
    },
    () => clock,
    (now) => new Date(now).toISOString().slice(0, 10),
  );

  async function open(body: SpeechBody, signal: AbortSignal): Promise<SpeechStream> {
    if (!key) throw new ReadingError('no-key');
    signal.throwIfAborted();
    const n = log.length;
    const answer = opts.answer?.(body, n) ?? { kind: 'ok' };
    const entry: LoggedRequest = { text: body.text, previousText: body.previous_text ?? '', answer: answer.kind, status: 0, inFlightAtArrival: inFlight, aborted: false };
    log.push(entry);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const done = () => void (inFlight = Math.max(0, inFlight - 1));
    if (answer.kind === 'unreachable') {
      done();
      throw new ServiceError(0, 'network', 'The service could not be reached.');
    }
    if (answer.kind === 'error') {
      done();
      entry.status = answer.status;
      throw new ServiceError(answer.status, answer.code, 'refused', `req-${n}`, answer.retryAfter ?? null);
    }
    if (answer.kind === 'held') {
      await new Promise<void>((resolve, reject) => {
        held.push(resolve);
        signal.addEventListener('abort', () => (done(), (entry.aborted = true), reject(signal.reason)), { once: true });
      });
    }
    entry.status = 200;
    const chars = [...body.text].length;
    const receipt: SpeechReceipt = { requestId: `req-${n}`, charsBilled: chars, cost: BigInt(chars) * 15n / 10n, balance: 990000n, ...(answer.kind === 'ok' ? answer.receipt : {}) };
    const frames = Math.max(2, Math.round(chars * framesPerChar));
    async function* chunks(): AsyncGenerator<Uint8Array, void, void> {
      try {
        if (answer.kind === 'drop') {
          yield mp3(answer.frames);
          throw new ServiceError(0, 'network', 'dropped', `req-${n}`);
        }
        if (answer.kind === 'stall') {
          const bytes = mp3(frames);
          yield bytes.subarray(0, FRAME_BYTES * 4);
          await new Promise<void>((resolve, reject) => {
            if (signal.aborted) return reject(signal.reason);
            held.push(resolve);
            signal.addEventListener('abort', () => ((entry.aborted = true), reject(signal.reason)), { once: true });
          });
          yield bytes.subarray(FRAME_BYTES * 4);
          return;
        }
        const bytes = mp3(frames);
        for (let at = 0; at < bytes.length; at += FRAME_BYTES * 4) {
          if (signal.aborted) {
            entry.aborted = true;
            throw signal.reason;
          }
          yield bytes.subarray(at, at + FRAME_BYTES * 4);
          await Promise.resolve();
        }
      } finally {
        done();
      }
    }
    return { receipt, chunks: chunks() };
  }

  // The player: keeps what it was given per part; in autoplay it "plays" each part the moment it is whole.
  const listeners: Array<(e: PlayerEvent) => void> = [];
  let readingId = opts.newPlayer ? '' : (opts.saved?.view?.id ?? '');
  let loadId = 41; // what an earlier life of the background loaded: unknown to a restored reader
  let partial = new Map<number, number>();
  let complete = new Set<number>();
  let playingPart = 0;
  let base = 0;
  let ended = false;
  const emit = (event: PlayerEvent) => queueMicrotask(() => listeners.forEach((l) => l(event)));
  let playingTime = 0;
  const report = () => {
    let c = playingPart - 1;
    while (complete.has(c + 1)) c++;
    emit({ type: 'progress', readingId, load: loadId, part: playingPart, partTime: playingTime, position: base + playingTime, complete: c, partialBytes: partial.get(c + 1) ?? 0, partialSeconds: ((partial.get(c + 1) ?? 0) / FRAME_BYTES) * FRAME_SECONDS, rate: 1 });
  };
  let eos = false;
  const advance = () => {
    if (!opts.autoplay) return;
    while (complete.has(playingPart)) {
      base += ((partial.get(playingPart) ?? 0) / FRAME_BYTES) * FRAME_SECONDS;
      playingPart++;
      playingTime = 0;
      report();
    }
    if (eos && !ended) {
      ended = true;
      emit({ type: 'ended', readingId, load: loadId, position: base });
    }
  };
  const player: PlayerSink = {
    async post(cmd) {
      commands.push(cmd);
      switch (cmd.type) {
        case 'load':
          readingId = cmd.readingId;
          loadId = cmd.load;
          partial = new Map();
          complete = new Set();
          playingPart = cmd.startPart;
          ended = false;
          eos = false;
          break;
        case 'append':
          if (cmd.readingId !== readingId) return emit({ type: 'lost', readingId: cmd.readingId });
          if (!partial.size && !opts.playingLate) emit({ type: 'playing', readingId, load: loadId });
          partial.set(cmd.part, (partial.get(cmd.part) ?? 0) + cmd.bytes.byteLength);
          break;
        case 'part-end':
          complete.add(cmd.part);
          advance();
          break;
        case 'end-of-stream':
          eos = true;
          advance();
          break;
        case 'resume':
          if (cmd.readingId !== readingId) return emit({ type: 'lost', readingId: cmd.readingId });
          break;
        case 'stop':
          readingId = '';
          break;
      }
    },
  };

  const batches = [...(opts.batches ?? [])];
  let moreAsked = 0;
  const resumePoints = opts.resumePoints ?? new Map<string, ResumePoint>();
  const askedAfter: number[] = [];
  const deps: ReaderDeps = {
    keyProblem: async () => (key === null ? 'no-key' : null),
    getSettings: async (): Promise<Settings> => ({ ...DEFAULT_SETTINGS, confirmThresholdRub: opts.threshold ?? '1000', ...opts.caps }),
    getPlayback: async () => DEFAULT_PLAYBACK,
    savePlayback: async () => undefined,
    getAccount: async () => account,
    refreshAccount: async () => {
      if (opts.freshAccount === 'fails') throw new ReadingError('network');
      return { ...account, ...opts.freshAccount };
    },
    wallet,
    slots,
    open,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal.aborted) return reject(signal.reason);
        if (!opts.manualTime) {
          clock += ms;
          return queueMicrotask(resolve);
        }
        const timer = { at: clock + ms, resolve };
        timers.push(timer);
        signal.addEventListener('abort', () => (timers.splice(timers.indexOf(timer), 1), reject(signal.reason)), { once: true });
      }),
    player,
    cache,
    store: {
      saveView: async (view) => void (store.view = view),
      savePlan: async (plan) => void (store.plan = plan),
      saveProgress: async (progress) => void (store.progress = progress),
      load: async () => ({ ...store }),
    },
    badge: () => undefined,
    recordUsage: (entry) => void usage.push(entry),
    highlight: () => undefined,
    getResume: async (url) => {
      await opts.resumeGate;
      return resumePoints.get(url) ?? null;
    },
    saveResume: async (url, point) => void (point ? resumePoints.set(url, point) : resumePoints.delete(url)),
    moreText: async (_tabId, after) => {
      askedAfter.push(after);
      const next = batches.shift();
      if (!next) throw new Error('No response');
      await next.gate;
      moreAsked++;
      return { blocks: next.blocks, leftOutChars: next.leftOutChars, more: next.more };
    },
    newId: (() => {
      let id = 0;
      return () => `reading-${++id}`;
    })(),
    now: () => clock,
    ...(opts.networkPauseAfterMs === undefined ? {} : { networkPauseAfterMs: () => opts.networkPauseAfterMs! }),
  };
  const reader = new Reader(deps);
  listeners.push((e) => void reader.onPlayerEvent(e));
  const blocks = opts.blocks ?? [{ kind: 'paragraph' as const, text: sentences(40) }];

  return {
    reader,
    deps,
    log,
    usage,
    spending,
    wallet,
    commands,
    cache,
    store,
    slots,
    get maxInFlight() {
      return maxInFlight;
    },
    get inFlight() {
      return inFlight;
    },
    /** Lets every held request answer. */
    release() {
      held.splice(0).forEach((r) => r());
    },
    removeKey() {
      key = null;
    },
    /** The machine slept `ms`: the wall clock (`now`) jumps, while timers, which count only time awake, are no nearer their end. */
    wallJump(ms: number) {
      clock += ms;
      timers.forEach((t) => (t.at += ms));
    },
    /** Moves the clock; sleeps that are due end. */
    tick(ms: number) {
      clock += ms;
      for (const t of timers.filter((t) => t.at <= clock)) {
        timers.splice(timers.indexOf(t), 1);
        t.resolve();
      }
    },
    /** The player tells the word being said: word `word` of part `part` (issue 48). */
    word(part: number, word: number) {
      emit({ type: 'word', readingId, load: loadId, part, word });
    },
    /** The player ran out of audio (its `waiting`). */
    ranDry() {
      emit({ type: 'waiting', readingId });
    },
    /** The player stopped where part `part` begins, as its `stop-before` asked. */
    stoppedBefore(part: number) {
      emit({ type: 'stopped-before', readingId, load: loadId, part });
    },
    /** The player says its audio plays (with `playingLate`). */
    playing() {
      emit({ type: 'playing', readingId, load: loadId });
    },
    /** A report of the player's current load, sent now (before it hears of a load being prepared). */
    reportNow(part: number) {
      emit({ type: 'progress', readingId, load: loadId, part, partTime: 1, position: base + 1, complete: part, partialBytes: 0, partialSeconds: 0, rate: 1 });
    },
    /** A report the player sent just before its last load, arriving late. */
    staleReport(part: number) {
      emit({ type: 'progress', readingId, load: loadId - 1, part, partTime: 1, position: base + 1, complete: part, partialBytes: 0, partialSeconds: 0, rate: 1 });
    },
    /** The player reports it is at `part`, `partTime` seconds into it, holding whole every part up to `wholeTo`. */
    at(part: number, wholeTo = part - 1, partTime = 0) {
      playingPart = part;
      playingTime = partTime;
      for (let k = 0; k <= wholeTo; k++) complete.add(k);
      report();
    },
    get moreAsked() {
      return moreAsked;
    },
    /** How many blocks the reader said it had at each request for more. */
    askedAfter,
    resumePoints,
    start(source: 'article' | 'selection' = 'article') {
      const more = batches.length > 0;
      return reader.start({ tabId: 1, source, extract: async () => ({ title: 'T', source, blocks, ...(opts.url ? { url: opts.url } : {}), ...(more ? { more } : {}), ...(opts.bound === undefined ? {} : { bound: opts.bound }), ...(opts.mostChars === undefined ? {} : { mostChars: opts.mostChars }) }) });
    },
    /** Resolves when `check` holds (polls the event loop, never the clock). */
    async until(check: () => boolean, what = 'condition'): Promise<void> {
      for (let i = 0; i < 5_000; i++) {
        if (check()) return;
        await new Promise((r) => setTimeout(r, 0));
      }
      throw new Error(`never reached: ${what} (state ${reader.view.state}, ${log.length} requests)`);
    },
    /** Save as MP3 as the popup does it: the estimate shown, then confirmed as it was shown. */
    async saveAll() {
      const e = await reader.saveEstimate();
      return reader.fetchMissing({ readingId: e.readingId, upTo: e.upTo, maxRub: e.missingRub });
    },
    okTexts: () => log.filter((e) => e.status === 200).map((e) => e.text),
  };
}
