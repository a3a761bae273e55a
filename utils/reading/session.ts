import pLimit from 'p-limit';
import { makeAcceptable } from '../text/accepted';
import { type AudioCache, concatBytes, partKey } from '../audio/cache';
import type { ExtractedText } from '../text/extract';
import { costOf, formatRubPlain, parseRub, type RubUnits } from '../speech/money';
import { mp3Duration } from '../audio/mp3-frames';
import type { PlayerSink } from '../audio/offscreen-sink';
import type { PlayerEvent } from '../messaging/player';
import { IDLE_VIEW, isActive, type ReadingView } from './state';
import { actionFor, humanMessage, isKnownErrorCode, MAX_RETRIES, retryDelayMs } from '../speech/errors';
import { type AccountInfo, clampPlayback, type Playback, type Settings } from '../storage/settings';
import { type Auth, ServiceError, type SpeechBody, type SpeechStream } from '../speech/client';
import { countChars, type Part, splitIntoParts } from '../text/parts';
import type { UsageEntry } from '../storage/usage-history';

/** A failure before any request: shown with a local code. */
export class ReadingError extends Error {
  constructor(readonly code: string) {
    super(code);
    this.name = 'ReadingError';
  }
}

/** What a restarted service worker needs to carry on: saved next to the view. */
export interface ReadingPlan {
  id: string;
  parts: Part[];
  voice: string;
  format: Settings['format'];
  priceRub: string;
  /** The account's limit of requests in flight (at most two are ever used). */
  maxConcurrency?: number;
}

/**
 * The next part's request, started while the current part still streams: its
 * bytes wait here until the pump reaches it, then flow on as they arrive.
 */
class EarlyFetch {
  readonly chunks: Uint8Array[] = [];
  private done = false;
  private error: unknown = null;
  private wake: (() => void) | null = null;

  push(chunk: Uint8Array): void {
    this.chunks.push(chunk);
    this.wake?.();
  }

  finish(error: unknown = null): void {
    this.done = true;
    this.error = error;
    this.wake?.();
  }

