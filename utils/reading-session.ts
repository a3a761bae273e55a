import { makeAcceptable } from './accepted-text';
import { type AudioCache, partKey } from './audio-cache';
import type { ExtractedText } from './extract-page';
import { costOf, formatRubPlain, parseRub, type RubUnits } from './money';
import type { PlayerEvent } from './player-protocol';
import type { PlayerSink } from './offscreen-player';
import { IDLE_VIEW, isActive, type ReadingView } from './reading-state';
import { actionFor, humanMessage, MAX_RETRIES, retryDelayMs } from './service-errors';
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

/**
 * The reading in progress: its parts, where playback is, what it has cost.
 * Lives in the background; the player only plays and reports.
 */
export class Reader {
  view: ReadingView = IDLE_VIEW;
  private parts: Part[] = [];
  private auth: Auth | null = null;
  private settings: Settings | null = null;
  private price: RubUnits = 0n;
  private cost: RubUnits = 0n;
  private abort: AbortController | null = null;
  private wake: Array<() => void> = [];
  private confirmGate: (() => void) | null = null;
  /** A stop-type error met while fetching: shown once what was received has played. */
  private pendingError: ReadingView['error'] = null;
  private partTime = 0;
  private appended = false;
  private pumpDone = false;

  constructor(private readonly deps: ReaderDeps) {}

  get active(): boolean {
    return isActive(this.view.state);
  }

  async start(req: ReadingRequest): Promise<void> {
    this.halt();
    const abort = new AbortController();
    this.abort = abort;
    this.parts = [];
    this.cost = 0n;
    this.pendingError = null;
    this.partTime = 0;
    this.appended = false;
    this.pumpDone = false;
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
      this.settings = await this.deps.getSettings();
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
      this.price = parseRub(account.pricePerMillionRub) ?? 0n;
      if (abort.signal.aborted) return;

      const accepted = extracted.blocks
        .map((b) => ({ kind: b.kind, ...makeAcceptable(b.text) }))
        .filter((b) => b.text.trim() !== '');
      const skippedWords = accepted.reduce((n, b) => n + b.skippedWords, 0);
      if (accepted.length === 0) throw new ReadingError('no-text');
      this.parts = splitIntoParts(accepted.map(({ kind, text }) => ({ kind, text })));
      if (this.parts.length === 0) throw new ReadingError('no-text');
      const estimateChars = this.parts.reduce((n, p) => n + p.chars, 0);
      const estimate = costOf(estimateChars, this.price);
      const balance = parseRub(account.balanceRub);
      const threshold = parseRub(this.settings.confirmThresholdRub) ?? 0n;
      await this.update({
        title: extracted.title,
        source: req.source || extracted.source,
        parts: this.parts.length,
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
        await new Promise<void>((resolve, reject) => {
          this.confirmGate = resolve;
          abort.signal.addEventListener('abort', () => reject(abort.signal.reason), { once: true });
        });
        this.confirmGate = null;
      }
      await this.update({ state: 'loading' });
      await this.playFrom(0, 0);
    } catch (err) {
      if (abort.signal.aborted || this.view.id !== id) return;
      await this.fail(err);
    }
  }

  confirm(): void {
    this.confirmGate?.();
  }

  async stop(): Promise<void> {
    if (!this.active) return;
    this.halt();
    await this.deps.player.post({ type: 'stop', readingId: this.view.id }).catch(() => undefined);
    await this.update({ state: 'stopped' });
  }

  async pause(): Promise<void> {
    if (this.view.state !== 'playing' && this.view.state !== 'loading') return;
    await this.deps.player.post({ type: 'pause', readingId: this.view.id });
    await this.update({ state: 'paused' });
  }

  async resume(): Promise<void> {
    if (this.view.state !== 'paused') return;
    await this.update({ state: 'playing' });
    await this.deps.player.post({ type: 'resume', readingId: this.view.id });
  }

  async toggle(): Promise<void> {
    if (this.view.state === 'paused') await this.resume();
    else await this.pause();
  }

  /** Jumps to another part; audio already received comes from the cache, unpaid again. */
  async jump(delta: number): Promise<void> {
    if (!['playing', 'paused', 'loading'].includes(this.view.state)) return;
    const target = Math.min(Math.max(this.view.part + delta, 0), this.parts.length - 1);
    if (target === this.view.part && delta !== 0 && this.partTime < 2 && delta > 0) return;
    this.abort?.abort();
    this.abort = new AbortController();
    this.pendingError = null;
    await this.update({ state: 'loading', part: target });
    await this.playFrom(target, 0);
  }

  async onPlayerEvent(event: PlayerEvent): Promise<void> {
    if (event.readingId !== this.view.id || !this.active) return;
    switch (event.type) {
      case 'playing':
        if (this.view.state === 'loading') await this.update({ state: 'playing' });
        break;
      case 'progress':
        this.partTime = event.partTime;
        if (event.part !== this.view.part || Math.abs(event.position - this.view.position) >= 0.2) {
          await this.update({ part: event.part, position: round2(event.position) });
        }
        this.wakeUp();
        break;
      case 'ended':
        await this.update({ position: round2(Math.max(event.position, this.view.position)) });
        if (!this.pumpDone) break; // an underrun; more audio is on the way
        if (this.pendingError) await this.update({ state: 'error', error: this.pendingError });
        else await this.update({ state: 'finished', part: Math.max(this.parts.length - 1, 0) });
        this.halt();
        break;
      case 'error':
        this.halt();
        await this.update({ state: 'error', error: this.errorView('bad-audio', event.message) });
        break;
      case 'paused':
      case 'waiting':
        break;
    }
  }

