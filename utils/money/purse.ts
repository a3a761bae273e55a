/**
 * One reading's side of the money: what the user agreed to (its envelope, a cap passed knowingly, a Save as
 * MP3 confirmation), what the spending gate let through, and what is reserved for requests in flight. It
 * decides nothing: `gate.ts` does, from `snapshot()`. Its phase is not its own: it is the reading's state
 * seen from the money (`reading/machine.ts` `moneyOf`), entered when the reading's table steps.
 */
import type { Caps } from './caps';
import type { Envelope, MoneyPhase, ReadingPurse, SaveGrant } from './gate';
import type { RubUnits } from './money';
import type { Spent } from './totals';

/** What is kept of a purse across a restart of the background (JSON: no Infinity, no bigint). */
export interface SavedPurse {
  /** Code points agreed to; null: the document as it is counted. */
  envelope: number | null;
  capApproval: string | null;
}

export class Purse {
  #phase: MoneyPhase = 'planning';
  #envelope: Envelope = { chars: 0 };
  #capApproval: RubUnits | null = null;
  #saveGrant: SaveGrant | null = null;
  #caps: Caps | null = null;
  #spentAtStart: Spent = { day: 0n, month: 0n };
  #reserved: RubUnits = 0n;
  #committedChars = 0;
  private readonly committed = new Set<string>();

  constructor(readonly readingId: string) {}

  get phase(): MoneyPhase {
    return this.#phase;
  }
  get envelope(): Envelope {
    return this.#envelope;
  }
  get capApproval(): RubUnits | null {
    return this.#capApproval;
  }
  get saveGrant(): SaveGrant | null {
    return this.#saveGrant;
  }
  /** The caps this reading keeps to (read when it started), and what was spent when it did. */
  get caps(): Caps | null {
    return this.#caps;
  }
  get spentAtStart(): Spent {
    return this.#spentAtStart;
  }
  get reserved(): RubUnits {
    return this.#reserved;
  }
  get committedChars(): number {
    return this.#committedChars;
  }

  /** The caps read when the reading started, and what had been spent by then. */
  keepTo(caps: Caps | null, spentAtStart: Spent = { day: 0n, month: 0n }): void {
    this.#caps = caps;
    this.#spentAtStart = spentAtStart;
  }

  /** The reading's state, seen from the money: what may be bought now (the table's `moneyOf`). */
  enter(phase: MoneyPhase): void {
    // A reading that ended buys nothing more for playback, whatever comes after.
    if (this.#phase !== 'over') this.#phase = phase;
  }

  /** Nothing was asked: the reading may spend up to `chars` (what stays under the threshold), and asks again past it. */
  openUnder(chars: number): void {
    this.#envelope = { chars };
  }

  /** Agreed to `chars` (Infinity: a document as it is counted), and, asked for a cap, passing it by `capApproval`. */
  agree(chars: number, capApproval: RubUnits | null = this.#capApproval): void {
    this.#envelope = { chars };
    this.#capApproval = capApproval;
  }

  /** The reading has ended or was replaced: nothing more is bought for it. */
  close(): void {
    this.#phase = 'over';
  }

  /** Save as MP3's confirmation, for as long as its fetching lasts (null: over). */
  grant(grant: SaveGrant | null): void {
    this.#saveGrant = grant;
  }

  /** A request let through: its likely cost held until its receipt, counted against a save's grant or the envelope. */
  admit(cost: RubUnits, under: 'play' | 'save', part: { key: string; chars: number; resumed: boolean }): void {
    this.#reserved += cost;
    if (under === 'save' && this.#saveGrant) this.#saveGrant.spent += cost;
    else if (under === 'play' && !part.resumed) this.commit(part.key, part.chars);
  }

  /** A request let through was not sent, or billed nothing: its hold is given back. */
  giveBack(cost: RubUnits, under: 'play' | 'save'): void {
    this.#reserved -= cost;
    if (under === 'save' && this.#saveGrant) this.#saveGrant.spent -= cost;
  }

  /** A request's receipt: its hold becomes what it was billed. */
  settle(held: RubUnits, billed: RubUnits, under: 'play' | 'save'): void {
    this.#reserved -= held;
    if (under === 'save' && this.#saveGrant) this.#saveGrant.spent += billed - held;
  }

  /** A part the service found too long was halved: its words count again only as its halves are bought. */
  split(key: string, chars: number): void {
    if (!this.committed.delete(key)) return;
    this.#committedChars -= chars;
  }

  /** The gate's view of it, with the reading's bill and price. */
  snapshot(bill: { cost: RubUnits; chars: number; price: RubUnits }, parts: number): ReadingPurse {
    return {
      readingId: this.readingId,
      phase: this.phase,
      envelope: this.envelope,
      committedChars: this.committedChars,
      isCommitted: (key) => this.committed.has(key),
      billed: bill.cost,
      billedChars: bill.chars,
      reserved: this.reserved,
      price: bill.price,
      capApproval: this.capApproval,
      saveGrant: this.saveGrant,
      slack: BigInt(parts),
    };
  }

  /** A part's first request for playback was let through: its words count against the envelope once. */
  private commit(key: string, chars: number): void {
    if (this.committed.has(key)) return;
    this.committed.add(key);
    this.#committedChars += chars;
  }

  saved(): SavedPurse {
    return { envelope: Number.isFinite(this.envelope.chars) ? this.envelope.chars : null, capApproval: this.capApproval === null ? null : String(this.capApproval) };
  }

  /**
   * Restored after a restart of the background: what was saved, else `agreed` (what the reading's view says
   * was agreed to: its estimate once confirmed, what stays under the threshold when nothing was asked).
   */
  restore(saved: SavedPurse | undefined, agreed: number, billedChars: number, capApproval: RubUnits | null): void {
    this.#envelope = { chars: saved ? (saved.envelope ?? Infinity) : agreed };
    this.#capApproval = saved?.capApproval ? BigInt(saved.capApproval) : capApproval;
    this.#committedChars = billedChars;
  }
}
