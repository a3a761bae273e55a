/**
 * The player's side of "to the end of this chapter" (`stop-before`): playback stops where a given part begins,
 * even when the player already holds that part's audio. Paused at that point exactly — a timer set for it, the
 * element's own `timeupdate` coming 4 times a second at best — so a resume begins the part at its start.
 */

import { STOP_PAST_S } from './player-protocol';

/** What the stop needs of the player: where a part begins on its timeline, whether playback has begun. */
export interface StopHost {
  /** Where part `part` begins on the timeline (s); undefined until its first bytes went in. */
  startOf(part: number): number | undefined;
  started(): boolean;
  /** Playback was paused where part `part` begins. */
  stopped(part: number): void;
}

/** Within this much of the part's start (s), playback is there. */
const THERE = 0.005;

export class StopBefore {
  #part: number | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly audio: HTMLMediaElement,
    private readonly host: StopHost,
  ) {
    audio.addEventListener('pause', () => clearTimeout(this.#timer));
    // Playback began or moved, or its rate changed: the time to the part's start is taken again.
    for (const event of ['playing', 'ratechange', 'timeupdate']) audio.addEventListener(event, () => this.check());
  }

  /** The part not to play into (null: none). */
  set(part: number | null): void {
    const at = part === null ? undefined : this.host.startOf(part);
    // Asked when already well into that part (a report behind the player): its chapter is the one playing now.
    this.#part = at !== undefined && this.audio.currentTime - at > STOP_PAST_S ? null : part;
    this.check();
  }

  /** Forgets it (a new load, a stop). */
  clear(): void {
    this.#part = null;
    clearTimeout(this.#timer);
  }

  /** Looks again (also when a part's start became known). */
  check(): void {
    clearTimeout(this.#timer);
    const part = this.#part;
    const at = part === null ? undefined : this.host.startOf(part);
    const { audio } = this;
    if (part === null || at === undefined || !this.host.started() || audio.paused) return;
    // Late (a busy machine delays the timer), it still stops, and goes back to the part's start.
    const left = at - audio.currentTime;
    if (left > THERE) {
      this.#timer = setTimeout(() => this.check(), (left / (audio.playbackRate || 1)) * 1000);
      return;
    }
    this.#part = null;
    audio.pause();
    audio.currentTime = at;
    this.host.stopped(part);
  }
}
