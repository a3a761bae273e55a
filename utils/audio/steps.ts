/**
 * The estimate as steps (a dynamic programme, one run's word starts, one pace tried): the player runs it a slice
 * at a time, so a long part's 60–140 ms are not one block. One step is still one whole alignment: up to ~30–50 ms
 * for a 130-s part (a pace tried over all of it, or the whole part's one), which a word's timer may wait.
 */
export type Steps<T> = Generator<void, T, void>;

/** Runs `steps` to the end at once (the tests and the benchmarks). */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
