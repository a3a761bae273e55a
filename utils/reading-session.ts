import { makeAcceptable } from './accepted-text';
import { type AudioCache, concatBytes, partKey } from './audio-cache';
import type { ExtractedText } from './extract-page';
import { costOf, formatRubPlain, parseRub, type RubUnits } from './money';
import { mp3Duration } from './mp3-duration';
import type { PlayerSink } from './offscreen-player';
import type { PlayerEvent } from './player-protocol';
import { IDLE_VIEW, isActive, type ReadingView } from './reading-state';
import { actionFor, humanMessage, isKnownErrorCode, MAX_RETRIES, retryDelayMs } from './service-errors';
import type { AccountInfo, Settings } from './settings';
import { type Auth, ServiceError, type SpeechBody, type SpeechStream } from './speech-client';
import { countChars, type Part, splitIntoParts } from './text-parts';

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
}

export interface ReaderDeps {
  getAuth(): Promise<Auth | null>;
  getSettings(): Promise<Settings>;
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
  private abort: AbortController | null = null;
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
    await this.halt();
    const abort = new AbortController();
    this.abort = abort;
    this.plan = null;
    this.cost = 0n;
    this.pendingError = null;
    this.spokenChars = 0;
    this.spokenSeconds = 0;
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
    try {
      const auth = await this.deps.getAuth();
      if (!auth) throw new ReadingError('no-key');
      this.auth = auth;
      const settings = await this.deps.getSettings();
      const accountP = this.deps.refreshAccount(auth).then(
        (account) => ({ account }),
        (error: unknown) => ({ error }),
      );
      const cached = await this.deps.getAccount();
      const extracted = await req.extract();
      let account = cached;
      if (!account) {
        const fresh = await accountP;
        if ('error' in fresh) throw fresh.error;
        account = fresh.account;
      }
      if (abort.signal.aborted) return;
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
      };
      await this.deps.savePlan(this.plan);
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

