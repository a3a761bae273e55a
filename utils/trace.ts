/**
 * Timestamps of a reading's first steps, for `npm run bench` (test builds only: in the production
 * build `mark` is an empty function and the labels are dropped). Read from the worker's console as
 * `globalThis.readingTrace`: [label, ms since the worker's time origin][].
 */
const MAX = 200;

export function mark(label: string): void {
  if (import.meta.env.MODE !== 'test') return;
  const g = globalThis as unknown as { readingTrace?: [string, number][] };
  const trace = (g.readingTrace ??= []);
  if (trace.length >= MAX) trace.splice(0, trace.length - MAX + 1);
  trace.push([label, performance.timeOrigin + performance.now()]);
}