  private async playFrom(startPart: number, seekInPart: number): Promise<void> {
    const abort = this.abort;
    if (!abort) return;
    this.appended = false;
    this.pumpDone = false;
    await this.deps.player.post({
      type: 'load',
      readingId: this.view.id,
      startPart,
      seekInPart,
      positionBase: this.view.position,
    });
    void this.pump(startPart, abort.signal);
  }

  private async pump(from: number, signal: AbortSignal): Promise<void> {
    const id = this.view.id;
    try {
      for (let k = from; k < this.parts.length; k++) {
        await this.until(() => k <= this.view.part + LOOKAHEAD, signal);
        const outcome = await this.fetchPart(k, signal);
        if (outcome === 'stop') break;
      }
      if (signal.aborted) return;
      this.pumpDone = true;
      await this.deps.player.post({ type: 'end-of-stream', readingId: id });
    } catch (err) {
      if (signal.aborted || this.view.id !== id) return;
      this.halt();
      await this.deps.player.post({ type: 'stop', readingId: id }).catch(() => undefined);
      await this.fail(err);
    }
  }

  private body(part: Part): SpeechBody {
    const s = this.settings!;
    const body: SpeechBody = { text: part.text, stream: true, format: s.format };
    if (s.voice.trim()) body.voice = s.voice.trim();
    if (part.previousText) body.previous_text = part.previousText;
    if (part.nextText) body.next_text = part.nextText;
    return body;
  }

  private async fetchPart(k: number, signal: AbortSignal): Promise<'ok' | 'skipped' | 'stop'> {
    const s = this.settings!;
    for (let attempt = 0; ; attempt++) {
      // Read on every attempt: `text_too_long` replaces the part with two smaller ones.
      const part = this.parts[k]!;
      const key = partKey({ text: part.text, voice: s.voice.trim(), format: s.format });
      const cached = this.deps.cache.get(key);
      if (cached) {
        for (const chunk of cached) await this.append(k, chunk);
        return 'ok';
      }
      let received = 0;
      try {
        const stream = await this.deps.openStream(this.auth!, this.body(part), signal);
        await this.account(stream, part);
        const chunks: Uint8Array[] = [];
        for await (const chunk of stream.chunks) {
          chunks.push(chunk);
          received += chunk.byteLength;
          await this.append(k, chunk);
        }
        this.deps.cache.set(key, chunks);
        return 'ok';
      } catch (err) {
        if (signal.aborted || !(err instanceof ServiceError)) throw err;
        const action = err.status === 0 ? (received > 0 ? 'stop' : 'retry') : actionFor(err.status, err.code);
        if (action === 'retry' && attempt < MAX_RETRIES) {
          await this.deps.sleep(retryDelayMs(attempt, err.retryAfter), signal);
          continue;
        }
        if (action === 'skip') {
          const count = this.view.notice.code === 'content-rejected' ? this.view.notice.count + 1 : 1;
          await this.update({ notice: { code: 'content-rejected', count } });
          return 'skipped';
        }
        if (action === 'split' && countChars(part.text) > 1) {
          await this.splitPart(k);
          attempt = -1;
          continue;
        }
        this.pendingError = this.errorView(err.code, err.message, err.requestId);
        if (!this.appended) throw err;
        return 'stop';
      }
    }
  }

  /** `text_too_long` should never happen; if it does, the part is halved at a space and retried. */
  private async splitPart(k: number): Promise<void> {
    const part = this.parts[k]!;
    const mid = part.text.lastIndexOf(' ', Math.floor(part.text.length / 2));
    const cut = mid > 0 ? mid : Math.floor(part.text.length / 2);
    const a = part.text.slice(0, cut).trim();
    const b = part.text.slice(cut).trim();
    const make = (text: string, previousText: string, nextText: string): Part => ({
      ...part,
      text,
      previousText,
      nextText,
      chars: countChars(text),
    });
    this.parts.splice(k, 1, make(a, part.previousText, b), make(b, a, part.nextText));
    this.parts.forEach((p, i) => (p.index = i));
    await this.update({ parts: this.parts.length });
  }

  private async account(stream: SpeechStream, part: Part): Promise<void> {
    const r = stream.receipt;
    const chars = r.charsBilled ?? part.chars;
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
    // A copy is transferred; the original stays in the cache.
    const bytes = chunk.slice().buffer;
    this.appended = true;
    await this.deps.player.post({ type: 'append', readingId: this.view.id, part, bytes });
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

  private halt(): void {
    this.abort?.abort();
    this.abort = null;
    this.wakeUp();
  }

  private errorView(code: string, message?: string, requestId = ''): NonNullable<ReadingView['error']> {
    return { code, message: humanMessage(code, this.deps.locale()) || message || code, requestId };
  }

  private async fail(err: unknown): Promise<void> {
    let error: NonNullable<ReadingView['error']>;
    if (err instanceof ReadingError) error = this.errorView(err.code);
    else if (err instanceof ServiceError) error = this.errorView(err.code, err.message, err.requestId);
    else error = this.errorView('network', err instanceof Error ? err.message : String(err));
    this.halt();
    await this.update({ state: 'error', error });
  }

  private async update(patch: Partial<ReadingView>): Promise<void> {
    this.view = { ...this.view, ...patch, updatedAt: Date.now() };
    await this.deps.saveView(this.view);
  }
}

const round2 = (n: number) => Math.round(n * 100) / 100;
