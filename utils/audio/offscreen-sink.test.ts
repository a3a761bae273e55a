import { describe, expect, it, vi } from 'vitest';
import { offscreenPlayerSink, PLAYER_PORT, type OffscreenAccess, type PlayerPort, type WindowClient } from './offscreen-sink';

/** An offscreen document as the worker reaches it: its client, its port, and whether it is open. */
function world() {
  const posted: Array<{ doc: number; type: string }> = [];
  let doc = 0;
  let open = false;
  let connect: (port: PlayerPort) => void = () => undefined;
  let disconnect: () => void = () => undefined;
  const clientOf = (n: number): WindowClient => ({ url: 'chrome-extension://x/offscreen.html', postMessage: (cmd) => void posted.push({ doc: n, type: (cmd as { type: string }).type }) });
  const access = {
    findClient: vi.fn(async () => (open ? clientOf(doc) : undefined)),
    ensureDocument: vi.fn(async () => {
      if (open) return;
      doc++;
      open = true;
    }),
    onConnect: (listener: (port: PlayerPort) => void) => (connect = listener),
  } satisfies OffscreenAccess;
  return {
    access,
    posted,
    /** The document opens its port, as it does once loaded. */
    portOpens() {
      const listeners: Array<() => void> = [];
      connect({ name: PLAYER_PORT, onDisconnect: { addListener: (l) => void listeners.push(l) } });
      disconnect = () => listeners.forEach((l) => l());
    },
    /** Chrome closes the document (after a long silence): its port closes with it. */
    closes() {
      open = false;
      disconnect();
    },
  };
}

const load = { type: 'load', readingId: 'r', load: 1, startPart: 0, seekInPart: 0, positionBase: 0, rate: 1, volume: 1 } as const;
const append = () => ({ type: 'append', readingId: 'r', part: 0, bytes: new ArrayBuffer(4) }) as const;

/** A sink over a world whose document is open, with its port open too unless `port` is false. */
async function openSink(port = true, lost: (readingId: string) => void = () => undefined) {
  const w = world();
  const sink = offscreenPlayerSink(w.access, lost);
  await w.access.ensureDocument();
  if (port) w.portOpens();
  return { w, sink };
}

describe('offscreenPlayerSink', () => {
  it('while the document’s port is open, its client is looked up once, not before every command', async () => {
    const { w, sink } = await openSink();
    await sink.post(load);
    await sink.post(append());
    await sink.post(append());
    expect(w.posted).toEqual([{ doc: 1, type: 'load' }, { doc: 1, type: 'append' }, { doc: 1, type: 'append' }]);
    expect(w.access.findClient).toHaveBeenCalledTimes(1);
  });

  it('a document closed since: the next command opens a new one and goes there, not to the old client', async () => {
    const { w, sink } = await openSink();
    await sink.post(load);
    w.closes();
    await sink.post(load);
    expect(w.posted).toEqual([{ doc: 1, type: 'load' }, { doc: 2, type: 'load' }]);
  });

  it('with no port open (a worker started after the document), every command looks the client up', async () => {
    const { w, sink } = await openSink(false);
    await sink.post(load);
    await sink.post(append());
    expect(w.access.findClient).toHaveBeenCalledTimes(2);
    expect(w.posted.map((p) => p.doc)).toEqual([1, 1]);
  });

  it.each([
    ['with a reading loaded: the reader is told at once (nothing more may be sent that would find out)', [load], ['r']],
    ['after that reading was stopped: nothing to tell', [load, { type: 'stop', readingId: 'r' } as const], []],
    ['before any load: nothing to tell', [], []],
    ['a worker started again carrying on with the player\'s reading (no load, a resume)', [{ type: 'resume', readingId: 'r' } as const], ['r']],
  ])('the document closed %s', async (_name, commands, told) => {
    const lost = vi.fn();
    const { w, sink } = await openSink(true, lost);
    for (const cmd of commands) await sink.post(cmd);
    w.closes();
    expect(lost.mock.calls.map(([id]) => id)).toEqual(told);
  });
});

