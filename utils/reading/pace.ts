/**
 * A reading's speech pace, measured on the parts received whole: where the rest of a cut part begins, how
 * long a part plays (the sleep timer), which sentence is being said before a part's words are timed. Its one
 * writer is the reading's downloads (`heard`); a restarted background takes it up from the saved progress.
 */
import { mp3Duration } from '../audio/mp3-frames';
import type { Part } from '../text/parts';
import { DEFAULT_CHARS_PER_SECOND, sentenceAt } from './plan';

/** The pace as it is kept between lives of the background: characters and seconds heard. */
export interface SavedPace {
  chars: number;
  seconds: number;
}

export class Pace {
  #chars = 0;
  #seconds = 0;
  /** Seconds of audio of each part received whole. */
  readonly #partSeconds = new Map<number, number>();

  constructor(private readonly partsOf: () => readonly Part[]) {}

  get parts(): readonly Part[] {
    return this.partsOf();
  }

  /** Measures the pace on part k, received whole as `bytes`. */
  heard(k: number, bytes: Uint8Array): void {
    const seconds = mp3Duration(bytes);
    this.#partSeconds.set(k, seconds);
    const part = this.parts[k];
    if (!part) return;
    this.#chars += part.chars;
    this.#seconds += seconds;
  }

  charsPerSecond(): number {
    return this.#seconds > 0.3 ? this.#chars / this.#seconds : DEFAULT_CHARS_PER_SECOND;
  }

  /** Seconds of part k: measured when it was received whole, else estimated from the pace. */
  partDuration(k: number): number {
    return this.#partSeconds.get(k) ?? (this.parts[k]?.chars ?? 0) / this.charsPerSecond();
  }

  /** The sentence being spoken `partTime` seconds into part k, with the index of its block as extracted, and its index in the part. */
  sentence(k: number, partTime: number): ReturnType<typeof sentenceAt> {
    const part = this.parts[k];
    if (!part) return null;
    return sentenceAt(part, partTime, this.partDuration(k));
  }

  saved(): SavedPace {
    return { chars: this.#chars, seconds: this.#seconds };
  }

  restore(saved: SavedPace | undefined): void {
    if (!saved) return;
    this.#chars = saved.chars;
    this.#seconds = saved.seconds;
  }
}
