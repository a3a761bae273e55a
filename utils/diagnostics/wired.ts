/** The production build's diagnostics: none (test builds get `wired-test.ts` in its place). */
import type { Diagnostics } from './diagnostics';

export const diagnostics: Diagnostics = {
  mark: () => undefined,
  expose: () => undefined,
  counters: () => undefined,
  held: () => null,
  tuned: (_name, fallback) => fallback,
};
