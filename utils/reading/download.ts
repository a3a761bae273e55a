/**
 * One part's audio, fetched through a request slot: retried on 5xx and on a 429 from another
 * client, resumed from the cut sentence when a stream drops, and told apart as skip (refused),
 * split (too long) or stop (key, balance, settings). Its bytes can be read by any number of
 * consumers, each from the start, while they still arrive; it belongs to the reading, not to
 * the delivery that asked for it, so a jump never throws away audio already paid for.
 */
import { actionFor, MAX_RETRIES, retryDelayMs } from '../speech/errors';
import { type Priority, PRIORITY, type RequestSlots, type SlotLease } from '../speech/slots';
import { ServiceError, type SpeechBody, type SpeechReceipt, type SpeechStream } from '../speech/client';
import { mp3Duration, seamlessStreams } from '../audio/mp3-frames';
import { concatBytes } from '../audio/cache';
import { countChars, type Part } from '../text/parts';
import { diagnostics } from '../diagnostics/wired';

/**
 * A request cut off by the reader (a jump, a stop) holds its slot this much longer: the service counts
 * it as in flight until the closed connection reaches it, and a new request sent at once would make
 * one more than the account allows (seen as 3 of 2 in the quick-jumps test, about one run in five).
 */
const ABORT_GRACE_MS = 120;

/** A part is asked for again after a cut mid-stream this many times at most (each time its rest is paid again). */
export const MAX_CUTS = 8;

/** What a request is for, as the spending gate asks it: the part, whether it is the rest of a dropped stream, whether Save as MP3 wants it. */
export interface RequestAbout {
  part: Part;
  resumed: boolean;
  forSave: boolean;
}

/**
 * The request may not be sent now, and nothing was: the reading waits for the listener's answer (it asks
 * first, or again because its text grew). The part is asked for anew once that is given.
 */
export class NotNow extends Error {
  constructor(readonly why: string) {
    super(`Not sent now: ${why}`);
    this.name = 'NotNow';
  }
}

export interface FetchDeps {
  slots: RequestSlots;
  /**
   * Sends a request with the key as it is now (a removed key fails here, with nothing sent), once the
   * spending gate lets it through (else it throws: `NotNow`, or the error that stops the reading).
   */
  open(body: SpeechBody, signal: AbortSignal, about: RequestAbout): Promise<SpeechStream>;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /**
   * The service could not be reached (no answer, before any byte): resolves when it is time to try again
   * (`network-wait.ts`); rejects when the request is no longer wanted.
   */
  unreachable(signal: AbortSignal): Promise<void>;
  /** The service answered (any answer): a wait for it is over. */
  reached(): void;
  /** Every request the service billed, whatever becomes of its audio. */
  billed(receipt: SpeechReceipt, sentChars: number): void | Promise<void>;
}

export interface PartRequest {
  part: Part;
  /** Code units into the part's text where the request starts (>0: the rest of a part the player holds partly). */
  from: number;
  body(from: number): SpeechBody;
  /** Where the text resumes after `seconds` of audio were received from `from`. */
  cutAt(from: number, seconds: number): number;
  priority: Priority;
  /** The reading's lifetime: a stop or a new reading ends every download. */
  signal: AbortSignal;
}

/** Bytes of one request; `resumed`: the first bytes of a request for the rest of a cut part. */
export interface Piece {
  bytes: Uint8Array;
  resumed: boolean;
}

export type Outcome =
  /** All of the part's audio arrived; `whole` when in one request from the start (its speech pace is measured on it). */
  | { kind: 'ok'; whole: boolean }
  | { kind: 'skip'; error: ServiceError }
  | { kind: 'split' }
  | { kind: 'stop'; error: unknown }
  /** Ended by the reading, pre-empted, or failed while fetched ahead: not the part's fault; asked for anew when needed. */
  | { kind: 'aborted' };

export class Download {
  readonly pieces: Piece[] = [];
  readonly outcome: Promise<Outcome>;
  #stored: Promise<void> = Promise.resolve();
  #uncached = false;
  #wantedBySave = false;