  async *stream(): AsyncGenerator<Uint8Array, void, void> {
    for (let i = 0; ; ) {
      while (i < this.chunks.length) yield this.chunks[i++]!;
      if (this.done) {
        if (this.error) throw this.error;
        return;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
  }
}

export interface ReaderDeps {
  getAuth(): Promise<Auth | null>;
  getSettings(): Promise<Settings>;
  getPlayback(): Promise<Playback>;
  savePlayback(playback: Playback): Promise<void>;
  /** The last known account (price, balance), refreshed by `refreshAccount`. */
  getAccount(): Promise<AccountInfo | null>;
  refreshAccount(auth: Auth): Promise<AccountInfo>;
  openStream(auth: Auth, body: SpeechBody, signal: AbortSignal): Promise<SpeechStream>;
  player: PlayerSink;
  cache: AudioCache;
  saveView(view: ReadingView): Promise<void>;
  savePlan(plan: ReadingPlan | null): Promise<void>;
  loadSaved(): Promise<{ view: ReadingView | null; plan: ReadingPlan | null }>;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** Shows on the toolbar icon that the last reading ended in an error (null: clear). */
  badge(code: string | null): void;
  /** Adds a paid request to the usage history. */
  recordUsage(entry: UsageEntry): void;
  /** Marks the sentence being read on the page (null: clear). Best effort. */
  highlight(tabId: number, sentence: string | null): void;
  locale(): 'ru' | 'en';
  newId(): string;
}

export interface ReadingRequest {
  tabId: number | null;
  source: ReadingView['source'];
  extract(): Promise<ExtractedText>;
}

/** How far ahead of the part being played audio is fetched: the next part, no more. */
const LOOKAHEAD = 1;
/** Speech runs at about this many characters a second until this reading has measured its own. */
const DEFAULT_CHARS_PER_SECOND = 14;
/** A cut stream resumes a little early rather than skip words: the estimate is scaled down. */
const CUT_SAFETY = 0.85;

/** What one pump is for: its reading, its own lifetime, and the reading's (for downloads). */
interface PumpContext {
  id: string;
  signal: AbortSignal;
  reading: AbortSignal;
  /** False when fetching only into the cache (saving as MP3): nothing goes to the player. */
  deliver: boolean;
}

/** What saving the reading as MP3 would still cost: the parts not received yet. */
export interface SaveEstimate {
  parts: number;
  missing: number;
  missingChars: number;
  missingRub: string;
}

/** Where the player stands in a part it holds only partly. */
interface PartialHold {
  bytes: number;
  seconds: number;
}

/**
 * The reading in progress: its parts, where playback is, what it has cost.
 * Lives in the background and is saved on every change, so a restarted service
 * worker carries on; the player only plays and reports.
 */
export class Reader {
  view: ReadingView = IDLE_VIEW;
  private plan: ReadingPlan | null = null;
  private auth: Auth | null = null;
  private price: RubUnits = 0n;
  private cost: RubUnits = 0n;
  /** Lives as long as the reading: downloads go on under it (a jump does not waste a paid part). */
  private reading: AbortController | null = null;
  /** Lives as long as one pump (from a load of the player to the next jump or reload). */
  private abort: AbortController | null = null;
  /** Downloads in flight by part key: a second request for the same audio waits for the first. */
  private downloads = new Map<string, Promise<void>>();
  /** Next parts requested early, by part key. */
  private early = new Map<string, EarlyFetch>();
  private maxConcurrency = 1;
  /** Parts the service refused (skipped); the lookahead passes over them. */
  private skipped = new Set<number>();
  /** After a stopping error (402 …) nothing at or past this part is requested again. */
  private stopAt = Infinity;
  private wake: Array<() => void> = [];
  private confirmGate: (() => void) | null = null;
  /** A stop-type error met while fetching: shown once what was received has played. */
  private pendingError: ReadingView['error'] = null;
  private pumping = false;
  private pumpDone = false;
  private appended = false;
  private reloading = false;
  /** Measured speech rate of this reading (whole parts only). */
  private spokenChars = 0;
  private spokenSeconds = 0;
  /** Seconds of audio of each part fetched whole (for following the sentence being read). */
  private partSeconds = new Map<number, number>();
  private highlighted = '';
  /** Speed and volume changes, applied one after another in the order made. */
  private readonly playbackChanges = pLimit(1);
  readonly ready: Promise<void>;

  constructor(private readonly deps: ReaderDeps) {
    this.ready = this.restore().catch(() => undefined);
  }

  get active(): boolean {
    return isActive(this.view.state);
  }

  private get parts(): Part[] {
    return this.plan?.parts ?? [];
  }

  async start(req: ReadingRequest): Promise<void> {
    await this.ready;
    // A new reading stops the old one: its downloads, and its audio.
    const old = this.active ? this.view.id : '';
    await this.halt(true);
    if (old) await this.deps.player.post({ type: 'stop', readingId: old }).catch(() => undefined);
    if (this.highlighted && this.view.tabId !== null) this.deps.highlight(this.view.tabId, null);
    const reading = new AbortController();
    const abort = new AbortController();
    this.reading = reading;
    this.abort = abort;
    this.plan = null;
    this.cost = 0n;
    this.pendingError = null;
    this.skipped.clear();
    this.early.clear();
    this.stopAt = Infinity;
    this.spokenChars = 0;
    this.spokenSeconds = 0;
    this.partSeconds.clear();
    this.highlighted = '';
    await this.deps.savePlan(null);
    await this.update({
      ...IDLE_VIEW,
      id: this.deps.newId(),
      state: 'extracting',
      tabId: req.tabId,
      source: req.source,
      costRub: formatRubPlain(0n),
    });
    const id = this.view.id;
    // Extraction runs while the key, settings and account are read: it is the longest step before the request.
    const extraction = req.extract().then(
      (text) => ({ text }),
      (error: unknown) => ({ error }),
    );
    try {
      const [auth, settings, cached] = await Promise.all([this.deps.getAuth(), this.deps.getSettings(), this.deps.getAccount()]);
      if (!auth) throw new ReadingError('no-key');
      this.auth = auth;
      abort.signal.throwIfAborted();
      const accountP = this.deps.refreshAccount(auth).then(
        (account) => ({ account }),
        (error: unknown) => ({ error }),
      );
      const extractedOr = await extraction;
      if ('error' in extractedOr) throw extractedOr.error;
      const extracted = extractedOr.text;
      let account = cached;
      if (!account) {
        const fresh = await accountP;
        if ('error' in fresh) throw fresh.error;
        account = fresh.account;
      }
      abort.signal.throwIfAborted();
      this.price = parseRub(account.pricePerMillionRub) ?? 0n;

      const accepted = extracted.blocks
        .map((b) => ({ kind: b.kind, ...makeAcceptable(b.text) }))
        .filter((b) => b.text.trim() !== '');
      const skippedWords = accepted.reduce((n, b) => n + b.skippedWords, 0);
      const parts = accepted.length ? splitIntoParts(accepted.map(({ kind, text }) => ({ kind, text }))) : [];
      if (parts.length === 0) throw new ReadingError('no-text');
      this.plan = {
        id,
        parts,
        voice: settings.voice.trim(),
        format: settings.format,
        priceRub: account.pricePerMillionRub,
        maxConcurrency: account.maxConcurrency,
      };
      this.maxConcurrency = account.maxConcurrency;
      await this.deps.savePlan(this.plan);
      abort.signal.throwIfAborted();
      const estimateChars = parts.reduce((n, p) => n + p.chars, 0);
      const estimate = costOf(estimateChars, this.price);
      const balance = parseRub(account.balanceRub);
      const threshold = parseRub(settings.confirmThresholdRub) ?? 0n;
      await this.update({
        title: extracted.title,
        source: req.source || extracted.source,
        parts: parts.length,
        estimateChars,
        estimateRub: formatRubPlain(estimate),
        estimateAboveBalance: balance !== null && estimate > balance,
        balanceRub: account.balanceRub,
        notice: skippedWords > 0 ? { code: 'skipped-words', count: skippedWords } : { code: '', count: 0 },
      });
      // A fresh balance, when the refresh answers in time, replaces the cached one.
      void accountP.then((fresh) => {
        if (this.view.id === id && 'account' in fresh && this.view.chars === 0) {
          void this.update({ balanceRub: fresh.account.balanceRub });
        }
      });

      abort.signal.throwIfAborted();
      if (estimate > threshold) {
        await this.update({ state: 'confirm' });
        await this.waitForConfirm(abort.signal);
      }
      abort.signal.throwIfAborted();
      await this.update({ state: 'loading' });
      await this.playFrom(0, 0);
    } catch (err) {
      if (abort.signal.aborted || this.view.id !== id) return;
      await this.fail(err);
    }
  }

  /** The popup's start: after a worker restart the saved reading is restored first, so an active one is kept. */
  async startUnlessActive(req: ReadingRequest): Promise<void> {
    await this.ready;
    if (this.active) return;
    await this.start(req);
  }

  private waitForConfirm(signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      this.confirmGate = resolve;
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    }).finally(() => {
      this.confirmGate = null;
    });
  }

