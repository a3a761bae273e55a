/**
 * Test builds' diagnostics (put in place of `wired.ts` by the build): the reading's steps as
 * `globalThis.readingTrace` ([label, ms since the epoch][]), the handles tests drive, and points a test
 * can hold from the context's console (`globalThis.diagnostics.holdAt('pdf:more')`, then `release`).
 */
import type { Diagnostics, HoldPoint } from './diagnostics';

/** A reading's appends are marked too: 2,000 keep a minute of them and the marks among them. */
const MAX_TRACE = 2_000;

const g = globalThis as unknown as { readingTrace?: [string, number][]; diagnostics?: unknown; tuned?: Record<string, number> };
const holds = new Map<HoldPoint, { promise: Promise<void>; release: () => void; reached: number }>();

g.diagnostics = {
  holdAt(point: HoldPoint): void {
    if (holds.has(point)) return;
    let release = () => undefined as void;
    const promise = new Promise<void>((resolve) => (release = resolve));
    holds.set(point, { promise, release, reached: 0 });
  },
  /** How many times the code reached `point` while it was held. */
  reached(point: HoldPoint): number {
    return holds.get(point)?.reached ?? 0;
  },
  release(point: HoldPoint): void {
    holds.get(point)?.release();
    holds.delete(point);
  },
};

export const diagnostics: Diagnostics = {
  mark(label) {
    const trace = (g.readingTrace ??= []);
    if (trace.length >= MAX_TRACE) trace.splice(0, trace.length - MAX_TRACE + 1);
    trace.push([label, performance.timeOrigin + performance.now()]);
  },
  expose(handles) {
    Object.assign(globalThis, handles);
  },
  counters: (make) => make(),
  tuned(name, fallback) {
    return g.tuned?.[name] ?? fallback;
  },
  held(point) {
    const hold = holds.get(point);
    if (!hold) return null;
    hold.reached++;
    return hold.promise;
  },
};
