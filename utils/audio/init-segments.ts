/**
 * Wrapped streams (MP3 in fMP4, Firefox): each part's first wrapped bytes carry an init segment. The last one
 * seen is appended ahead at a load, while the first bytes are awaited (an append that holds one is slower in
 * Firefox: taken off the first bytes' way), and the first part's own is then left out when it is the same.
 */
import { diagnostics } from '../diagnostics/wired';
import { initSegmentOf, sameBytes } from './mp3-fmp4';

export class InitSegments {
  /** The init segment of the last part that began, kept across loads. */
  #last: Uint8Array<ArrayBuffer> | null = null;
  /** The init segment appended ahead in this load, until the first part's own has come. */
  #primed: Uint8Array | null = null;
  /** The parts of this load whose first bytes (with their init segment) have been wrapped. */
  readonly #seen = new Set<number>();

  /** At a load's source open with nothing else to append: the init segment to append ahead (null: none). */
  prime(): Uint8Array<ArrayBuffer> | null {
    if (!this.#last || this.#seen.size > 0) return null;
    this.#primed = this.#last;
    return this.#last;
  }

  /** Part k's wrapped bytes, without their init segment when the same one was appended ahead. */
  strip(k: number, out: Uint8Array): Uint8Array {
    if (this.#seen.has(k)) return out;
    this.#seen.add(k);
    const init = initSegmentOf(out);
    let bytes = out;
    if (init && this.#primed && sameBytes(init, this.#primed)) {
      bytes = out.subarray(init.length);
      diagnostics.mark('player:init-left-out');
    }
    this.#primed = null;
    if (init) this.#last = init.slice() as Uint8Array<ArrayBuffer>;
    return bytes;
  }

  /** A new load: no part of it seen yet (the last init segment is kept). */
  reset(): void {
    this.#seen.clear();
    this.#primed = null;
  }
}