  async confirm(): Promise<void> {
    await this.ready;
    this.confirmGate?.();
  }

  async stop(): Promise<void> {
    await this.ready;
    if (!this.active) return;
    await this.halt(true);
    await this.deps.player.post({ type: 'stop', readingId: this.view.id }).catch(() => undefined);
    await this.update({ state: 'stopped' });
  }

  async pause(): Promise<void> {
    await this.ready;
    if (this.view.state !== 'playing' && this.view.state !== 'loading') return;
    await this.update({ state: 'paused' });
    await this.deps.player.post({ type: 'pause', readingId: this.view.id });
  }

  async resume(): Promise<void> {
    await this.ready;
    if (this.view.state !== 'paused') return;
    await this.update({ state: 'playing' });
    // A player that lost the reading (Chrome closed a silent offscreen document) answers `lost`.
    await this.deps.player.post({ type: 'resume', readingId: this.view.id });
  }

  async toggle(): Promise<void> {
    await this.ready;
    if (this.view.state === 'paused') await this.resume();
    else await this.pause();
  }

  /** Moves by `delta` parts (previous/next). */
  async jump(delta: number): Promise<void> {
    await this.ready;
    await this.jumpTo(this.view.part + delta);
  }

  /** Jumps to part `k`; audio already received comes from the cache, unpaid again. */
  async jumpTo(k: number): Promise<void> {
    await this.ready;
    if (!['playing', 'paused', 'loading'].includes(this.view.state) || this.parts.length === 0) return;
    const target = Math.min(Math.max(Math.trunc(k), 0), this.parts.length - 1, this.stopAt - 1);
    if (target < 0) return;
    await this.halt(false);
    this.abort = new AbortController();
    await this.update({ state: 'loading', part: target, partTime: 0 });
    await this.playFrom(target, 0);
  }

