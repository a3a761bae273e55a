/**
 * What tests and benchmarks may see of a running extension, and nothing else: one dependency, which the
 * production build wires to nothing (`wired.ts`) and test builds (`wxt build --mode test`) to
 * `wired-test.ts`, swapped by the build (wxt.config.ts, `testDiagnostics`). Product code never asks which
 * build it is in.
 */
export interface Diagnostics {
  /** A named step of a reading's start, with its time (the benchmarks' first-audio steps). */
  mark(label: string): void;
  /** Handles a test drives by hand (the native menu, the toolbar, shortcuts, the player): set on `globalThis`. */
  expose(handles: Record<string, unknown>): void;
  /** Counters made by `make` (the player's), or none. */
  counters<T>(make: () => T): T | undefined;
  /**
   * A point a test may hold the code at (`diagnostics.holdAt(point)` from the context's console, then
   * `release(point)`): a promise while held, else null, so the code runs on in the same turn.
   */
  held(point: HoldPoint): Promise<void> | null;
  /** A limit a test may shorten (`globalThis.tuned[name]` in the context's console), else `fallback`. */
  tuned(name: TunedValue, fallback: number): number;
}

/**
 * The limits a test may shorten: `network-pause-ms` — how long a reading waits for the service before it pauses;
 * `audio-cache-bytes` — the audio cache's cap (a save longer than it, without an hour of audio).
 */
export type TunedValue = 'network-pause-ms' | 'audio-cache-bytes';

/**
 * The points a test may hold (in the background): `extract:script` — an article read title first, after
 * the page's facts were read and before the extract script goes in (a page that grows in between);
 * `text:more` — a document read in batches (a PDF, a book), before its page is asked for the next batch.
 */
export type HoldPoint = 'extract:script' | 'text:more';

/** Runs `then` at once, or once `point` is released when a test holds it. */
export function afterHold<T>(d: Diagnostics, point: HoldPoint, then: () => Promise<T>): Promise<T> {
  const held = d.held(point);
  return held ? held.then(then) : then();
}
