import { describe, expect, it, vi } from 'vitest';
import { PRIORITY, RequestSlots, type SlotLease } from './slots';

const never = new AbortController().signal;
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('RequestSlots', () => {
  it('never grants more slots than the limit; a release lets the next one in', async () => {
    const slots = new RequestSlots(2);
    const granted: number[] = [];
    const leases: SlotLease[] = [];
    for (let i = 0; i < 4; i++) void slots.acquire(PRIORITY.now, never).then((l) => (granted.push(i), leases.push(l)));
    await tick();
    expect(granted).toEqual([0, 1]);
    expect(slots.inFlight).toBe(2);
    leases[0]!.release();
    leases[0]!.release(); // a second release frees nothing more
    await tick();
    expect(granted).toEqual([0, 1, 2]);
    expect(slots.inFlight).toBe(2);
  });

  it.each([
    { name: 'urgent before ahead before save', asks: [PRIORITY.save, PRIORITY.ahead, PRIORITY.now], order: [2, 1, 0] },
    { name: 'same priority: first come first served', asks: [PRIORITY.ahead, PRIORITY.ahead, PRIORITY.ahead], order: [0, 1, 2] },
  ])('waiters are served by priority: $name', async ({ asks, order }) => {
    const slots = new RequestSlots(1);
    const blocker = await slots.acquire(PRIORITY.now, never);
    const served: number[] = [];
    asks.forEach((p, i) => void slots.acquire(p, never).then((l) => (served.push(i), l.release())));
    await tick();
    blocker.release();
    await tick();
    expect(served).toEqual(order);
  });

  it('an aborted wait gives up its place and rejects', async () => {
    const slots = new RequestSlots(1);
    const blocker = await slots.acquire(PRIORITY.now, never);
    const abort = new AbortController();
    const waiting = slots.acquire(PRIORITY.now, abort.signal);
    abort.abort(new Error('jumped'));
    await expect(waiting).rejects.toThrow('jumped');
    blocker.release();
    expect(slots.inFlight).toBe(0);
  });

  it('a request playback waits for pre-empts one nobody needs, never one still needed', async () => {
    const slots = new RequestSlots(2);
    const aheadPreempt = vi.fn();
    const sparePreempt = vi.fn();
    await slots.acquire(PRIORITY.ahead, never, aheadPreempt);
    const ticket = { priority: PRIORITY.now as number };
    const spare = await slots.acquire(ticket as { priority: 0 }, never, sparePreempt);
    ticket.priority = PRIORITY.spare;
    slots.reconsider();
    expect(sparePreempt).not.toHaveBeenCalled(); // nobody waits yet: it may finish into the cache
    let got = false;
    void slots.acquire(PRIORITY.now, never).then(() => (got = true));
    expect(sparePreempt).toHaveBeenCalledTimes(1);
    expect(aheadPreempt).not.toHaveBeenCalled();
    spare.release(); // the aborted request ends
    await tick();
    expect(got).toBe(true);
  });

  it('a lookahead request never pre-empts', async () => {
    const slots = new RequestSlots(1);
    const preempt = vi.fn();
    const ticket: { priority: 0 | 1 | 2 | 3 } = { priority: PRIORITY.now };
    await slots.acquire(ticket, never, preempt);
    ticket.priority = PRIORITY.spare;
    slots.reconsider();
    void slots.acquire(PRIORITY.ahead, never);
    expect(preempt).not.toHaveBeenCalled();
  });

  it.each([
    { name: 'with another of ours in flight: our own doing, limit lowered to 1', held: 2, ours: true, limit: 1 },
    { name: 'three in flight at limit 3: limit 2', held: 3, ours: true, limit: 2 },
    { name: 'alone: someone else uses the account, limit 1', held: 1, ours: false, limit: 1 },
  ])('a 429 $name', async ({ held, ours, limit }) => {
    const slots = new RequestSlots(held);
    for (let i = 0; i < held; i++) await slots.acquire(PRIORITY.now, never);
    expect(slots.refused()).toBe(ours);
    expect(slots.capacity).toBe(limit);
  });

  it('a waiter whose request becomes urgent is served first', async () => {
    const slots = new RequestSlots(1);
    const blocker = await slots.acquire(PRIORITY.now, never);
    const served: string[] = [];
    void slots.acquire(PRIORITY.ahead, never).then((l) => (served.push('ahead'), l.release()));
    const ticket: { priority: 0 | 1 | 2 | 3 } = { priority: PRIORITY.save };
    void slots.acquire(ticket, never).then((l) => (served.push('promoted'), l.release()));
    ticket.priority = PRIORITY.now;
    slots.reconsider();
    blocker.release();
    await tick();
    expect(served).toEqual(['promoted', 'ahead']);
  });

  it('a new limit from the account lets waiters in at once', async () => {
    const slots = new RequestSlots(1);
    await slots.acquire(PRIORITY.now, never);
    let got = false;
    void slots.acquire(PRIORITY.now, never).then(() => (got = true));
    slots.setLimit(2);
    await tick();
    expect(got).toBe(true);
  });
});