  /** Parts of this reading whose audio is not in the cache yet, and what fetching them would cost. */
  async saveEstimate(): Promise<SaveEstimate> {
    await this.ready;
    const missing = await this.missingParts();
    const missingChars = missing.reduce((n, k) => n + this.parts[k]!.chars, 0);
    return {
      parts: this.parts.length,
      missing: missing.length,
      missingChars,
      missingRub: formatRubPlain(costOf(missingChars, this.price)),
    };
  }

  /**
   * Fetches the parts not received yet into the cache, without playing them
   * (the popup then builds the MP3 from the cache). Only after the user has
   * confirmed the estimate. Stops at the first error that stops a reading.
   */
  async fetchMissing(): Promise<{ ok: true } | { ok: false; code: string; message: string }> {
    await this.ready;
    // After the reading ended, a lifetime of its own (the next reading cancels it).
    this.reading ??= new AbortController();
    const reading = this.reading;
    if (!this.plan || !this.auth) return { ok: false, code: 'no-text', message: humanMessage('no-text', this.deps.locale()) };
    const ctx: PumpContext = { id: this.view.id, signal: reading.signal, reading: reading.signal, deliver: false };
    for (const k of await this.missingParts()) {
      const part = this.parts[k]!;
      const key = partKey({ text: part.text, voice: this.plan.voice, format: this.plan.format });
      await this.downloads.get(key);
      if (await this.deps.cache.has(key)) continue;
      try {
        await this.download(ctx, k, part, 0, key, []);
      } catch (err) {
        if (err instanceof ServiceError && actionFor(err.status, err.code) === 'skip') continue;
        const code = err instanceof ServiceError ? err.code : 'network';
        return { ok: false, code, message: humanMessage(code, this.deps.locale()) };
      }
    }
    return { ok: true };
  }

  private async missingParts(): Promise<number[]> {
    const plan = this.plan;
    if (!plan) return [];
    const missing: number[] = [];
    for (const [k, part] of plan.parts.entries()) {
      if (this.skipped.has(k) || k >= this.stopAt) continue;
      if (!(await this.deps.cache.has(partKey({ text: part.text, voice: plan.voice, format: plan.format })))) missing.push(k);
    }
    return missing;
  }

  /** Speed and volume: applied by the player to what it already holds, remembered for later readings. */
  async setPlayback(patch: Partial<Playback>): Promise<Playback> {
    await this.ready;
    // Read, merge, write: one change at a time, or a quick speed-then-volume would lose the speed.
    return this.playbackChanges(async () => {
      const playback = clampPlayback({ ...(await this.deps.getPlayback()), ...patch });
      await this.deps.savePlayback(playback);
      if (this.active) await this.deps.player.post({ type: 'playback', readingId: this.view.id, ...playback }).catch(() => undefined);
      return playback;
    });
  }

  async onPlayerEvent(event: PlayerEvent): Promise<void> {
    await this.ready;
    if (event.readingId !== this.view.id || !this.active) return;
    switch (event.type) {
      case 'playing':
        this.reloading = false;
        if (this.view.state === 'loading') await this.update({ state: 'playing' });
        break;
      case 'progress': {
        this.reloading = false;
        const moved =
          event.part !== this.view.part || Math.abs(event.position - this.view.position) >= 0.2 || event.rate !== this.view.rate;
        if (moved) {
          await this.update({ part: event.part, position: round2(event.position), partTime: round2(event.partTime), rate: event.rate });
        }
        this.follow(event.part, event.partTime);
        // A restarted worker learns from the player what it holds and carries on from there.
        if (!this.pumping && !this.pumpDone && this.abort) {
          const hold = event.partialBytes > 0 ? { bytes: event.partialBytes, seconds: event.partialSeconds } : null;
          void this.pump(event.complete + 1, hold);
        }
        this.wakeUp();
        break;
      }
      case 'lost':
        // Only a reading that should be sounding is reloaded; a paused one reloads when resumed.
        if (this.reloading || (this.view.state !== 'playing' && this.view.state !== 'loading')) break;
        await this.reload();
        break;
      case 'ended':
        await this.update({ position: round2(Math.max(event.position, this.view.position)) });
        if (!this.pumpDone) break; // an underrun; more audio is on the way
        if (this.pendingError) await this.update({ state: 'error', error: this.pendingError });
        else await this.update({ state: 'finished', part: Math.max(this.parts.length - 1, 0) });
        await this.halt(true);
        break;
      case 'error':
        await this.halt(true);
        await this.update({ state: 'error', error: this.errorView('bad-audio', event.message) });
        break;
      case 'paused':
      case 'waiting':
        break;
    }
  }

