/**
 * The highlight band on the page being read: the sentence marked now, where it is, and the words the player
 * tells. Its one writer is the player's reports (`player-events.ts`); the reading's end takes it off.
 */
import { SpokenWords } from './spoken-words';

export class Band {
  /** The sentence marked on the page now (`block:text`; '' none). */
  #marked = '';
  /** Where the band is: the player's load it was placed in, and its part and sentence. */
  #at: { load: number; part: number; sentence: number } | null = null;
  /** The words the player tells, as the page marks them. */
  readonly spoken = new SpokenWords();

  get marked(): string {
    return this.#marked;
  }

  /** The sentence marked on the page now ('' none: taken off, and placed anew next time). */
  mark(key: string): void {
    this.#marked = key;
    if (!key) this.#at = null;
  }

  /**
   * Whether the band may go to sentence `sentence` of part k (and if so, it is there now). Within one load of the
   * player it only goes forward or stays: a sentence placed by its share of a part's time (its words not timed
   * yet) may be ahead of the words when they come, and Firefox's position may be read a little behind the last;
   * either would take the band back a sentence and forward again. It waits where it is until the voice reaches
   * the next. A jump, a seek or a new reading is a new load: the band goes where it is sent.
   */
  goes(load: number, k: number, sentence: number): boolean {
    const at = this.#at;
    if (at && at.load === load && (k < at.part || (k === at.part && sentence < at.sentence))) return false;
    this.#at = { load, part: k, sentence };
    return true;
  }
}
