import { describe, expect, it, vi } from 'vitest';
import { mp3 } from '../../tests/unit/reader-world';
import { ServiceError, type SpeechStream } from '../speech/client';
import { MAX_RETRIES } from '../speech/errors';
import { PRIORITY, RequestSlots } from '../speech/slots';
import type { Part } from '../text/parts';
import { Download, type FetchDeps, MAX_CUTS } from './download';

const part: Part = { index: 0, text: 'Одно предложение.', previousText: '', nextText: '', chars: 17, sentences: [{ start: 0, end: 17, block: 0 }] };
const never = new AbortController().signal;
const tick = () => new Promise((r) => setTimeout(r, 0));

function stream(frames: number): SpeechStream {
  return {
    receipt: { requestId: 'r', charsBilled: 17, cost: 1n, balance: null },
    chunks: (async function* () {
      yield mp3(frames);
    })(),
  };
}

type Deps = Omit<FetchDeps, 'unreachable' | 'reached'> & Partial<FetchDeps>;

function download(deps: Deps, priority: (typeof PRIORITY)[keyof typeof PRIORITY] = PRIORITY.now, opts: { cutAt?: (from: number, seconds: number) => number } = {}) {
  const all: FetchDeps = { unreachable: () => Promise.reject(new Error('not expected to wait')), reached: () => undefined, ...deps };
  return new Download({ part, from: 0, body: (f) => ({ text: part.text.slice(f), stream: true }), cutAt: opts.cutAt ?? ((f) => f), priority, signal: never }, all);
}

const unreachable = () => new ServiceError(0, 'network', 'The service could not be reached.');

