/**
 * The words the player tells as they are said (issue 48), as the page marks them: the sentence each is in and
 * its place there (`markOfWord`). A part whose words have been told is marked by them from then on, not by
 * its share of the time (`sentenceAt`).
 */
import { type WordSpan, wordsOf } from '../audio/word-measure';
import type { PageMark } from '../messaging/content';
import type { Part } from '../text/parts';
import { markOfWord } from './plan';

export class SpokenWords {
  readonly #timed = new Set<number>();
  /** Each part's words (offsets in its text), made once its first word is told. */
  readonly #words = new Map<number, WordSpan[]>();

  /** The mark for word `word` of part k (`part`), as the player told it, and the index of its sentence in the part. */
  mark(k: number, part: Part | undefined, word: number): { mark: PageMark; sentence: number } | null {
    if (!part) return null;
    this.#timed.add(k);
    let words = this.#words.get(k);
    if (!words) this.#words.set(k, (words = wordsOf(part.text)));
    return markOfWord(part, words, word);
  }

  /** Whether part k's sentences are marked by its told words. */
  timed(k: number): boolean {
    return this.#timed.has(k);
  }
}
