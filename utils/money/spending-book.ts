/**
 * The book of what was spent today and this month (`totals.ts`), kept in memory and written through to
 * storage after every change. A request's likely cost is reserved before it is sent and settled on its
 * receipt (or given back when nothing was billed), so two requests in flight never both fit under a cap
 * that only one of them fits under, and a background stopped mid-request leaves its reservation counted.
 * `writable` says whether the last write went through: with spending caps set, nothing is sent while the
 * totals cannot be kept (fail closed).
 */
import pLimit from 'p-limit';
import type { RubUnits } from './money';
import { dayOf, type Spent, type SpendingTotals, spentOn, totalsFrom, withSpent } from './totals';

export interface BookStore {
  load(): Promise<SpendingTotals | null>;
  save(totals: SpendingTotals): Promise<void>;
  /** What was spent before totals were kept (the usage history), to start them from once. */
  seed(now: number): Promise<Spent>;
}

export interface Reservation {
  readonly units: RubUnits;
  /** The day it was made on (YYYY-MM-DD): settled after midnight, only the bill counts, on the new day. */
  readonly day: string;
  /** Whether the totals holding it were written. */
  readonly written: Promise<boolean>;
}

export class SpendingBook {
  private totals: SpendingTotals | null = null;
  private failing = false;
  /** The stored totals were read (or started): until then what was spent is not known. */
  private known = false;
  private readonly writes = pLimit(1);
  readonly ready: Promise<void>;

  constructor(
    private readonly store: BookStore,
    private readonly now: () => number,
    private readonly today: (now: number) => string = (now) => dayOf(now),
  ) {
    this.ready = this.load();
  }

  private async load(): Promise<void> {
    try {
      const stored = await this.store.load();
      if (stored) {
        this.totals = stored;
      } else {
        const now = this.now();
        this.totals = totalsFrom(await this.store.seed(now), this.today(now));
        void this.write();
      }
      this.known = true;
    } catch {
      // Not known: with caps set, nothing is spent in this life of the background.
    }
  }

  /** Spent today and this month, reservations included. */
  spent(): Spent {
    return spentOn(this.totals, this.today(this.now()));
  }

  /** Whether the totals are known and kept: false when they could not be read, or after a write that failed (until one succeeds). */
  get writable(): boolean {
    return this.known && !this.failing;
  }

  reserve(units: RubUnits): Reservation {
    const day = this.today(this.now());
    this.add(units);
    return { units, day, written: this.write() };
  }

  /** The request was billed `actual`. */
  settle(reservation: Reservation, actual: RubUnits): Promise<boolean> {
    this.add(reservation.day === this.today(this.now()) ? actual - reservation.units : actual);
    return this.write();
  }

  /** Nothing was billed (refused, failed, cancelled before an answer). */
  release(reservation: Reservation): Promise<boolean> {
    if (reservation.day === this.today(this.now())) this.add(-reservation.units);
    return this.write();
  }

  private add(delta: RubUnits): void {
    this.totals = withSpent(this.totals, this.today(this.now()), delta);
  }

  /** Writes the totals as they are when its turn comes: a later change is never overwritten by an earlier one. */
  private write(): Promise<boolean> {
    return this.writes(async () => {
      try {
        await this.store.save(this.totals!);
        this.failing = false;
        return true;
      } catch {
        this.failing = true;
        return false;
      }
    });
  }
}