describe('Download', () => {
  it('a 429 met while our own requests are in flight waits for one of them to end, again and again, spending no retry and no backoff', async () => {
    const slots = new RequestSlots(3);
    const a = await slots.acquire(PRIORITY.now, never);
    const b = await slots.acquire(PRIORITY.now, never);
    const sent: number[] = [];
    const sleep = vi.fn(async () => undefined);
    // The service takes fewer at once than the account said: refuses while anything else of ours is in flight.
    const open = vi.fn(async () => {
      sent.push(slots.inFlight);
      if (slots.inFlight > 1) throw new ServiceError(429, 'concurrency_limit', 'busy');
      return stream(4);
    });
    const d = download({ slots, open, sleep, billed: () => undefined });
    await tick();
    expect(sent).toEqual([3]);
    a.release();
    await tick();
    expect(sent).toEqual([3, 2]);
    b.release();
    expect(await d.outcome).toEqual({ kind: 'ok', whole: true });
    expect(sent).toEqual([3, 2, 1]);
    expect(sleep).not.toHaveBeenCalled();
    expect(slots.capacity).toBe(1);
  });

  it('a 429 with nothing else of ours in flight is someone else on the account: backoff, within the retry budget', async () => {
    const slots = new RequestSlots(2);
    const sleep = vi.fn(async () => undefined);
    const open = vi.fn(async () => Promise.reject(new ServiceError(429, 'concurrency_limit', 'busy')));
    const d = download({ slots, open, sleep, billed: () => undefined });
    expect((await d.outcome).kind).toBe('stop');
    expect(open).toHaveBeenCalledTimes(MAX_RETRIES + 1);
    expect(sleep).toHaveBeenCalledTimes(MAX_RETRIES);
  });

  it('fetched ahead and failing with a 5xx: given up at once (asked for again, with retries, when it is needed)', async () => {
    const slots = new RequestSlots(2);
    const open = vi.fn(async () => Promise.reject(new ServiceError(503, 'synthesis_failed', 'busy')));
    const d = download({ slots, open, sleep: async () => undefined, billed: () => undefined }, PRIORITY.ahead);
    expect(await d.outcome).toEqual({ kind: 'aborted' });
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('cancelled before a slot was free: nothing is sent', async () => {
    const slots = new RequestSlots(1);
    await slots.acquire(PRIORITY.now, never);
    const open = vi.fn(async () => stream(2));
    const d = download({ slots, open, sleep: async () => undefined, billed: () => undefined }, PRIORITY.ahead);
    d.cancel();
    expect(await d.outcome).toEqual({ kind: 'aborted' });
    expect(d.sent).toBe(false);
    expect(open).not.toHaveBeenCalled();
  });

  it('let go while it waits for a slot again (after a 429 of our own doing): nothing more is sent', async () => {
    const slots = new RequestSlots(2);
    const other = await slots.acquire(PRIORITY.now, never);
    const open = vi.fn(async () => Promise.reject(new ServiceError(429, 'concurrency_limit', 'busy')));
    const d = download({ slots, open, sleep: async () => undefined, billed: () => undefined }, PRIORITY.ahead);
    await tick();
    expect(open).toHaveBeenCalledTimes(1);
    // Refused beside our other request: it waits for that one's slot; the listener stops meanwhile.
    d.letGo();
    other.release();
    expect(await d.outcome).toEqual({ kind: 'aborted' });
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('let go while its audio arrives: it finishes (it is paid for)', async () => {
    const slots = new RequestSlots(1);
    let more = () => undefined as void;
    const open = vi.fn(async (): Promise<SpeechStream> => ({
      receipt: { requestId: 'r', charsBilled: 17, cost: 1n, balance: null },
      chunks: (async function* () {
        yield mp3(2);
        await new Promise<void>((ok) => (more = ok));
        yield mp3(2);
      })(),
    }));
    const d = download({ slots, open, sleep: async () => undefined, billed: () => undefined });
    await tick();
    expect(d.receiving).toBe(true);
    d.letGo();
    more();
    expect(await d.outcome).toEqual({ kind: 'ok', whole: true });
    expect(d.bytes().byteLength).toBe(mp3(4).byteLength);
    expect(open).toHaveBeenCalledTimes(1);
  });

  it("the audio comes through while the bill's view is still being written; the part ends once it is", async () => {
    const slots = new RequestSlots(1);
    let written = () => undefined as void;
    const billed = vi.fn(() => new Promise<void>((ok) => (written = ok)));
    const d = download({ slots, open: async () => stream(3), sleep: async () => undefined, billed });
    let ended = false;
    void d.outcome.then(() => (ended = true));
    await tick();
    // Billed at once; the bytes are there before the bill's write has finished.
    expect(billed).toHaveBeenCalledTimes(1);
    expect(d.bytes().byteLength).toBe(mp3(3).byteLength);
    expect(ended).toBe(false);
    written();
    expect(await d.outcome).toEqual({ kind: 'ok', whole: true });
  });

  describe('the service cannot be reached', () => {
    it('a request that gets no answer waits for the network, however many tries it takes (no retry budget), and is told when answered', async () => {
      const slots = new RequestSlots(1);
      let tries = 0;
      const open = vi.fn(async () => {
        tries += 1;
        if (tries <= MAX_RETRIES + 3) throw unreachable();
        return stream(2);
      });
      const waits = vi.fn(async () => undefined);
      const reached = vi.fn();
      const d = download({ slots, open, sleep: async () => undefined, billed: () => undefined, unreachable: waits, reached });
      expect(await d.outcome).toEqual({ kind: 'ok', whole: true });
      expect(waits).toHaveBeenCalledTimes(MAX_RETRIES + 3);
      expect(reached).toHaveBeenCalledTimes(1);
      // Its slot was let go while it waited.
      expect(slots.inFlight).toBe(0);
    });

    it('an error answer is an answer: the wait is over, and the error is handled as ever', async () => {
      const open = vi.fn(async () => Promise.reject(new ServiceError(402, 'insufficient_balance', 'no money')));
      const reached = vi.fn();
      const d = download({ slots: new RequestSlots(1), open, sleep: async () => undefined, billed: () => undefined, reached });
      expect((await d.outcome).kind).toBe('stop');
      expect(reached).toHaveBeenCalledTimes(1);
    });

    it('fetched ahead: given up at once, without waiting (whoever needs it asks again, and waits)', async () => {
      const open = vi.fn(async () => Promise.reject(unreachable()));
      const waits = vi.fn(async () => undefined);
      const d = download({ slots: new RequestSlots(1), open, sleep: async () => undefined, billed: () => undefined, unreachable: waits }, PRIORITY.ahead);
      expect(await d.outcome).toEqual({ kind: 'aborted' });
      expect(waits).not.toHaveBeenCalled();
    });

    it('no longer wanted while it waits: aborted, nothing more sent', async () => {
      const open = vi.fn(async () => Promise.reject(unreachable()));
      const d = download({ slots: new RequestSlots(1), open, sleep: async () => undefined, billed: () => undefined, unreachable: (signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))) });
      await tick();
      d.cancel();
      expect(await d.outcome).toEqual({ kind: 'aborted' });
      expect(open).toHaveBeenCalledTimes(1);
    });

    it('a stream cut, then no answer: waits, and asks for the rest from the cut sentence, not the part again', async () => {
      const bodies: string[] = [];
      let call = 0;
      const open = vi.fn(async (body: { text: string }): Promise<SpeechStream> => {
        bodies.push(body.text);
        call += 1;
        if (call === 1) {
          return {
            receipt: { requestId: 'r1', charsBilled: 17, cost: 1n, balance: null },
            chunks: (async function* () {
              yield mp3(2);
              throw new ServiceError(0, 'network', 'The connection was lost while audio was arriving.');
            })(),
          };
        }
        if (call <= 4) throw unreachable();
        return stream(2);
      });
      const waits = vi.fn(async () => undefined);
      const d = download({ slots: new RequestSlots(1), open, sleep: async () => undefined, billed: () => undefined, unreachable: waits }, PRIORITY.now, { cutAt: () => 5 });
      expect(await d.outcome).toEqual({ kind: 'ok', whole: false });
      expect(waits).toHaveBeenCalledTimes(3);
      expect(bodies).toEqual([part.text, ...Array(4).fill(part.text.slice(5))]);
      expect(d.pieces.map((p) => p.resumed)).toEqual([false, true]);
    });
  });

  it("a later part's bill is written before its audio is handed on: a background stopped then comes back with it", async () => {
    let written = () => undefined as void;
    const billed = vi.fn(() => new Promise<void>((ok) => (written = ok)));
    const later = { ...part, index: 3 };
    const d = new Download(
      { part: later, from: 0, body: (f) => ({ text: later.text.slice(f), stream: true }), cutAt: (f) => f, priority: PRIORITY.ahead, signal: never },
      { slots: new RequestSlots(1), open: async () => stream(3), sleep: async () => undefined, billed, unreachable: () => Promise.reject(new Error('no')), reached: () => undefined },
    );
    await tick();
    expect(billed).toHaveBeenCalledTimes(1);
    expect(d.pieces).toHaveLength(0);
    written();
    expect(await d.outcome).toEqual({ kind: 'ok', whole: true });
    expect(d.bytes().byteLength).toBe(mp3(3).byteLength);
  });

  describe('retries are for failed answers in a row', () => {
    const cutStream = (): SpeechStream => ({
      receipt: { requestId: 'r', charsBilled: 17, cost: 1n, balance: null },
      chunks: (async function* () {
        yield mp3(2);
        throw new ServiceError(0, 'network', 'The connection was lost while audio was arriving.');
      })(),
    });

    it('a burst of 5xx, a cut mid-stream, and another burst: the part comes whole in the end (the budget is per burst; a cut spends none)', async () => {
      const answers = ['502', '502', '502', 'cut', '502', '502', '502', 'cut', 'ok'];
      const open = vi.fn(async (): Promise<SpeechStream> => {
        const a = answers.shift();
        if (a === '502') throw new ServiceError(502, 'synthesis_failed', 'busy');
        return a === 'cut' ? cutStream() : stream(2);
      });
      let from = 0;
      const d = download({ slots: new RequestSlots(1), open, sleep: async () => undefined, billed: () => undefined }, PRIORITY.now, { cutAt: () => (from += 3) });
      expect(await d.outcome).toEqual({ kind: 'ok', whole: false });
      expect(open).toHaveBeenCalledTimes(9);
    });

    it('cut after cut with no sentence further: stopped after a few', async () => {
      const open = vi.fn(async () => cutStream());
      const d = download({ slots: new RequestSlots(1), open, sleep: async () => undefined, billed: () => undefined }, PRIORITY.now, { cutAt: (f) => f });
      expect((await d.outcome).kind).toBe('stop');
      expect(open).toHaveBeenCalledTimes(MAX_RETRIES + 1);
    });
  });

  it('answered (billed), then the body breaks before its first byte, again and again: failed answers, stopped after the retries, never an endless wait', async () => {
    const open = vi.fn(async (): Promise<SpeechStream> => ({
      receipt: { requestId: 'r', charsBilled: 17, cost: 1n, balance: null },
      // eslint-disable-next-line require-yield
      chunks: (async function* () {
        throw new ServiceError(0, 'network', 'The connection was lost while audio was arriving.');
      })(),
    }));
    const waits = vi.fn(async () => undefined);
    const d = download({ slots: new RequestSlots(1), open, sleep: async () => undefined, billed: () => undefined, unreachable: waits });
    expect((await d.outcome).kind).toBe('stop');
    expect(open).toHaveBeenCalledTimes(MAX_RETRIES + 1);
    expect(waits).not.toHaveBeenCalled();
  });

  it('a body that breaks after every sentence: its rest asked for again MAX_CUTS times at most', async () => {
    const open = vi.fn(async (): Promise<SpeechStream> => ({
      receipt: { requestId: 'r', charsBilled: 17, cost: 1n, balance: null },
      chunks: (async function* () {
        yield mp3(2);
        throw new ServiceError(0, 'network', 'The connection was lost while audio was arriving.');
      })(),
    }));
    let from = 0;
    const d = download({ slots: new RequestSlots(1), open, sleep: async () => undefined, billed: () => undefined }, PRIORITY.now, { cutAt: () => (from += 1) });
    expect((await d.outcome).kind).toBe('stop');
    expect(open).toHaveBeenCalledTimes(MAX_CUTS + 1);
  });
});