  /** Loads the player again at the same second, from the cache: nothing is requested twice. */
  private async reload(): Promise<void> {
    this.reloading = true;
    await this.halt(false);
    this.abort = new AbortController();
    await this.update({ state: 'loading' });
    await this.playFrom(this.view.part, this.view.partTime);
  }

  /** Picks up a reading saved by an earlier life of the service worker. */
  private async restore(): Promise<void> {
    const { view, plan } = await this.deps.loadSaved();
    if (!view) return;
    this.view = view;
    if (!isActive(view.state)) return;
    if (!plan || plan.id !== view.id || view.state === 'extracting') {
      // The text was still being extracted: there is nothing to carry on with.
      await this.update({ state: 'stopped' });
      return;
    }
    this.plan = plan;
    this.maxConcurrency = plan.maxConcurrency ?? 1;
    this.price = parseRub(plan.priceRub) ?? 0n;
    this.cost = parseRub(view.costRub) ?? 0n;
    this.auth = await this.deps.getAuth();
    if (!this.auth) {
      await this.fail(new ReadingError('no-key'));
      return;
    }
    const abort = new AbortController();
    this.reading = new AbortController();
    this.abort = abort;
    if (view.state === 'confirm') {
      void this.waitForConfirm(abort.signal).then(
        async () => {
          await this.update({ state: 'loading' });
          await this.playFrom(0, 0);
        },
        () => undefined,
      );
    } else if (view.state !== 'paused') {
      // Playing: the player's next progress report says what it holds; if it lost the reading it says so.
      await this.deps.player.post({ type: 'resume', readingId: view.id }).catch(() => undefined);
    }
  }

  private async playFrom(startPart: number, seekInPart: number): Promise<void> {
    const abort = this.abort;
    if (!abort) return;
    // Set before the first await: a late progress report must not start a second pump.
    this.pumping = true;
    this.appended = false;
    this.pumpDone = false;
    const { rate, volume } = await this.deps.getPlayback();
    await this.deps.player.post({
      type: 'load',
      readingId: this.view.id,
      startPart,
      seekInPart,
      positionBase: this.view.position,
      rate,
      volume,
    });
    if (this.view.state === 'paused') await this.deps.player.post({ type: 'pause', readingId: this.view.id });
    if (abort.signal.aborted) return;
    void this.pump(startPart, null);
  }

  /**
   * Feeds the player part after part, one part ahead of what it plays (parts the
   * service refused do not count). Everything it does is tied to the reading and
   * the pump it was started for: a later jump, stop or new reading silences it.
   */
  private async pump(from: number, hold: PartialHold | null): Promise<void> {
    const abort = this.abort;
    const reading = this.reading;
    if (!abort || !reading) return;
    const ctx: PumpContext = { id: this.view.id, signal: abort.signal, reading: reading.signal, deliver: true };
    this.pumping = true;
    try {
      for (let k = from; k < Math.min(this.parts.length, this.stopAt); k++) {
        await this.until(() => this.withinLookahead(k), ctx.signal);
        const outcome = await this.fetchPart(k, ctx, k === from ? hold : null);
        ctx.signal.throwIfAborted();
        if (outcome === 'stop') break;
      }
      ctx.signal.throwIfAborted();
      this.pumpDone = true;
      await this.deps.player.post({ type: 'end-of-stream', readingId: ctx.id });
    } catch (err) {
      if (ctx.signal.aborted || this.view.id !== ctx.id) return;
      await this.halt(true);
      await this.deps.player.post({ type: 'stop', readingId: ctx.id }).catch(() => undefined);
      await this.fail(err);
    } finally {
      if (this.abort?.signal === ctx.signal) this.pumping = false;
    }
  }

  /** Part k may be fetched when every part between the one playing and k was refused. */
  private withinLookahead(k: number): boolean {
    let ahead = 0;
    for (let j = this.view.part + 1; j < k; j++) if (!this.skipped.has(j)) ahead++;
    return k <= this.view.part || ahead < LOOKAHEAD;
  }

