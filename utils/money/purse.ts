/**
 * One reading's side of the money: what the user agreed to (its envelope, a cap passed knowingly, a Save as
 * MP3 confirmation), what the spending gate let through, and what is reserved for requests in flight. It
 * decides nothing: `gate.ts` does, from `snapshot()`.
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
  phase: MoneyPhase = 'planning';
  envelope: Envelope = { chars: 0 };
  capApproval: RubUnits | null = null;
  saveGrant: SaveGrant | null = null;
  /** The caps this reading keeps to (read when it started), and what was spent when it did. */
  caps: Caps | null = null;
  spentAtStart: Spent = { day: 0n, month: 0n };
  reserved: RubUnits = 0n;
  committedChars = 0;
  private readonly committed = new Set<string>();

  constructor(readonly readingId: string) {}

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
  commit(key: string, chars: number): void {
    if (this.committed.has(key)) return;
    this.committed.add(key);
    this.committedChars += chars;
  }

  saved(): SavedPurse {
    return { envelope: Number.isFinite(this.envelope.chars) ? this.envelope.chars : null, capApproval: this.capApproval === null ? null : String(this.capApproval) };
  }

  /**
   * Restored after a restart of the background: what was saved, else `agreed` (what the reading's view says
   * was agreed to: its estimate once confirmed, what stays under the threshold when nothing was asked).
   */
  restore(saved: SavedPurse | undefined, agreed: number, billedChars: number): void {
    this.envelope = { chars: saved ? (saved.envelope ?? Infinity) : agreed };
    this.capApproval = saved?.capApproval ? BigInt(saved.capApproval) : null;
    this.committedChars = billedChars;
  }
}
