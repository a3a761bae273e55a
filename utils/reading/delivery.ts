/**
 * Feeds the player part after part, a little ahead of what it plays (`lookahead.ts`): from the cache when the
 * audio was paid for before, else from the part's download (joined if it is already under way).
 * A delivery lives from a load of the player to the next jump, reload or stop; the downloads it
 * starts belong to the reading, so ending a delivery never throws away a paid part.
 */
import { diagnostics } from '../diagnostics/wired';
import type { AudioCache } from '../audio/cache';
import type { PlayerSink } from '../audio/player-protocol';
import { PRIORITY, type Priority } from '../speech/slots';
import { ignore, logIgnored } from '../log';
import { Download, type FetchDeps, type Outcome } from './download';
import { cutOffset, speechBody } from './plan';
import { countChars } from '../text/parts';
import { wordsOf } from '../audio/word-measure';
import { aheadDecision, withinLookahead } from './lookahead';
import type { ReadingRun } from './run';

/** What a delivery needs from the reader that runs it. */
export interface DeliveryHost {
  fetch: FetchDeps;
  player: PlayerSink;
  cache: AudioCache;
  /** The part the player is on now. */
  playing(): number;
  /** The service refused a part: it is skipped with a notice. */
  refused(): Promise<void>;
  /** The plan changed (a part was halved): saved, and the part count shown. */
  planChanged(): Promise<void>;
  /** A stopping error met while fetching, kept for when what was received has played. */
  stopping(error: unknown): void;
  /** A part came whole and the reading's speech pace was measured on it: kept, so a restarted background cuts where this one would. */
  paceMeasured(): void;
  now(): number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/** Where the player stands in a part it holds only partly (after the background restarted). */
export interface PartialHold {
  bytes: number;
  seconds: number;
}

/** Below this far into a part, a player that holds nothing of it gets the part whole (its start is heard again soon). */
export const REST_AFTER_S = 3;

/**
 * What a player that holds nothing of part `k` (a new one: Chrome closed the offscreen document, Firefox started
 * the background page again) is given, loaded `seekInPart` seconds into it: the part's rest from the sentence
 * there (`hold`, with no bytes held), its audio beginning `partOffset` seconds into the part — when the part is
 * neither in the cache nor on its way and the place is well into it. Else null: the part whole, the player
 * seeking in it (before, a part lost mid-stream was bought again whole and waited for up to that second).
 */
export async function restOf(run: ReadingRun, cache: Pick<AudioCache, 'has'>, k: number, seekInPart: number): Promise<{ hold: PartialHold; partOffset: number } | null> {
  const part = run.parts[k];
  if (!part || seekInPart < REST_AFTER_S || run.downloads.has(run.key(k))) return null;
  if (await cache.has(run.key(k)).catch(() => true)) return null;
  const cps = run.pace.charsPerSecond();
  const from = cutOffset(part, 0, seekInPart, cps);
  if (from <= 0) return null;
  return { hold: { bytes: 0, seconds: seekInPart }, partOffset: Math.min(seekInPart, countChars(part.text.slice(0, from)) / cps) };
}

/** How long quick jumps in a row wait before a part is paid for: only the one the listener stops at is requested. */
export const JUMP_SETTLE_MS = 400;

/** What a download needs to be kept: requests, the cache, and where a stopping error goes. */
export type Keeper = Pick<DeliveryHost, 'fetch' | 'cache' | 'stopping' | 'paceMeasured'>;

/**
 * The part's download, joined when one is under way, else started (at `priority`, through a request
 * slot). A part all of whose audio came goes into the cache; until it is there (or when the cache refused it) the
 * download stays with the reading, so whoever needs the part next joins it instead of paying again.
 * A part the service refused, or a stopping error, stays too: it is never asked for again.
 */
export function obtain(run: ReadingRun, keeper: Keeper, k: number, priority: Priority, opts: { from?: number; signal?: AbortSignal } = {}): Download {
  const from = opts.from ?? 0;
  const key = run.key(k);
  const existing = from === 0 ? run.downloads.get(key) : undefined;
  if (existing) {
    existing.setPriority(Math.min(priority, existing.priority) as Priority);
    if (priority === PRIORITY.save) existing.wantForSave();
    return existing;
  }
  const part = run.parts[k]!;
  const plan = run.plan!;
  const download = new Download(
    {
      part,
      from,
      body: (f) => speechBody(plan, part, f),
      cutAt: (f, seconds) => cutOffset(part, f, seconds, run.pace.charsPerSecond()),
      priority,
      // A whole part lives as long as the reading's successor allows (Save as MP3 may still want it after a
      // stop: `run.close` cancels the rest); the rest of a part held partly lives as long as the reading.
      signal: from > 0 ? run.signal : run.lifeSignal,
    },
    keeper.fetch,
  );
  if (priority === PRIORITY.save) download.wantForSave();
  const stopped = download.outcome.then((outcome) => {
    if (outcome.kind !== 'stop') return outcome;
    // Nothing at or past this part is requested again (a 402 on the part ahead stops the reading there).
    run.stopping(k);
    keeper.stopping(outcome.error);
    return outcome;
  });
  if (from > 0) return download;
  run.downloads.keep(key, download);
  download.keptBy(stopped.then(async (outcome) => {
    const forget = () => run.downloads.forget(key, download);
    if (outcome.kind === 'aborted') return void forget();
    if (outcome.kind !== 'ok') return;
    if (outcome.whole) {
      run.pace.heard(k, download.bytes());
      keeper.paceMeasured();
    }
    try {
      // Best effort: a full or broken cache costs a second payment in a later reading, never in this one.
      // A part come in a cut stream and its rest is kept too: a player opened again plays it unpaid.
      await keeper.cache.set(key, outcome.whole ? download.bytes() : download.playable());
      forget();
    } catch (err) {
      logIgnored('keeping a part in the audio cache', err);
      download.refusedByCache();
    }
  }));
  return download;
}

/**
 * After a jump: the target and the part after it are needed; every other download may give way.
 * While quick jumps settle, the target does not yet pre-empt anything (the next press may pass it by).
 */
export function markNeeded(run: ReadingRun, target: number, settling: boolean): void {
  const needed = new Map<string, Priority>();
  if (run.parts[target]) needed.set(run.key(target), settling ? PRIORITY.ahead : PRIORITY.now);
  if (run.parts[target + 1]) needed.set(run.key(target + 1), PRIORITY.ahead);
  for (const [key, download] of run.downloads) {
    if (needed.has(key)) download.setPriority(needed.get(key)!);
    // Save as MP3 still waits for it.
    else if (download.wantedBySave) download.setPriority(PRIORITY.save);
    // Audio the cache refused is held in memory only while it may still be played.
    else if (download.uncached) run.downloads.forget(key);
    else download.letGo();
  }
}

export class Delivery {
  private readonly controller = new AbortController();
  /** Every part was handed to the player. */
  done = false;
  /** Some audio reached the player (a stopping error then waits until it has played). */
  #appended: boolean;
  /** The part whose text went with the last bytes appended. */
  #textWith = -1;
  /** Parts the player is given from a sentence on (`restOf`): where their audio begins in their text. */
  readonly #startsAt = new Map<number, number>();
  get appended(): boolean { return this.#appended; }
  private wake: Array<() => void> = [];

  constructor(
    private readonly run: ReadingRun,
    private readonly host: DeliveryHost,
    /** Quick jumps: a request for the first part waits until then (epoch ms; 0 = at once). */
    private readonly settleUntil = 0,
    /** The player already holds audio of the reading (a restarted background carrying on). */
    appended = false,
  ) {
    this.#appended = appended;
    if (run.signal.aborted) this.stop();
    else run.signal.addEventListener('abort', this.onRunEnd, { once: true });
  }

  private readonly onRunEnd = () => this.stop();

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  stop(): void {
    this.run.signal.removeEventListener('abort', this.onRunEnd);
    this.controller.abort(new DOMException('The delivery ended.', 'AbortError'));
    this.poke();
  }

  /** The player moved on: the lookahead may let the next part go. */
  poke(): void {
    const waiting = this.wake;
    this.wake = [];
    waiting.forEach((w) => w());
  }

  /**
   * Hands parts `from`… to the player. Throws a stopping error met before any audio reached the
   * player (the reading then ends in it at once); later ones wait in `run.pendingError`.
   */
  async pump(from: number, hold: PartialHold | null): Promise<void> {
    // A text still growing (a PDF read in batches) is waited for at its end.
    for (let k = from; k < this.run.end || (await this.run.growth.hasPart(k)); k++) {
      await this.until(() => withinLookahead(this.run.lookaheadFacts(k, this.host.playing(), (j) => this.handedWhole(j))));
      const outcome = await this.part(k, k === from ? hold : null);
      this.signal.throwIfAborted();
      if (outcome === 'stop') break;
    }
    this.signal.throwIfAborted();
    this.done = true;
    await this.host.player.post({ type: 'end-of-stream', readingId: this.run.id });
  }

  private async part(k: number, hold: PartialHold | null): Promise<'ok' | 'skipped' | 'stop'> {
    for (;;) {
      const key = this.run.key(k);
      let download = hold ? undefined : this.run.downloads.get(key);
      if (!download) {
        const cached = await this.host.cache.get(key).catch(ignore('reading the audio cache'));
        this.signal.throwIfAborted();
        if (cached) {
          await this.append(k, cached.subarray(hold?.bytes ?? 0));
          await this.partEnd(k);
          this.ahead(k + 1);
          return 'ok';
        }
        await this.settle();
        const from = hold ? cutOffset(this.run.parts[k]!, 0, hold.seconds, this.run.pace.charsPerSecond()) : 0;
        // A player holding nothing of it hears the part from there: its text and words are told from there too.
        if (hold?.bytes === 0 && from > 0) this.#startsAt.set(k, from);
        download = obtain(this.run, this.host, k, PRIORITY.now, { from });
      } else {
        await this.settle();
        download.setPriority(PRIORITY.now);
      }
      this.ahead(k + 1);
      for await (const piece of download.read(this.signal)) await this.append(k, piece.bytes, piece.resumed);
      const outcome: Outcome = await download.outcome;
      this.signal.throwIfAborted();
      switch (outcome.kind) {
        case 'ok':
          await this.partEnd(k);
          if (download.uncached) this.run.downloads.forget(key, download);
          return 'ok';
        case 'aborted':
          hold = null;
          // Pre-empted before it was needed again, or held back while the reading asks the listener: asked for anew (after the answer).
          await this.until(() => this.run.purse.phase !== 'asking');
          continue;
        case 'skip':
          this.run.skip(k);
          await this.host.refused();
          // The player counts the part as done (it holds nothing of it), so it never waits for it.
          await this.partEnd(k);
          this.poke();
          return 'skipped';
        case 'split':
          this.run.downloads.forget(key);
          // Its words count against the envelope again only as its halves are bought.
          this.run.purse.split(key, this.run.parts[k]!.chars);
          this.run.halve(k);
          await this.host.planChanged();
          continue;
        case 'stop':
          this.run.stopping(k);
          if (!this.#appended) throw outcome.error;
          return 'stop';
      }
    }
  }

  /**
   * Starts the requests of the parts ahead while this one plays, from part `from` on, within the look-ahead: the
   * next part, and more while those between are short (no further: a stop wastes little).
   */
  private ahead(from: number): void {
    void this.#ahead(from).catch(ignore('looking up the audio cache'));
  }

  async #ahead(from: number): Promise<void> {
    const run = this.run;
    for (let k = from; !this.signal.aborted; k++) {
      const decision = aheadDecision(run.lookaheadFacts(k, this.host.playing(), (j) => this.handedWhole(j)));
      // Not planned yet (a text read in batches): asked for once its batch is (not a reason to fetch the batch now).
      if (decision === 'wait') return void run.growth.grown().then(() => this.ahead(k));
      if (decision === 'none') return;
      const key = run.key(k);
      if (decision === 'pass' || run.downloads.has(key)) continue;
      const cached = await this.host.cache.has(key);
      if (!cached && !this.signal.aborted && k < run.end && run.key(k) === key) obtain(run, this.host, k, PRIORITY.ahead);
    }
  }

  private async settle(): Promise<void> {
    const wait = this.settleUntil - this.host.now();
    if (wait > 0) await this.host.sleep(wait, this.signal);
  }

  private async append(part: number, chunk: Uint8Array, resumed = false): Promise<void> {
    if (chunk.byteLength === 0 || this.signal.aborted) return;
    // A copy is transferred; the original stays for the cache and other readers.
    const bytes = chunk.slice().buffer;
    this.#appended = true;
    diagnostics.mark('append');
    // The part's text goes with its first bytes (and again after a cut): the player times its words as it streams.
    const { text, wordsBefore } = this.textOf(part);
    const first = part !== this.#textWith || resumed;
    this.#textWith = part;
    await this.host.player.post({
      type: 'append',
      readingId: this.run.id,
      part,
      bytes,
      ...(resumed ? { resumed } : {}),
      ...(first && text ? { text } : {}),
      ...(first && wordsBefore !== undefined ? { wordsBefore } : {}),
    });
  }

  /** What the player's audio of `part` says: the part, or its rest from the sentence it was given from, and the words before that. */
  private textOf(part: number): { text: string | undefined; wordsBefore?: number } {
    const text = this.run.parts[part]?.text;
    const from = this.#startsAt.get(part);
    if (text === undefined || from === undefined) return { text };
    return { text: text.slice(from), wordsBefore: wordsOf(text.slice(0, from)).length };
  }

  /** The last part handed to the player whole (its part-end sent). */
  #handedTo = -1;

  /** Whether part k was handed to the player whole. */
  handedWhole(k: number): boolean {
    return k <= this.#handedTo;
  }

  private async partEnd(part: number): Promise<void> {
    if (this.signal.aborted) return;
    this.#handedTo = Math.max(this.#handedTo, part);
    // Its text goes with it: the player times the part's words from its audio (the sentence highlight and the word mark).
    await this.host.player.post({ type: 'part-end', readingId: this.run.id, part, text: this.textOf(part).text });
  }

  private until(ready: () => boolean): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.signal.aborted) reject(this.signal.reason);
        else if (ready()) resolve();
        else this.wake.push(check);
      };
      check();
    });
  }
}
