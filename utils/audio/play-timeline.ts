/**
 * Where each part of a load lies on the player's one media timeline (parts play back to back in one
 * SourceBuffer), and what is known of each: its bytes received, whether it is whole. From that: the part and
 * the second in it at a point of the timeline, the seconds played in the reading, and what a restarted
 * background needs to hear (`held`). Pure: the player (`mse-player.ts`) feeds it; tests feed it numbers.
 */
export class PlayTimeline {
  /** Where each part begins on the timeline (s). */
  readonly #starts = new Map<number, number>();
  readonly #bytes = new Map<number, number>();
  readonly #complete = new Set<number>();
  /** The load's first part, the second in it the load began at, and the seconds played before the load. */
  #firstPart = 0;
  #seekBase = 0;
  #positionBase = 0;
  /** Where the first part's audio begins in the part (s): its rest, from a sentence, when nothing of it was held. */
  #partOffset = 0;

  /**
   * A new load: from part `startPart`, `seekInPart` seconds into its audio, after `positionBase` seconds of the
   * reading; the audio given for `startPart` begins `partOffset` seconds into the part (0: at its start).
   */
  load(startPart: number, seekInPart: number, positionBase: number, partOffset = 0): void {
    this.clear();
    this.#firstPart = startPart;
    this.#seekBase = seekInPart;
    this.#positionBase = positionBase;
    this.#partOffset = partOffset;
  }

  clear(): void {
    this.#starts.clear();
    this.#bytes.clear();
    this.#complete.clear();
  }

  /** Seconds of the reading played before this load. */
  get base(): number {
    return this.#positionBase;
  }

  /** Bytes of part k came. */
  received(k: number, bytes: number): void {
    this.#bytes.set(k, (this.#bytes.get(k) ?? 0) + bytes);
  }

  /** Part k's bytes are all here. */
  completed(k: number): void {
    this.#complete.add(k);
  }

  /** Whether any part is whole. */
  get anyComplete(): boolean {
    return this.#complete.size > 0;
  }

  /** Part k's first bytes go into the buffer where it ends now (`at`): it begins there (kept from the first time). */
  begins(k: number, at: number): void {
    if (!this.#starts.has(k)) this.#starts.set(k, at);
  }

  /** Where part k begins on the timeline (s); undefined until its first bytes went in. */
  startOf(k: number): number | undefined {
    return this.#starts.get(k);
  }

  /** Where the load's start lies on the timeline: its first part's start plus the second it began at. */
  seekTarget(seconds: number): number {
    return (this.#starts.get(this.#firstPart) ?? 0) + seconds;
  }

  /** Seconds played in this reading at timeline point `at` (the background's base plus this load's time). */
  position(at: number): number {
    const first = this.#starts.get(this.#firstPart) ?? 0;
    return this.#positionBase + Math.max(0, at - first - this.#seekBase);
  }

  /** The part being played at timeline point `at` (a part is taken 10 ms before it begins). */
  partAt(at: number): number {
    const t = at + 0.01;
    let part = this.#firstPart;
    for (const [p, start] of this.#starts) if (start <= t && p > part) part = p;
    return part;
  }

  /** Where `at` is in its part (ms; negative just before the part begins) and how long to the next part's start (null: not known). */
  inPart(at: number): { part: number; ms: number; partLeftMs: number | null } {
    const part = this.partAt(at);
    const next = this.#starts.get(part + 1);
    return { part, ms: (at - (this.#starts.get(part) ?? 0)) * 1000, partLeftMs: next !== undefined && next > at ? (next - at) * 1000 : null };
  }

  /**
   * Where playback is and what the player holds, as the background is told: the part and the second in it,
   * the seconds played in the reading, the last of the load's parts held whole in a row, and of the part after
   * it the bytes and seconds held (`bufferedEnd`: where the buffer ends).
   */
  held(at: number, bufferedEnd: number): { part: number; partTime: number; position: number; complete: number; partialBytes: number; partialSeconds: number } {
    const part = this.partAt(at);
    let complete = this.#firstPart - 1;
    while (this.#complete.has(complete + 1)) complete++;
    const partialStart = this.#starts.get(complete + 1);
    const offset = (k: number) => (k === this.#firstPart ? this.#partOffset : 0);
    return {
      part,
      partTime: Math.max(0, at - (this.#starts.get(part) ?? 0)) + offset(part),
      position: this.position(at),
      complete,
      partialBytes: this.#bytes.get(complete + 1) ?? 0,
      partialSeconds: partialStart !== undefined ? Math.max(0, bufferedEnd - partialStart) + offset(complete + 1) : 0,
    };
  }
}