      if (estimate > threshold) {
        await this.update({ state: 'confirm' });
        await this.waitForConfirm(abort.signal);
      }
      await this.update({ state: 'loading' });
      await this.playFrom(0, 0);
    } catch (err) {
      if (abort.signal.aborted || this.view.id !== id) return;
      await this.fail(err);
    }
  }

  private waitForConfirm(signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
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
    await this.halt();
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

  /** Jumps to another part; audio already received comes from the cache, unpaid again. */
  async jump(delta: number): Promise<void> {
    await this.ready;
    if (!['playing', 'paused', 'loading'].includes(this.view.state) || this.parts.length === 0) return;
    const target = Math.min(Math.max(this.view.part + delta, 0), this.parts.length - 1);
    await this.halt();
    this.abort = new AbortController();
    this.pendingError = null;
    await this.update({ state: 'loading', part: target, partTime: 0 });
    await this.playFrom(target, 0);
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
        const moved = event.part !== this.view.part || Math.abs(event.position - this.view.position) >= 0.2;
        if (moved) await this.update({ part: event.part, position: round2(event.position), partTime: round2(event.partTime) });
        // A restarted worker learns from the player what it holds and carries on from there.
        if (!this.pumping && !this.pumpDone && this.abort) {
          const hold = event.partialBytes > 0 ? { bytes: event.partialBytes, seconds: event.partialSeconds } : null;
          void this.pump(event.complete + 1, this.abort.signal, hold);
        }
        this.wakeUp();
        break;
      }
      case 'lost':
        if (this.reloading || this.view.state === 'paused' || this.view.state === 'confirm') break;
        await this.reload();
        break;
      case 'ended':
        await this.update({ position: round2(Math.max(event.position, this.view.position)) });
        if (!this.pumpDone) break; // an underrun; more audio is on the way
        if (this.pendingError) await this.update({ state: 'error', error: this.pendingError });
        else await this.update({ state: 'finished', part: Math.max(this.parts.length - 1, 0) });
        await this.halt();
        break;
      case 'error':
        await this.halt();
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
    await this.halt();
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
    this.price = parseRub(plan.priceRub) ?? 0n;
    this.cost = parseRub(view.costRub) ?? 0n;
    this.auth = await this.deps.getAuth();
    if (!this.auth) {
      await this.fail(new ReadingError('no-key'));
      return;
    }
    const abort = new AbortController();
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
    await this.deps.player.post({
      type: 'load',
      readingId: this.view.id,
      startPart,
      seekInPart,
      positionBase: this.view.position,
    });
    if (this.view.state === 'paused') await this.deps.player.post({ type: 'pause', readingId: this.view.id });
    void this.pump(startPart, abort.signal, null);
  }

  private async pump(from: number, signal: AbortSignal, hold: PartialHold | null): Promise<void> {
    const id = this.view.id;
    this.pumping = true;
    try {
      for (let k = from; k < this.parts.length; k++) {
        await this.until(() => k <= this.view.part + LOOKAHEAD, signal);
        const outcome = await this.fetchPart(k, signal, k === from ? hold : null);
        if (outcome === 'stop') break;
      }
      if (signal.aborted) return;
      this.pumpDone = true;
      await this.deps.player.post({ type: 'end-of-stream', readingId: id });
    } catch (err) {
      if (signal.aborted || this.view.id !== id) return;
      await this.halt();
      await this.deps.player.post({ type: 'stop', readingId: id }).catch(() => undefined);
      await this.fail(err);
    } finally {
      if (this.abort?.signal === signal) this.pumping = false;
    }
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
  private async fetchPart(k: number, signal: AbortSignal, hold: PartialHold | null): Promise<'ok' | 'skipped' | 'stop'> {
    const plan = this.plan!;
    // Where the text resumes after a cut stream (code units into the part's text).
    let from = 0;
    let heldSeconds = hold?.seconds ?? 0;
    let retries = 0;
    for (;;) {
      // Read on every attempt: `text_too_long` replaces the part with two smaller ones.
      const part = this.parts[k]!;
      const key = partKey({ text: part.text, voice: plan.voice, format: plan.format });
      if (from === 0) {
        const cached = await this.deps.cache.get(key);
        if (cached) {
          await this.append(k, cached.subarray(hold?.bytes ?? 0));
          await this.partEnd(k);
          return 'ok';
        }
        if (hold) from = this.cutOffset(part, 0, hold.seconds);
      }
      const chunks: Uint8Array[] = [];
      try {
        const body = this.body(part, from);
        const stream = await this.deps.openStream(this.auth!, body, signal);
        await this.account(stream, countChars(body.text));
        for await (const chunk of stream.chunks) {
          chunks.push(chunk);
          await this.append(k, chunk);
        }
        const bytes = concatBytes(chunks);
        if (from === 0 && !hold) {
          await this.deps.cache.set(key, bytes);
          this.spokenChars += part.chars;
          this.spokenSeconds += mp3Duration(bytes);
        }
        await this.partEnd(k);
        return 'ok';
      } catch (err) {
        if (signal.aborted || !(err instanceof ServiceError)) throw err;
        const received = chunks.length > 0;
        if (err.status === 0 && received && retries < MAX_RETRIES) {
          // Dropped or stalled mid-body: what arrived is played; only the rest, from the sentence that was cut, is asked for again.
          retries++;
          const seconds = mp3Duration(concatBytes(chunks));
          from = this.cutOffset(part, from, seconds + heldSeconds);
          heldSeconds = 0;
          hold = null;
          continue;
        }
        const action = err.status === 0 ? (received ? 'stop' : 'retry') : actionFor(err.status, err.code);
        if (action === 'retry' && retries < MAX_RETRIES) {
          await this.deps.sleep(retryDelayMs(retries, err.retryAfter), signal);
          retries++;
          continue;
        }
        if (action === 'skip') {
          const count = this.view.notice.code === 'content-rejected' ? this.view.notice.count + 1 : 1;
          await this.update({ notice: { code: 'content-rejected', count } });
          return 'skipped';
        }
        if (action === 'split' && from === 0 && countChars(part.text) > 1) {
          await this.splitPart(k);
          continue;
        }
        this.pendingError = this.errorView(err.code, err.message, err.requestId);
        if (!this.appended) throw err;
        return 'stop';
      }
    }
  }

  /**
   * Where to resume part text after `seconds` of its audio (counted from `from`)
   * were received: the start of the sentence being spoken then, estimated from
   * this reading's measured speech rate, a little early rather than late.
   */
  private cutOffset(part: Part, from: number, seconds: number): number {
    const rate = this.spokenSeconds > 0.3 ? this.spokenChars / this.spokenSeconds : DEFAULT_CHARS_PER_SECOND;
    const chars = Math.floor(seconds * rate * CUT_SAFETY);
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

  private async account(stream: SpeechStream, sentChars: number): Promise<void> {
    const r = stream.receipt;
    const chars = r.charsBilled ?? sentChars;
    // A missing or unreadable cost header is replaced by what the price says it costs.
    const cost = r.cost ?? costOf(chars, this.price);
    this.cost += cost;
    await this.update({
      costRub: formatRubPlain(this.cost),
      chars: this.view.chars + chars,
      balanceRub: r.balance !== null ? formatRubPlain(r.balance) : this.view.balanceRub,
    });
  }

  private async append(part: number, chunk: Uint8Array): Promise<void> {
    if (chunk.byteLength === 0) return;
    // A copy is transferred; the original stays for the cache.
    const bytes = chunk.slice().buffer;
    this.appended = true;
    await this.deps.player.post({ type: 'append', readingId: this.view.id, part, bytes });
  }

  private partEnd(part: number): Promise<void> {
    return this.deps.player.post({ type: 'part-end', readingId: this.view.id, part });
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

  private async halt(): Promise<void> {
    this.abort?.abort();
    this.abort = null;
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
    await this.halt();
    await this.update({ state: 'error', error });
  }

  private async update(patch: Partial<ReadingView>): Promise<void> {
    this.view = { ...this.view, ...patch, updatedAt: Date.now() };
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
