/**
 * The background's writes of the reading's plan and of the views behind it (runs in the background), one
 * after another in the order asked: the popup reads the parts list when a view names a new plan, and must
 * find that plan written. A view asked for with nothing waiting is written at once.
 *
 * A plan asked to be written while a write of the same reading's plan still waits its turn joins that
 * write, which takes the plan as it is when its turn comes: each write is the whole plan, and a book
 * counted section by section would otherwise write it once a section (quadratic in the book's length).
 * A view asked for after a plan is still written after a write holding at least that plan.
 */
import pLimit from 'p-limit';

export interface WriteQueue<P extends { id: string }, V> {
  savePlan(plan: P | null): Promise<void>;
  saveView(view: V): Promise<void>;
}

export function writeQueue<P extends { id: string }, V>(writePlan: (plan: P | null) => Promise<void>, writeView: (view: V) => Promise<void>): WriteQueue<P, V> {
  const queued = pLimit(1);
  /** A plan's write that has not begun yet, and the plan it will write. */
  let waiting: { plan: P | null; written: Promise<void> } | null = null;
  return {
    savePlan(plan) {
      if (waiting && plan && waiting.plan?.id === plan.id) {
        waiting.plan = plan;
        return waiting.written;
      }
      const entry: { plan: P | null; written: Promise<void> } = { plan, written: Promise.resolve() };
      entry.written = queued(() => {
        if (waiting === entry) waiting = null;
        return writePlan(entry.plan);
      });
      waiting = entry;
      return entry.written;
    },
    saveView(view) {
      return queued.activeCount + queued.pendingCount > 0 ? queued(() => writeView(view)) : writeView(view);
    },
  };
}