  private body(part: Part, from: number): SpeechBody {
    const plan = this.plan!;
    const text = part.text.slice(from);
    const previous = from > 0 ? tail(`${part.previousText} ${part.text.slice(0, from)}`, 300) : part.previousText;
    const body: SpeechBody = { text, stream: true, format: plan.format };
    if (plan.voice) body.voice = plan.voice;
    if (previous) body.previous_text = previous;
    if (part.nextText) body.next_text = part.nextText;
    return body;
  }

  /**
   * Sends part k's audio to the player: from the cache when it was paid for
   * before, else streamed from the service. `hold` is what the player already
   * has of it (after a worker restart).
   */
  private async fetchPart(k: number, ctx: PumpContext, hold: PartialHold | null): Promise<'ok' | 'skipped' | 'stop'> {
    const plan = this.plan!;
    // Where the text resumes after a cut stream (code units into the part's text).
    let from = 0;
    let retries = 0;
    for (;;) {
      // Read on every attempt: `text_too_long` replaces the part with two smaller ones.
      const part = this.parts[k]!;
      const key = partKey({ text: part.text, voice: plan.voice, format: plan.format });
      if (from === 0) {
        // The same audio already on its way (a jump during a download): wait for it, never pay twice.
        await this.downloads.get(key);
        ctx.signal.throwIfAborted();
        const cached = await this.deps.cache.get(key);
        ctx.signal.throwIfAborted();
        if (cached) {
          this.partSeconds.set(k, mp3Duration(cached));
          await this.append(ctx, k, cached.subarray(hold?.bytes ?? 0));
          await this.partEnd(ctx, k);
          return 'ok';
        }
        if (hold) from = this.cutOffset(part, 0, hold.seconds);
      }
      const chunks: Uint8Array[] = [];
      try {
        const whole = from === 0 && !hold;
        await this.download(ctx, k, part, from, whole ? key : null, chunks);
        await this.partEnd(ctx, k);
        return 'ok';
      } catch (err) {
        ctx.signal.throwIfAborted();
        if (!(err instanceof ServiceError)) throw err;
        const received = chunks.length > 0;
        if (err.status === 0 && received && retries < MAX_RETRIES) {
          // Dropped or stalled mid-body: what arrived is played; only the rest, from the sentence that was cut, is asked for again.
          retries++;
          from = this.cutOffset(part, from, mp3Duration(concatBytes(chunks)));
          hold = null;
          continue;
        }
        const action = err.status === 0 ? (received ? 'stop' : 'retry') : actionFor(err.status, err.code);
        // The service says too many are in flight: one at a time from now on.
        if (err.status === 429) this.maxConcurrency = 1;
        if (action === 'retry' && retries < MAX_RETRIES) {
          await this.deps.sleep(retryDelayMs(retries, err.retryAfter), ctx.signal);
          retries++;
          continue;
        }
        if (action === 'skip') {
          this.skipped.add(k);
          const count = this.view.notice.code === 'content-rejected' ? this.view.notice.count + 1 : 1;
          await this.update({ notice: { code: 'content-rejected', count } });
          // The player counts the part as done (it holds nothing of it), so it never waits for it.
          await this.partEnd(ctx, k);
          this.wakeUp();
          return 'skipped';
        }
        if (action === 'split' && from === 0 && countChars(part.text) > 1) {
          await this.splitPart(k);
          continue;
        }
        this.pendingError = this.errorView(err.code, err.message, err.requestId);
        this.stopAt = k;
        if (!this.appended) throw err;
        return 'stop';
      }
    }
  }

  /**
   * One request: its bytes go to the player while this pump lives, and on to
   * the end (into the cache) while the reading lives, so a paid part is never
   * thrown away by a jump. `key` is set when the part is requested whole.
   */
  private async download(ctx: PumpContext, k: number, part: Part, from: number, key: string | null, chunks: Uint8Array[]) {
    let done!: () => void;
    const early = key ? this.early.get(key) : undefined;
    if (key) {
      this.early.delete(key);
      this.downloads.set(key, new Promise<void>((resolve) => (done = resolve)));
    }
    try {
      // The next part may be asked for at once (within the lookahead and the account's limit): gapless at the seam
      // even when this part is shorter than the service's first-byte delay.
      if (key) this.requestEarly(ctx, k + 1);
      let source: AsyncIterable<Uint8Array>;
      if (early) {
        source = early.stream();
      } else {
        const body = this.body(part, from);
        const stream = await this.deps.openStream(this.auth!, body, ctx.reading);
        await this.account(ctx, stream, countChars(body.text));
        source = stream.chunks;
      }
      // A request for the rest of a cut part: its first bytes start a new stream inside the part.
      let resumed = from > 0;
      for await (const chunk of source) {
        chunks.push(chunk);
        if (!ctx.signal.aborted) await this.append(ctx, k, chunk, resumed);
        resumed &&= chunk.byteLength === 0;
      }
      if (key && !early) {
        const bytes = concatBytes(chunks);
        await this.deps.cache.set(key, bytes);
        this.recordSpeech(k, part, bytes);
      }
      ctx.signal.throwIfAborted();
    } finally {
      if (key) {
        this.downloads.delete(key);
        done();
      }
    }
  }