  /** Settles once a whole part's bytes are in the cache, or failed to get there (`keptBy`). */
  get stored(): Promise<void> { return this.#stored; }
  /** The part is whole but the cache refused it: its bytes are held here while the reading may need them. */
  get uncached(): boolean { return this.#uncached; }
  /** Save as MP3 waits for it: a jump or a stop of the reading does not end it. */
  get wantedBySave(): boolean { return this.#wantedBySave; }

  /** Save as MP3 wants it (from now on: a later wish of playback does not take that back). */
  wantForSave(): void { this.#wantedBySave = true; }
  /** Whoever keeps its bytes (the cache) settles `stored` when they are kept or refused. */
  keptBy(stored: Promise<void>): void { this.#stored = stored; }
  /** The cache refused its bytes. */
  refusedByCache(): void { this.#uncached = true; }
  private settled = false;
  private wake: Array<() => void> = [];
  private lease: SlotLease | null = null;
  /** Shared with the request slots, which read it live. */
  private readonly ticket: { priority: Priority };
  /** A request has been sent (it may be billed): until then the download can be cancelled for free. */
  sent = false;
  /** The service has answered its request for the whole part (billed) and the audio is arriving now: it will be cacheable. */
  receiving = false;
  /** A request of it is out now (sent, not ended): it may be billed. */
  private requesting = false;
  private readonly controller = new AbortController();

  constructor(
    private readonly req: PartRequest,
    private readonly deps: FetchDeps,
  ) {
    this.ticket = { priority: req.priority };
    const onAbort = () => this.controller.abort(req.signal.reason);
    if (req.signal.aborted) onAbort();
    else req.signal.addEventListener('abort', onAbort, { once: true });
    this.outcome = this.run().then((outcome) => {
      req.signal.removeEventListener('abort', onAbort);
      this.settled = true;
      this.notify();
      return outcome;
    });
  }

  /** All bytes, from the first, as they arrive; ends when the download does (see `outcome`) or `until` aborts. */
  async *read(until: AbortSignal): AsyncGenerator<Piece, void, void> {
    const stop = () => this.notify();
    until.addEventListener('abort', stop, { once: true });
    try {
      for (let i = 0; !until.aborted; ) {
        while (i < this.pieces.length && !until.aborted) yield this.pieces[i++]!;
        if (this.settled || until.aborted) return;
        await new Promise<void>((resolve) => this.wake.push(resolve));
      }
    } finally {
      until.removeEventListener('abort', stop);
    }
  }

  /** The whole part's bytes (meaningful once the outcome is `ok`). */
  bytes(): Uint8Array {
    return concatBytes(this.pieces.map((p) => p.bytes));
  }

  /** The part's audio to keep: as it came, or, from a cut stream and its rest, the streams joined at whole frames. */
  playable(): Uint8Array {
    const streams: Uint8Array[][] = [];
    for (const p of this.pieces) {
      if (p.resumed || !streams.length) streams.push([]);
      streams.at(-1)!.push(p.bytes);
    }
    return concatBytes(seamlessStreams(streams.map(concatBytes)));
  }

  get priority(): Priority {
    return this.ticket.priority;
  }

  setPriority(priority: Priority): void {
    if (this.ticket.priority === priority) return;
    this.ticket.priority = priority;
    this.deps.slots.reconsider();
  }

  /**
   * Nobody needs the part any more. No request out (not sent yet, or waiting to retry): cancelled, it costs
   * nothing. A request out: it may be paid for, so it may finish (into the cache) unless a needed request
   * takes its slot; nothing more is sent for it.
   */
  letGo(): void {
    if (this.requesting) this.setPriority(PRIORITY.spare);
    else this.cancel();
  }

  /** Ends the download (a request not sent yet costs nothing; one under way is paid for and its rest dropped). */
  cancel(): void {
    this.controller.abort(new DOMException('Not needed any more.', 'AbortError'));
  }

  /** Failing, it may be given up: fetched ahead (nobody waits for it yet) with nothing of it received (nothing paid would be lost). */
  private spareable(): boolean {
    return this.pieces.length === 0 && this.ticket.priority !== PRIORITY.now && this.ticket.priority !== PRIORITY.save;
  }

  private notify(): void {
    const waiting = this.wake;
    this.wake = [];
    waiting.forEach((w) => w());
  }

  private async run(): Promise<Outcome> {
    const { part, body, cutAt } = this.req;
    const signal = this.controller.signal;
    let from = this.req.from;
    let resumed = from > 0;
    let whole = from === 0;
    /** Failed answers in a row (5xx, 429 of others, a body that broke before its first byte): a few are tried again, then the part stops. */
    let retries = 0;
    /** Cuts in a row that brought the part no sentence further, and cuts in all: each asks for the part's rest, paid again. */
    let stuck = 0;
    let cuts = 0;
    for (let attempt = 0; ; attempt++) {
      // A retry, a wait for a slot or the rest of a cut stream for a part nobody needs any more: not sent.
      if (attempt > 0 && this.ticket.priority === PRIORITY.spare) return { kind: 'aborted' };
      let received = 0;
      /** The service answered this request (it is billed): a failure now is the answer's, not the network's. */
      let answered = false;
      const start = this.pieces.length;
      try {
        this.lease = await this.deps.slots.acquire(this.ticket, signal, () => this.cancel());
        // Let go while it waited for the slot: nothing is sent.
        if (attempt > 0 && this.ticket.priority === PRIORITY.spare) return { kind: 'aborted' };
        this.sent = true;
        this.requesting = true;
        const request = body(from);
        diagnostics.mark('request');
        const stream = await this.deps.open(request, signal, { part, resumed, forSave: this.#wantedBySave });
        this.deps.reached();
        answered = true;
        this.receiving = whole;
        diagnostics.mark('response');
        // The bill is counted at the call (in memory) and written before the audio it paid for is handed on, so
        // a background stopped a moment later comes back with it — but for the reading's first part, whose
        // write goes while its audio comes in: its first audio does not wait for a storage write.
        const billing = Promise.resolve(this.deps.billed(stream.receipt, countChars(request.text)));
        billing.catch(() => undefined);
        if (part.index > 0 || resumed) await billing;
        for await (const bytes of stream.chunks) {
          // Audio came: the failures before were a burst that has passed.
          retries = 0;
          this.pieces.push({ bytes, resumed: resumed && received === 0 });
          received += bytes.byteLength;
          this.notify();
        }
        await billing;
        return { kind: 'ok', whole };
      } catch (err) {
        if (signal.aborted) return { kind: 'aborted' };
        if (err instanceof NotNow) {
          if (attempt === 0) this.sent = false;
          return { kind: 'aborted' };
        }
        if (!(err instanceof ServiceError)) return { kind: 'stop', error: err };
        if (err.status !== 0) this.deps.reached();
        if (err.status === 0 && received > 0) {
          // Dropped or stalled mid-body: what arrived plays; only the rest, from the cut sentence, is asked for
          // again. The network's doing, not the service's answer: no retry is spent, unless cut after cut brings
          // the part no sentence further (a body that always breaks in the same place).
          // A body that breaks after every sentence would have the part's rest paid again and again: a part is
          // asked for again after a cut MAX_CUTS times at most.
          const next = cutAt(from, mp3Duration(concatBytes(this.pieces.slice(start).map((p) => p.bytes))));
          stuck = next > from ? 0 : stuck + 1;
          if (stuck > MAX_RETRIES || ++cuts > MAX_CUTS) return { kind: 'stop', error: err };
          from = next;
          resumed = true;
          whole = false;
          continue;
        }
        if (err.status === 0 && received === 0 && !answered) {
          // No answer at all: the reading waits for the network, however long (it pauses itself at the limit).
          // Fetched ahead with nothing received: nobody waits for it yet; whoever needs it asks again, and
          // waits. The rest of a cut part waits whoever it is for: what arrived of it is paid for.
          if (this.spareable()) return { kind: 'aborted' };
          this.lease?.release();
          try {
            await this.deps.unreachable(signal);
          } catch {
            return { kind: 'aborted' };
          }
          continue;
        }
        // Answered (billed), then its body broke before any audio: a failed answer, tried again within the retries.
        const action = err.status === 0 ? (answered ? 'retry' : 'stop') : actionFor(err.status, err.code);
        // Too many in flight: when it is our own doing, wait for one of ours to end; it costs no retry.
        if (err.status === 429 && this.deps.slots.refused()) continue;
        // Fetched ahead and failing: nobody waits for it yet; whoever needs it asks again, with retries of its own.
        if (action === 'retry' && this.spareable()) return { kind: 'aborted' };
        if (action === 'retry' && retries < MAX_RETRIES) {
          this.lease?.release();
          try {
            await this.deps.sleep(retryDelayMs(retries, err.retryAfter), signal);
          } catch {
            return { kind: 'aborted' };
          }
          retries++;
          continue;
        }
        if (action === 'skip') return { kind: 'skip', error: err };
        if (action === 'split' && from === 0 && this.pieces.length === 0 && countChars(part.text) > 1) return { kind: 'split' };
        return { kind: 'stop', error: err };
      } finally {
        this.receiving = false;
        this.requesting = false;
        const lease = this.lease;
        this.lease = null;
        if (lease && signal.aborted && this.sent) setTimeout(() => lease.release(), ABORT_GRACE_MS);
        else lease?.release();
      }
    }
  }
}

