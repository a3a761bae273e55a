/**
 * Everything one reading owns, in one object that is replaced when the next reading starts (its pace and
 * its highlight band in objects of their own, `pace.ts` and `band.ts`, each with one writer):
 * nothing of a reading can leak into the next one. It holds no logic beyond its own bookkeeping.
 */
import type { LookaheadFacts } from './lookahead';
import type { Part } from '../text/parts';
import { RunDownloads } from './run-downloads';
import { RunGrowth } from './run-growth';
import type { AccountInfo, Settings } from '../storage/settings';
import type { ExtractedText } from '../text/extract';
import { Purse, type SavedPurse } from '../money/purse';
import { Ledger } from '../money/ledger';
import { logIgnored } from '../log';
import { costOf, parseRub, type RubUnits } from '../money/money';
import { charsWithin } from '../money/gate';
import { boundTitle } from '../text/title';
import { siteName } from '../text/urls';
import { ServiceError } from '../speech/client';
import { isKnownErrorCode } from '../speech/errors';
import { keyOf, ReadingError, type ReadingPlan, splitPart } from './plan';
import { Band } from './band';
import { Pace, type SavedPace } from './pace';
import type { ReadingView } from './state';

export type ErrorView = NonNullable<ReadingView['error']>;

/** What a reading was planned from. */
export type Planning = { text: ExtractedText; settings: Settings; account: AccountInfo };

/** How a reading's failure is kept and shown: a code (the pages render the words), never a message of ours. */
export function errorViewOf(err: unknown): ErrorView {
  if (err instanceof ReadingError) return { code: err.code, requestId: '', detail: '' };
  if (err instanceof ServiceError) return { code: err.code, requestId: err.requestId, detail: isKnownErrorCode(err.code) ? '' : err.message };
  logIgnored('a reading ended in an unexpected error', err);
  return { code: 'network', requestId: '', detail: '' };
}

/** What survives a restart of the background besides the view and the plan (small: storage.session). */
export interface RunProgress {
  id: string;
  skipped: number[];
  stopAt: number | null;
  pendingError: ErrorView | null;
  /** What the user agreed to (absent in what an earlier version saved). */
  purse?: SavedPurse;
  /**
   * The speech pace measured on the parts received whole (characters and seconds): a restarted background
   * asks for the rest of a part cut mid-way from the sentence the player's audio reached, as this one would
   * (with a usual pace instead, a fast voice's cut is placed too early, often in the part's first sentence,
   * and the part is bought again whole).
   */
  pace?: SavedPace;
}

