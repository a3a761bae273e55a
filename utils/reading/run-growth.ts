/**
 * A reading whose text is still being counted (background): a PDF read in batches, an article read title first.
 * Its parts are added as they come (`counted`, by `growth.ts`, its one writer); the delivery, the look-ahead and
 * the questions asked wait for them here.
 */
import type { Part } from '../text/parts';
import type { ReadingPlan } from './plan';

/** What the growth reads of its reading. */
export interface GrowthHost {
  plan(): ReadingPlan | null;
  parts(): Part[];
  end(): number;
  /** After a stopping error nothing at or past this part is asked for. */
  stopAt(): number;
  readonly signal: AbortSignal;
}

export class RunGrowth {
  /** More of the text is still being extracted: its parts are added as they come. */
  #growing = false;
  /** Pages of the document could not be read (skipped). */
  #incomplete = false;
  #waiters: Array<() => void> = [];
  /** The growth, held back until something waits for it (`whenWanted`). */
  #held: (() => void) | null = null;

  constructor(private readonly host: GrowthHost) {}

  get growing(): boolean {
    return this.#growing;
  }

  get incomplete(): boolean {
    return this.#incomplete;
  }

  /** The text is counted in batches from now on (planned so; or restored in the middle of its count). */
  begin(): void {
    this.#growing = true;
  }

  /** New parts were added (or the growth ended): whoever waits for them looks again. */
  grew(): void {
    const waiting = this.#waiters;
    this.#waiters = [];
    waiting.forEach((w) => w());
  }

  /** A batch was planned: its parts added, its blocks counted, its end or its gaps noted. */
  counted(parts: ReadingPlan['parts'], blocks: number, more: boolean, incomplete: boolean): void {
    const plan = this.host.plan()!;
    plan.parts.push(...parts);
    plan.grows = more && plan.grows ? { ...plan.grows, blocks: plan.grows.blocks + blocks } : undefined;
    if (!more) this.#growing = false;
    if (incomplete) this.#incomplete = true;
  }

  /** The count has ended (whole, or cut short): the plan no longer grows, and whoever waits for it looks again. */
  stop(): void {
    const plan = this.host.plan();
    if (plan?.grows) plan.grows = undefined;
    this.#growing = false;
    this.grew();
  }

  /**
   * The rest of an article read title first is fetched from its page only once something waits for it
   * (`next`): the title playing, the title's audio all handed over, a confirmation to decide. The page
   * extracts it only then: fetched at once, its planning and writes shared the first audio's few
   * milliseconds, and the page's Readability a core.
   */
  whenWanted(grow: () => void): void {
    this.#held = grow;
  }

  /** Resolves at the next growth (at once when the text is complete or the reading ended); starts a held growth. */
  next(): Promise<void> {
    const held = this.#held;
    this.#held = null;
    held?.();
    return this.grown();
  }

  /**
   * Resolves once an article read title first has its rest counted (at once for any other reading, or one
   * ended); `start`: fetches a rest held back rather than only waiting for it.
   */
  async titleCounted(start: boolean): Promise<void> {
    while (this.#growing && this.host.plan()?.grows?.continues && !this.host.signal.aborted) await (start ? this.next() : this.grown());
  }

  /** Resolves at the next growth, without starting one held back. */
  grown(): Promise<void> {
    if (!this.#growing || this.host.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Whether part k exists, waiting for it while the text is still growing. */
  async hasPart(k: number): Promise<boolean> {
    while (k >= this.host.parts().length && k < this.host.stopAt() && this.#growing && !this.host.signal.aborted) await this.next();
    return k < this.host.end();
  }
}
