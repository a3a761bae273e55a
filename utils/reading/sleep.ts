/**
 * The reader's sleep timer: it waits (again after a restart of the background), then lets the sentence
 * being read finish and pauses the reading; parts that would start after it is up are held back, never
 * requested. Its arithmetic is `sleep-timer.ts`; the reader (`reader.ts`) owns the view it reads.
 */
import { STOP_PAST_S } from '../audio/player-protocol';
import { ignore } from '../log';
import type { ReaderDeps } from './deps';
import type { ReadingRun } from './run';
import { sleepHoldFrom, untilSentenceEnd } from './sleep-timer';
import type { ReadingView } from './state';
import type { ViewChange } from './view';

/** What the timer needs of the reader. */
export interface SleepContext {
  deps: Pick<ReaderDeps, 'sleep' | 'now' | 'player'>;
  run(): ReadingRun | null;
  /** The player's current load (a new one forgets what it was told). */
  load(): number | null;
  view(): ReadingView;
  show(change: ViewChange): Promise<void>;
  pause(): Promise<void>;
  /** The hold moved on: the delivery may request what is now allowed. */
  poke(): void;
}

/**
 * The timer looks at the wall clock at least this often: a timer's delay does not count the time the
 * machine slept (a lid closed for ten minutes would put the pause ten minutes late), the clock does.
 */
export const SLEEP_CHECK_MS = 5_000;

export class SleepTimer {
  private timer: AbortController | null = null;
  /** The part the player was told not to play into ("to the end of this chapter"), with its reading and load ('': none). */
  private told = '';

  constructor(private readonly ctx: SleepContext) {}

  /** Whether a timer is waiting now. */
  get armed(): boolean {
    return this.timer !== null;
  }

  /** Waits for the view's `sleepAt` (none: no timer), and holds back the parts past it. */
  arm(): void {
    this.timer?.abort();
    this.timer = null;
    this.hold();
    const sleepAt = this.ctx.view().sleepAt;
    if (!sleepAt) return;
    const timer = new AbortController();
    this.timer = timer;
    this.wait(sleepAt, timer);
  }

  /** Until `sleepAt` by the wall clock, looked at every SLEEP_CHECK_MS at most (see there). */
  private wait(sleepAt: number, timer: AbortController): void {
    const left = sleepAt - this.ctx.deps.now();
    if (left <= 0) return void this.fire(timer.signal);
    this.ctx.deps.sleep(Math.min(left, SLEEP_CHECK_MS), timer.signal).then(
      () => this.wait(sleepAt, timer),
      () => undefined, // changed or cleared
    );
  }

  /**
   * Parts that would start after the timer is up are not requested: the hold is the first of them. "To the end of
   * this chapter": the next chapter's first part is not requested either (the run holds it back from where it plays).
   */
  hold(): void {
    const run = this.ctx.run();
    if (!run) return;
    const view = this.ctx.view();
    const lifted = run.sleepAtChapter && !view.sleepAtChapter;
    if (!view.sleepAtChapter) run.sleepChapterOf = null;
    else if (run.sleepChapterOf === null) run.sleepChapterOf = view.part;
    if (run.holdBackFrom(sleepHoldFrom(run.pace, view, view.sleepAt, this.ctx.deps.now())) || lifted) this.ctx.poke();
    this.followChapter();
  }

  /**
   * "To the end of this chapter": the player is told the part it must not play into, the next chapter's first.
   * Parts from there on are not requested while the timer is set, but the player may hold some already (short
   * parts given ahead before the timer was set): it stops where that part begins. Told again as more parts are
   * counted, and after each new load. The chapter is the one playing when the timer was set (or jumped to): a
   * report of the next chapter's first part a moment before the player stops there does not move it on. Only
   * when the player is well into a later part (told too late, it did not go back) is the chapter playing taken.
   */
  followChapter(): void {
    const run = this.ctx.run();
    const view = this.ctx.view();
    if (run?.sleepAtChapter && view.part >= run.chapterEnd() && view.partTime > STOP_PAST_S) {
      run.sleepChapterOf = view.part;
      this.ctx.poke();
    }
    const next = run?.chapterEnd() ?? Infinity;
    const part = Number.isFinite(next) ? next : null;
    const told = part === null ? '' : `${view.id} ${this.ctx.load()} ${part}`;
    if (told === this.told) return;
    this.told = told;
    void this.ctx.deps.player.post({ type: 'stop-before', readingId: view.id, part }).catch(ignore('telling the player where the chapter ends'));
  }

  /** The listener moved the reading (a jump): the chapter to finish is the one it moved to. */
  jumped(): void {
    const run = this.ctx.run();
    if (run?.sleepAtChapter) run.sleepChapterOf = this.ctx.view().part;
  }

  /** The player stopped where part `part` begins, as told: the chapter is over, the reading pauses there. */
  async stoppedBefore(part: number): Promise<void> {
    const run = this.ctx.run();
    if (run?.sleepAtChapter && run.chapterEnd() === part) return this.pauseAtChapter(run, part);
    this.told = '';
    // Not wanted any more (the timer changed meanwhile): the player goes on, unless the reading is paused anyway.
    const view = this.ctx.view();
    if (view.state === 'playing' || view.state === 'loading') await this.ctx.deps.player.post({ type: 'resume', readingId: view.id });
  }

  /**
   * The player ran out of audio in part `part`, all of which it was given: when that is the chapter's last part
   * ("to the end of this chapter"), the reading pauses there. The next chapter stays held back while paused
   * (resume lifts it, as it lifts the timer's).
   */
  async ranDry(part: number, handedWhole: boolean): Promise<void> {
    const run = this.ctx.run();
    const view = this.ctx.view();
    if (!run || !run.sleepAtChapter || !handedWhole || view.state !== 'playing') return;
    if (run.chapterEnd() !== part + 1) return;
    await this.pauseAtChapter(run, part + 1);
  }

  /**
   * The chapter before part `next` is over: the timer is done, the next chapter stays held back while paused, and
   * the player no longer stops there (it would stop again on resume).
   */
  private async pauseAtChapter(run: ReadingRun, next: number): Promise<void> {
    run.holdBackFrom(next);
    run.sleepChapterOf = null;
    this.followChapter();
    await this.ctx.show({ type: 'sleep', sleepAt: 0, sleepAtChapter: false });
    await this.ctx.pause();
  }

  /** The timer is up: the sentence being read is finished, then the reading pauses (resume carries on, unpaid). */
  private async fire(signal: AbortSignal): Promise<void> {
    const run = this.ctx.run();
    const view = this.ctx.view();
    if (run && (view.state === 'playing' || view.state === 'loading')) {
      await this.ctx.deps.sleep(untilSentenceEnd(run.pace, view), signal).catch(() => undefined);
      if (signal.aborted || this.ctx.run() !== run) return;
      // Paused, the hold stays: nothing more is paid for while the listener sleeps (resume lifts it).
      await this.ctx.show({ type: 'sleep', sleepAt: 0 });
      await this.ctx.pause();
    } else {
      await this.ctx.show({ type: 'sleep', sleepAt: 0 });
      this.hold();
    }
  }
}