  /** Measures this reading's speech rate on a whole part (for cut estimates and the highlight). */
  private recordSpeech(k: number, part: Part, bytes: Uint8Array): void {
    const seconds = mp3Duration(bytes);
    this.partSeconds.set(k, seconds);
    this.spokenChars += part.chars;
    this.spokenSeconds += seconds;
  }

  /**
   * Starts part k's request while the part before it still streams, when the
   * account allows two in flight and k is the next part to play: a short part
   * followed by a slow first byte would otherwise leave a gap. Its audio is
   * cached when complete, so a jump never wastes it.
   */
  private requestEarly(ctx: PumpContext, k: number): void {
    if (this.maxConcurrency < 2 || k >= Math.min(this.parts.length, this.stopAt) || this.skipped.has(k)) return;
    // Never further ahead than the pump itself would go: a stop still wastes at most one part.
    if (!this.withinLookahead(k)) return;
    const plan = this.plan!;
    const part = this.parts[k]!;
    const key = partKey({ text: part.text, voice: plan.voice, format: plan.format });
    void (async () => {
      if (await this.deps.cache.has(key)) return;
      if (this.early.has(key) || this.downloads.has(key) || ctx.reading.aborted) return;
      const early = new EarlyFetch();
      this.early.set(key, early);
      try {
        const stream = await this.deps.openStream(this.auth!, this.body(part, 0), ctx.reading);
        await this.account(ctx, stream, part.chars);
        for await (const chunk of stream.chunks) early.push(chunk);
        const bytes = concatBytes(early.chunks);
        await this.deps.cache.set(key, bytes);
        this.recordSpeech(k, part, bytes);
        early.finish();
      } catch (err) {
        early.finish(err);
      }
    })();
  }

  /** Highlights the sentence being spoken, placed by its share of the part's characters in the part's time. */
  private follow(k: number, partTime: number): void {
    const part = this.parts[k];
    if (!part?.sentences.length || this.view.tabId === null) return;
    const seconds = this.partSeconds.get(k) ?? part.chars / this.speechRate();
    const at = seconds > 0 ? (partTime / seconds) * part.text.length : 0;
    let current = part.sentences[0]!;
    for (const s of part.sentences) if (s.start <= at) current = s;
    const sentence = part.text.slice(current.start, current.end);
    if (sentence === this.highlighted) return;
    this.highlighted = sentence;
    this.deps.highlight(this.view.tabId, sentence);
  }

  private speechRate(): number {
    return this.spokenSeconds > 0.3 ? this.spokenChars / this.spokenSeconds : DEFAULT_CHARS_PER_SECOND;
  }

  /**
   * Where to resume part text after `seconds` of its audio (counted from `from`)
   * were received: the start of the sentence being spoken then, estimated from
   * this reading's measured speech rate, a little early rather than late.
   */
  private cutOffset(part: Part, from: number, seconds: number): number {
    const chars = Math.floor(seconds * this.speechRate() * CUT_SAFETY);
    const points = [...part.text.slice(from)];
    const at = from + points.slice(0, chars).join('').length;
    const starts = part.sentences.map((s) => s.start).filter((s) => s >= from && s <= at);
    return starts.length ? Math.max(...starts) : from;
  }

