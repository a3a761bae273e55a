/**
 * The estimate as steps (a dynamic programme, one run's word starts, one pace tried): the player runs it a slice
 * at a time, so a long part's estimate is not one block on its thread. One step is still one whole alignment (a
 * pace tried over all of a part, or the whole part's one), which a word's timer may wait (bench/HISTORY.md).
 */
export type Steps<T> = Generator<void, T, void>;

/** Runs `steps` to the end at once (the tests and the benchmarks). */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