export class ReadingRun {
  /** The reading's lifetime: a stop, an error or the next reading ends its downloads. */
  readonly controller = new AbortController();
  /** Longer: until the next reading (Save as MP3 may fetch after the reading has ended). */
  private readonly life = new AbortController();
  #plan: ReadingPlan | null = null;
  ledger = new Ledger(0n);
  /** What the user agreed to spend on it, and what the spending gate let through. */
  readonly purse: Purse;
  /** What the reading was planned from, kept while it asks first (the preview may switch blocks off). */
  #planning: Planning | null = null;
  /** Blocks the listener switched off in the preview. */
  readonly #off = new Set<number>();
  /** Parts the service refused (skipped); the lookahead passes over them. */
  readonly #skipped = new Set<number>();
  /** After a stopping error (402 …) nothing at or past this part is requested again. */
  #stopAt = Infinity;
  /** A stopping error met while fetching: shown once what was received has played. */
  #pendingError: ErrorView | null = null;
  /** Requests of this reading by part key: a second wish for the same audio joins the first (its writer: the delivery). */
  readonly downloads = new RunDownloads();
  /** The player is being loaded again after it lost the reading. */
  #reloading = false;
  /** The player has said its audio plays (at least once). */
  #sounding = false;
  /** When the last jump was made: quick jumps in a row wait before paying for a part. */
  #lastJumpAt = 0;
  /** The page's site (or the PDF's file name), for the system's media controls. */
  site = '';
  /** The page's address: where the listener stops is kept by it ('' when not known). */
  url = '';
  /** The last position kept for this page (seconds), so it is written only when it moved on. */
  #keptAt = -Infinity;
  /** More of the text still being counted (a PDF read in batches, an article read title first): its writer, `growth.ts`. */
  readonly growth = new RunGrowth({ plan: () => this.#plan, parts: () => this.parts, end: () => this.end, stopAt: () => this.#stopAt, signal: this.controller.signal });
  private confirmGate: (() => void) | null = null;
  /** The speech pace, measured on the parts received whole (its writer: the downloads). */
  readonly pace = new Pace(() => this.parts);
  /** The highlight band on the page (its writer: the player's reports). */
  readonly band = new Band();

  constructor(
    readonly id: string,
    public title = '',
  ) {
    this.purse = new Purse(id);
  }

  /**
   * Takes its plan: the page's title, site and address, a ledger at the plan's price, the spending caps
   * it keeps to. A document read in batches (a PDF) is marked growing: the rest is planned as it comes.
   */
  adopt(text: ExtractedText, planned: { plan: ReadingPlan; price: RubUnits }, batched: boolean): void {
    this.title = boundTitle(text.title);
    this.site = boundTitle(siteName(text.site ?? ''), 100);
    this.url = text.url ?? '';
    this.ledger = new Ledger(planned.price);
    this.#plan = planned.plan;
    if (batched) {
      this.growth.begin();
      // An article read title first is cut as if read whole.
      this.#plan.grows = text.bound === undefined ? { blocks: text.blocks.length } : { blocks: text.blocks.length, continues: true };
    }
  }

  /** The run a restarted background carries on with, from what was saved: the plan, the bill so far, the progress, what was agreed to. */
  static fromSaved(view: ReadingView, plan: ReadingPlan, progress: RunProgress | null, threshold: RubUnits): ReadingRun {
    const run = new ReadingRun(view.id, view.title);
    run.#plan = plan;
    run.ledger = new Ledger(parseRub(plan.priceRub) ?? 0n, { cost: parseRub(view.costRub) ?? 0n, chars: view.chars });
    run.restoreProgress(progress);
    // Not kept (nothing was asked again mid-reading): the view says what was agreed to.
    const agreed = view.confirmReason ? view.estimateChars : charsWithin(threshold, run.ledger.price);
    const capApproval = view.confirmReason === 'budget' && view.state !== 'confirm' && !progress?.purse ? costOf(view.estimateChars, run.ledger.price) : null;
    run.purse.restore(progress?.id === view.id ? progress.purse : undefined, agreed, view.chars, capApproval);
    return run;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Aborted only when the next reading replaces this one (or the key is removed). */
  get lifeSignal(): AbortSignal {
    return this.life.signal;
  }

  get parts(): Part[] {
    return this.#plan?.parts ?? [];
  }

  /** The last part that may still be requested (exclusive). */
  get end(): number {
    return Math.min(this.parts.length, this.#stopAt);
  }

  key(k: number): string {
    return keyOf(this.#plan!, this.parts[k]!);
  }

  /** The sleep timer ends the listening within the part before this one: it is not requested (nor any after it). */
  #holdFrom = Infinity;

  /**
   * The sleep timer stops at the end of a chapter: a part of that chapter (null: no such timer). Nothing of the
   * next chapter is bought. Fixed when set, not the chapter of whatever part is reported playing: at the chapter's
   * end the report may name the next chapter's first part a moment before the player stops there.
   */
  sleepChapterOf: number | null = null;

  get sleepAtChapter(): boolean {
    return this.sleepChapterOf !== null;
  }

  /** Where the chapter the sleep timer finishes ends: the next chapter's first part (Infinity: none planned, or no such timer). */
  chapterEnd(): number {
    return this.sleepChapterOf === null ? Infinity : this.nextChapter(this.sleepChapterOf);
  }

  /** The first part after part `after` that begins a chapter (Infinity: none planned). */
  nextChapter(after: number): number {
    for (let k = after + 1; k < this.parts.length; k++) if (this.parts[k]!.chapter) return k;
    return Infinity;
  }

  /**
   * What the look-ahead rule (`lookahead.ts`) decides from, for part k while part `playing` plays. `received`:
   * whether part j's audio is all here (the delivery knows; none: nothing counts as received).
   */
  lookaheadFacts(k: number, playing: number, received: (j: number) => boolean = () => false): LookaheadFacts {
    const holdFrom = Math.min(this.#holdFrom, this.chapterEnd());
    return { k, playing, end: this.end, growing: this.growth.growing, skipped: this.#skipped, holdFrom, asking: this.purse.phase === 'asking', seconds: (j) => this.pace.partDuration(j), received };
  }

  progress(): RunProgress {
    return {
      id: this.id,
      skipped: [...this.#skipped],
      stopAt: Number.isFinite(this.#stopAt) ? this.#stopAt : null,
      pendingError: this.#pendingError,
      purse: this.purse.saved(),
      pace: this.pace.saved(),
    };
  }

  restoreProgress(p: RunProgress | null): void {
    if (!p || p.id !== this.id) return;
    p.skipped.forEach((k) => this.#skipped.add(k));
    this.#stopAt = p.stopAt ?? Infinity;
    this.#pendingError = p.pendingError;
    this.pace.restore(p.pace);
  }

  /** Resolves when the listener confirms the estimate; rejects when the reading ends first. */
  confirmation(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.signal.aborted) return reject(this.signal.reason);
      this.confirmGate = resolve;
      this.signal.addEventListener('abort', () => reject(this.signal.reason), { once: true });
    });
  }

  confirm(): void {
    this.confirmGate?.();
  }

  /** Ends the reading's requests not sent yet (and the rest of cut parts) and any wait for a confirmation. */
  close(): void {
    this.purse.close();
    this.controller.abort(new DOMException('The reading ended.', 'AbortError'));
    this.growth.grew();
    // A part under way finishes into the cache (it is paid for); the next reading's start ends it (`dispose`).
    this.downloads.letGoAll();
  }

  /** Replaced by the next reading: nothing of it may run on. */
  dispose(): void {
    this.close();
    this.life.abort(new DOMException('The reading was replaced.', 'AbortError'));
  }

  // What a reading holds is read freely; it is changed only by its own steps below.
  get plan(): ReadingPlan | null { return this.#plan; }
  get planning(): Planning | null { return this.#planning; }
  get off(): ReadonlySet<number> { return this.#off; }
  get skipped(): ReadonlySet<number> { return this.#skipped; }
  get stopAt(): number { return this.#stopAt; }
  get pendingError(): ErrorView | null { return this.#pendingError; }
  get reloading(): boolean { return this.#reloading; }
  get sounding(): boolean { return this.#sounding; }
  get keptAt(): number { return this.#keptAt; }
  get holdFrom(): number { return this.#holdFrom; }

  /** What it was planned from, kept while it asks first (null: no longer). */
  keepPlanning(planning: Planning | null): void { this.#planning = planning; }

  /** Planned again, without the blocks the listener switched off in the preview. */
  replan(plan: ReadingPlan): void { this.#plan = plan; }

  /** A block of the preview switched off or on again. */
  switchBlock(block: number, on: boolean): void {
    if (on) this.#off.delete(block);
    else this.#off.add(block);
  }

  /** Part k was found too long by the service: halved in the plan. */
  halve(k: number): void {
    this.#plan!.parts = splitPart(this.parts, k);
  }

  /** The service refused part k: passed over. */
  skip(k: number): void { this.#skipped.add(k); }

  /** A stopping error at part k: nothing at or past it is requested again. */
  stopping(k: number): void {
    this.#stopAt = Math.min(this.#stopAt, k);
  }

  /** A stopping error met while fetching, shown once what was received has played. */
  failLater(error: ErrorView): void { this.#pendingError = error; }

  /** A part's download, kept so that whoever needs the part next joins it. */
  /** The player's reports: it plays (`playing`), it reports its place, or it is being loaded again. */
  playerPlays(): void {
    this.#reloading = false;
    this.#sounding = true;
  }
  playerReports(): void { this.#reloading = false; }
  playerReloads(): void { this.#reloading = true; }

  /** A jump made now; answers when the last one was. */
  jumped(now: number): number {
    const last = this.#lastJumpAt;
    this.#lastJumpAt = now;
    return last;
  }

  /** The place kept on the page (seconds). */
  keptPlace(position: number): void { this.#keptAt = position; }


  /** The sleep timer holds back part k and every one after it; answers whether the hold moved on. */
  holdBackFrom(k: number): boolean {
    const before = this.#holdFrom;
    this.#holdFrom = k;
    return k > before;
  }
}
