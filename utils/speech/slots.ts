/**
 * Request slots: every request to the service — the reading's parts, the part fetched ahead,
 * retries, Save as MP3 and the account check — holds a slot from before it is sent until its
 * body has ended, so no more are ever in flight than the account allows.
 *
 * Waiters are served most urgent first, then in the order they came. A request that playback
 * is waiting for may pre-empt one nobody needs any more (a part the listener jumped away from):
 * that one is paid for already, but a silent player is worse than its loss.
 */

/** Lower is more urgent. */
export const PRIORITY = {
  /** Playback waits for it (the part being played, a jump's target), or a person does (the account check). */
  now: 0,
  /** The next part, fetched while the current one plays. */
  ahead: 1,
  /** Save as MP3: parts the listener has paid for to keep, fetched in the background. */
  save: 2,
  /** No longer needed (the listener jumped away): it may finish into the cache, or be pre-empted. */
  spare: 3,
} as const;

export type Priority = (typeof PRIORITY)[keyof typeof PRIORITY];

export interface SlotLease {
  /** Frees the slot (once; later calls do nothing). */
  release(): void;
}

/** How much a request is needed; the requester may change it while it waits or holds a slot (then calls `reconsider`). */
export interface Ticket {
  priority: Priority;
}

interface Holder {
  ticket: Ticket;
  preempt?: () => void;
  preempted: boolean;
}

interface Waiter {
  ticket: Ticket;
  order: number;
  holder: Holder;
  grant(lease: SlotLease): void;
}

export class RequestSlots {
  private limit: number;
  private readonly holders = new Set<Holder>();
  private waiters: Waiter[] = [];
  private order = 0;

  constructor(limit = 1) {
    this.limit = whole(limit);
  }

  /** Requests holding a slot now. */
  get inFlight(): number {
    return this.holders.size;
  }

  get capacity(): number {
    return this.limit;
  }

  /** The account's `max_concurrency`, read afresh (a new reading, a key check). */
  setLimit(limit: number): void {
    this.limit = whole(limit);
    this.grant();
  }

  /**
   * The service answered 429 to a request holding a slot: from now on no more are sent at once
   * than were in flight beside it. True when others of ours were in flight — the refusal is our
   * own doing, so the request waits for a slot instead of spending a retry.
   */
  refused(): boolean {
    const others = this.holders.size - 1;
    this.limit = Math.max(1, Math.min(this.limit, others));
    return others > 0;
  }

  /**
   * Waits for a slot. `preempt` is called (once) when a more urgent request needs this slot
   * while this one is `spare`: it must abort the request, whose end then releases the slot.
   */
  acquire(ticket: Ticket | Priority, signal: AbortSignal, preempt?: () => void): Promise<SlotLease> {
    const t: Ticket = typeof ticket === 'number' ? { priority: ticket } : ticket;
    return new Promise<SlotLease>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const holder: Holder = { ticket: t, preempt, preempted: false };
      const waiter: Waiter = {
        ticket: t,
        order: this.order++,
        holder,
        grant: (lease) => {
          signal.removeEventListener('abort', onAbort);
          resolve(lease);
        },
      };
      const onAbort = () => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(signal.reason);
        this.grant();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
      this.grant();
    });
  }

  /** A ticket's priority changed: waiters are served in the new order, and a request playback waits for may pre-empt. */
  reconsider(): void {
    this.grant();
  }

  private lease(holder: Holder): SlotLease {
    return {
      release: () => {
        if (this.holders.delete(holder)) this.grant();
      },
    };
  }

  private grant(): void {
    this.waiters.sort((a, b) => a.ticket.priority - b.ticket.priority || a.order - b.order);
    while (this.waiters.length > 0 && this.holders.size < this.limit) {
      const next = this.waiters.shift()!;
      this.holders.add(next.holder);
      next.grant(this.lease(next.holder));
    }
    const first = this.waiters[0];
    if (first?.ticket.priority !== PRIORITY.now) return;
    // Playback waits: a request nobody needs any more gives way (the newest first, it has received least).
    const spare = [...this.holders].filter((h) => h.ticket.priority === PRIORITY.spare && h.preempt);
    const pending = spare.filter((h) => h.preempted).length;
    const needed = this.waiters.filter((w) => w.ticket.priority === PRIORITY.now).length;
    for (const holder of spare.filter((h) => !h.preempted).reverse().slice(0, Math.max(0, needed - pending))) {
      holder.preempted = true;
      holder.preempt!();
    }
  }
}

function whole(n: number): number {
  return Number.isFinite(n) ? Math.max(1, Math.floor(n)) : 1;
}