  /** `text_too_long` should never happen; if it does, the part is halved at a space and retried. */
  private async splitPart(k: number): Promise<void> {
    const part = this.parts[k]!;
    const mid = part.text.lastIndexOf(' ', Math.floor(part.text.length / 2));
    const cut = mid > 0 ? mid : Math.floor(part.text.length / 2);
    const a = part.text.slice(0, cut).trimEnd();
    const bStart = cut + (part.text.slice(cut).length - part.text.slice(cut).trimStart().length);
    const b = part.text.slice(bStart);
    const half = (text: string, offset: number, previousText: string, nextText: string): Part => ({
      ...part,
      text,
      previousText,
      nextText,
      chars: countChars(text),
      sentences: part.sentences
        .map((s) => ({ ...s, start: Math.max(s.start - offset, 0), end: Math.min(s.end - offset, text.length) }))
        .filter((s) => s.end > 0 && s.start < text.length),
    });
    this.parts.splice(k, 1, half(a, 0, part.previousText, b), half(b, bStart, a, part.nextText));
    this.parts.forEach((p, i) => (p.index = i));
    await this.deps.savePlan(this.plan);
    await this.update({ parts: this.parts.length });
  }

  private async account(ctx: PumpContext, stream: SpeechStream, sentChars: number): Promise<void> {
    // A request answered after its reading was replaced belongs to no reading on screen.
    if (this.view.id !== ctx.id) return;
    const r = stream.receipt;
    const chars = r.charsBilled ?? sentChars;
    // A missing or unreadable cost header is replaced by what the price says it costs.
    const cost = r.cost ?? costOf(chars, this.price);
    this.cost += cost;
    this.deps.recordUsage({ time: Date.now(), title: this.view.title, chars, costRub: formatRubPlain(cost), requestId: r.requestId });
    await this.update({
      costRub: formatRubPlain(this.cost),
      chars: this.view.chars + chars,
      balanceRub: r.balance !== null ? formatRubPlain(r.balance) : this.view.balanceRub,
    });
  }

  private async append(ctx: PumpContext, part: number, chunk: Uint8Array, resumed = false): Promise<void> {
    if (chunk.byteLength === 0 || ctx.signal.aborted || !ctx.deliver) return;
    // A copy is transferred; the original stays for the cache.
    const bytes = chunk.slice().buffer;
    this.appended = true;
    await this.deps.player.post({ type: 'append', readingId: ctx.id, part, bytes, ...(resumed ? { resumed } : {}) });
  }

  private async partEnd(ctx: PumpContext, part: number): Promise<void> {
    if (ctx.signal.aborted || !ctx.deliver) return;
    await this.deps.player.post({ type: 'part-end', readingId: ctx.id, part });
  }

  private until(ready: () => boolean, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (signal.aborted) reject(signal.reason);
        else if (ready()) resolve();
        else this.wake.push(check);
      };
      check();
    });
  }

  private wakeUp(): void {
    const waiting = this.wake;
    this.wake = [];
    waiting.forEach((w) => w());
  }

  /** Stops the pump; `all` also cancels the reading's downloads (stop, error, a new reading). */
  private async halt(all: boolean): Promise<void> {
    this.abort?.abort();
    this.abort = null;
    if (all) {
      this.reading?.abort();
      this.reading = null;
    }
    this.pumping = false;
    this.wakeUp();
  }

  private errorView(code: string, message?: string, requestId = ''): NonNullable<ReadingView['error']> {
    const known = isKnownErrorCode(code) || !message;
    return { code, message: known ? humanMessage(code, this.deps.locale()) : message, requestId };
  }

  private async fail(err: unknown): Promise<void> {
    let error: NonNullable<ReadingView['error']>;
    if (err instanceof ReadingError) error = this.errorView(err.code);
    else if (err instanceof ServiceError) error = this.errorView(err.code, err.message, err.requestId);
    else error = this.errorView('network');
    await this.halt(true);
    await this.update({ state: 'error', error });
  }

  private async update(patch: Partial<ReadingView>): Promise<void> {
    const wasActive = isActive(this.view.state);
    this.view = { ...this.view, ...patch, updatedAt: Date.now() };
    if (patch.state === 'extracting') this.deps.badge(null);
    if (wasActive && patch.state === 'error') this.deps.badge(this.view.error?.code ?? 'error');
    if (wasActive && !isActive(this.view.state) && this.view.tabId !== null && this.highlighted) {
      this.highlighted = '';
      this.deps.highlight(this.view.tabId, null);
    }
    await this.deps.saveView(this.view);
  }
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The last `max` code points of `s`, starting at a word. */
function tail(s: string, max: number): string {
  const points = [...s.trim()];
  if (points.length <= max) return s.trim();
  const cut = points.slice(-max).join('');
  const space = cut.indexOf(' ');
  return space >= 0 ? cut.slice(space + 1) : cut;
}
