import { describe, expect, it } from 'vitest';
import { writeQueue } from './write-queue';

interface Plan {
  id: string;
  parts: number;
}

/** A queue whose writes finish only when let go (`finishAll`), and what reached storage, in order, as it was when each write began. */
function world() {
  const written: string[] = [];
  const pending: Array<() => void> = [];
  const slow = (what: () => string) => {
    const value = what();
    return new Promise<void>((resolve) => pending.push(() => (written.push(value), resolve())));
  };
  const q = writeQueue<Plan, string>(
    (plan) => slow(() => (plan ? `plan ${plan.id}:${plan.parts}` : 'plan cleared')),
    (view) => slow(() => `view ${view}`),
  );
  const settle = () => new Promise((r) => setImmediate(r));
  const finishAll = async () => {
    for (await settle(); pending.length; await settle()) pending.shift()!();
  };
  return { q, written, pending, finishAll };
}

describe('writeQueue: the plan and the views behind it, in order; a growing plan written as it is by then', () => {
  it('a view asked for with nothing waiting is written at once', async () => {
    const w = world();
    void w.q.saveView('playing');
    // Begun in the same turn, not behind anything.
    expect(w.pending).toHaveLength(1);
    await w.finishAll();
    expect(w.written).toEqual(['view playing']);
  });

  it('a view asked for after a plan is written after it', async () => {
    const w = world();
    const plan = { id: 'r1', parts: 1 };
    void w.q.savePlan(plan);
    void w.q.saveView('planned');
    await w.finishAll();
    expect(w.written).toEqual(['plan r1:1', 'view planned']);
  });

  it('the same reading’s plan asked for again while a write of it waits its turn joins that write, with the plan as it is then', async () => {
    const w = world();
    const plan = { id: 'r1', parts: 1 };
    const first = w.q.savePlan(plan);
    plan.parts = 2;
    const second = w.q.savePlan(plan);
    void w.q.saveView('grown 2');
    plan.parts = 3;
    const third = w.q.savePlan(plan);
    void w.q.saveView('grown 3');
    // All asked for before the first write began: one write, of the plan as it was by then.
    await w.finishAll();
    await Promise.all([first, second, third]);
    expect(w.written).toEqual(['plan r1:3', 'view grown 2', 'view grown 3']);
  });

  it('a plan asked for while the last write of it is already under way is written again after it (never lost)', async () => {
    const w = world();
    const plan = { id: 'r1', parts: 1 };
    void w.q.savePlan(plan);
    // The first write begins (its turn came at once): it holds the plan as it was.
    await new Promise((r) => setImmediate(r));
    void w.q.saveView('grown 1');
    plan.parts = 2;
    void w.q.savePlan({ ...plan });
    void w.q.saveView('grown 2');
    await w.finishAll();
    expect(w.written).toEqual(['plan r1:1', 'view grown 1', 'plan r1:2', 'view grown 2']);
  });

  it('another reading’s plan, or the plan cleared, is never merged with a waiting write', async () => {
    const w = world();
    void w.q.savePlan({ id: 'r1', parts: 1 });
    void w.q.savePlan(null);
    void w.q.savePlan({ id: 'r2', parts: 5 });
    void w.q.savePlan({ id: 'r3', parts: 1 });
    await w.finishAll();
    expect(w.written).toEqual(['plan r1:1', 'plan cleared', 'plan r2:5', 'plan r3:1']);
  });
});
