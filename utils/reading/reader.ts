/**
 * The reader: the listener's commands, and the one owner of the reading's state (its view, its run, the
 * player's load). What a command or event does to the state is the table's (`machine.ts`), run by the one
 * driver (`driver.ts`); asking (`asking.ts`), starting (`starting.ts`), jumping (`jumping.ts`), restoring
 * (`restore.ts`) and the player's reports (`player-events.ts`) act through `inside`. Each reading is a
 * `ReadingRun` replaced on start. Saves what the popup shows on every change, so a restarted worker carries on.
 */
import pLimit from 'p-limit';
import { ignore, logIgnored } from '../log';
import type { PlayerEvent } from '../audio/player-protocol';
import type { Outcome } from '../messaging/protocol';
import type { Playback } from '../storage/settings';
import type { ReaderDeps, ReadingRequest } from './deps';
import { runHost } from './host';
import { placeOfBlock, ReadingError, timeAtOffset } from './plan';
import { growReading } from './growth';
import { SleepTimer } from './sleep';
import { prepare } from './prepare';
import { errorViewOf, ReadingRun } from './run';
import { estimateSave, fetchForSave } from './save';
import type { SaveEstimate, SaveOrder } from '../messaging/views';
import { Delivery, type DeliveryHost, type PartialHold, restOf } from './delivery';
import { IDLE_VIEW, isActive, type ReadingView } from './state';
import { type ViewChange, viewAfter } from './view';
import { diagnostics } from '../diagnostics/wired';
import { drive } from './driver';
import { askAgain, setBlockOn } from './asking';
import type { ReaderInside } from './inside';
import { moneyOf, type ReadingEvent, step } from './machine';
import { onPlayerEvent } from './player-events';
import { restoreReading } from './restore';
import { carryOn, writeFirst } from './starting';
import { moveTo, resumeFromOffer } from './jumping';
import { changePlayback, loadPlayer } from './player-load';
import { NETWORK_PAUSE_AFTER_MS, type NetworkNews, NetworkWait } from './network-wait';

export type { ReaderDeps, ReaderStore, ReadingRequest } from './deps';
export { ReadingError };

export class Reader {
  view: ReadingView = IDLE_VIEW;
  private run: ReadingRun | null = null;
  private delivery: Delivery | null = null;
  /** The player's current load: its events before a jump must not move the reading back (null: not known after a restart). */
  private load: number | null = null;
  /** Speed and volume changes, applied one after another in the order made. */
  private readonly playbackChanges = pLimit(1);
  /** Jumps, one at a time: two quick presses of "next" move two parts, never one. */
  private readonly jumps = pLimit(1);
  /** Starts called and not yet `extracting` (a start in the popup then leaves them alone). */
  private starting = 0;
  readonly ready: Promise<void>;
  /** `ready` has resolved (a start need not wait for it). */
  private restored = false;
  private readonly sleep: SleepTimer;
  /** The wait for the service when it cannot be reached: one for every request (the network is one fact). */
  private readonly network: NetworkWait;

  /** What the reader's parts (`asking`, `restore`, `player-events`) act through: the reader's state changes only here. */
  private readonly inside: ReaderInside;

  constructor(private readonly deps: ReaderDeps) {
    this.sleep = new SleepTimer({
      deps,
      run: () => this.run,
      view: () => this.view,
      load: () => this.load,
      show: (change) => this.show(change),
      pause: () => this.pause(),
      poke: () => this.delivery?.poke(),
    });
    const told: Record<NetworkNews, ReadingEvent> = { unreachable: { type: 'unreachable' }, reachable: { type: 'reachable' }, expired: { type: 'wait-expired' } };
    this.network = new NetworkWait({
      now: () => deps.now(),
      timer: (ms, fire) => {
        const cancel = new AbortController();
        deps.sleep(ms, cancel.signal).then(fire, () => undefined);
        return () => cancel.abort();
      },
      pauseAfterMs: () => deps.networkPauseAfterMs?.() ?? NETWORK_PAUSE_AFTER_MS,
      // What the listener sees of the wait is the table's.
      tell: (news) => void this.command(told[news]).catch(ignore('waiting for the network')),
      keepAwake: deps.keepAwake,
    });
    deps.onOnline?.(() => this.network.online());
    this.inside = {
      deps,
      sleep: this.sleep,
      network: this.network,
      view: () => this.view,
      run: () => this.run,
      delivery: () => this.delivery,
      active: () => this.active,
      show: (change) => this.show(change),
      // One event through the reading's table, its effects run by the one driver (`driver.ts`).
      drive: (event, shown) => drive(this.inside, event, shown),
      end: (silence) => this.end(false, silence),
      fail: (err) => drive(this.inside, { type: 'fault' }, { error: errorViewOf(err) }),
      beginLoad: () => (this.load = (this.load ?? 0) + 1),
      load: () => this.load,
      takeLoad: (load) => {
        if (this.load !== null && load !== this.load) return false;
        this.load = load;
        return true;
      },
      play: (load, part, partTime, settleUntil) => this.play(load, part, partTime, settleUntil),
      deliverFrom: (run, from, hold, appended) => {
        const delivery = new Delivery(run, this.host(run), 0, appended);
        this.pump(delivery, from, hold);
      },
      grow: (run, tabId, settings, price) => growReading(run, { deps, current: () => this.run === run, view: () => this.view, show: (change) => this.show(change) }, tabId, settings, price),
      command: (name) => (name === 'next' || name === 'prev' ? this.jump(name === 'next' ? 1 : -1) : this[name]()),
      take: (view, run) => {
        this.view = viewAfter(this.view, { type: 'restored', view }, view.updatedAt);
        this.run = run;
        // What it may buy is its state's, as saved.
        run?.purse.enter(moneyOf(view.state));
      },
    };
    this.ready = restoreReading(this.inside).catch(async (err) => {
      logIgnored('restoring the reading after a restart of the background', err);
      await this.inside.drive({ type: 'stop' });
    });
    void this.ready.then(() => (this.restored = true));
  }

  get active(): boolean {
    return isActive(this.view.state);
  }

  /** Save as MP3 is fetching this reading's missing parts (a start from a page must wait for the file). */
  get saving(): boolean {
    return !!this.run?.purse.saveGrant;
  }

  /** The address of the page being read ('' when none, or not known). */
  get pageUrl(): string {
    return this.run?.url ?? '';
  }

  /**
   * A start a page asked for (click-to-read's ▶): never in place of a reading that waits for the
   * listener's answer (asking first) or is being saved, which only the listener may end. False when refused.
   */
  async startFromPage(req: ReadingRequest): Promise<boolean> {
    if (!this.restored) await this.ready;
    if (this.view.state === 'confirm' || this.saving) return false;
    void this.start(req);
    return true;
  }

  async start(req: ReadingRequest): Promise<void> {
    // Counted from the call itself: the popup the toolbar click opens asks to start too, and must find this one.
    this.starting++;
    diagnostics.mark('start');
    // The text is asked for at once, while the last reading is ended and this one is set up; the player
    // (Chrome's offscreen document) is opened meanwhile, not after.
    const extraction = req.extract();
    extraction.catch(() => undefined);
    // And so are the key check and the account (its price): not after the last reading is ended and this
    // one's first view written (on the way wherever the service's round trip outlasts the extraction).
    // The start's writes wait until the page has answered (`writeFirst`): asked for before the account is.
    const writesAfter = this.deps.startWritesAfter?.(extraction) ?? null;
    const prepared = prepare(this.deps, () => extraction);
    prepared.catch(() => undefined);
    this.deps.player.warm?.();
    const run = new ReadingRun(req.id ?? this.deps.newId());
    let sleepAt = 0;
    let firstWrites: Promise<unknown> = Promise.resolve();
    try {
      await this.ready;
      await this.end(true);
      this.run = run;
      // The sleep timer outlives a reading.
      sleepAt = this.view.sleepAt > this.deps.now() ? this.view.sleepAt : 0;
      // "To the end of the article" goes with the reading it was set in, or the one replacing it.
      const sleepAtEnd = this.active && this.view.sleepAtEnd === true;
      // So does "to the end of this chapter" (another chapter chosen: the end of that one).
      const sleepAtChapter = this.active && this.view.sleepAtChapter === true;
      // The view in memory is this reading's at once; it is written with the last plan's clearing.
      const state = step(this.view.state, { type: 'start' }).state;
      this.view = viewAfter(this.view, { type: 'begun', id: run.id, state, tabId: req.tabId, source: req.source, sleepAt, sleepAtEnd, sleepAtChapter }, this.deps.now());
      const first = this.view;
      firstWrites = writeFirst(this.deps, { current: () => this.run === run, shown: () => this.view === first }, first, writesAfter);
    } finally {
      this.starting--;
    }
    if (sleepAt && !this.sleep.armed) this.sleep.arm();
    await carryOn(this.inside, run, req, prepared, firstWrites);
  }

  /**
   * The popup's and the toolbar's start: after a worker restart the saved reading is restored first, so
   * an active one is kept. `decided` learns whether this call starts a reading, before it begins.
   */
  async startUnlessActive(req: ReadingRequest, decided?: (starts: boolean) => void): Promise<void> {
    // Once restored, decided in the call itself: the reading's start (and its first ask of the page) comes
    // before what the caller does next. Firefox's toolbar opens its popup right after this call, which
    // held the background's thread before the page was asked.
    if (!this.restored) await this.ready;
    const starts = !this.active && this.starting === 0;
    decided?.(starts);
    if (starts) await this.start(req);
  }

  /** While the reading asks first: a block of the preview switched off (or on again); `asking.ts`. */
  async setBlockOn(block: number, on: boolean): Promise<void> {
    await this.ready;
    await setBlockOn(this.inside, block, on);
  }

  /**
   * Ends the reading; a part under way still finishes into the cache (it is paid for). `drop`: nothing of the
   * reading runs on, not even Save as MP3 (the key was removed and its audio is being deleted).
   */
  async stop({ drop = false } = {}): Promise<void> {
    diagnostics.mark('stop:asked');
    await this.ready;
    if (drop) this.run?.dispose();
    await this.inside.drive({ type: 'stop' });
    diagnostics.mark('stop:shown');
  }

  /** The listener's commands that only the reading's table decides on (`machine.ts`). */
  readonly confirm = () => this.command({ type: 'confirm' });
  readonly pause = () => this.command({ type: 'pause' });
  readonly resume = () => this.command({ type: 'resume' });
  readonly toggle = () => this.command({ type: 'toggle' });

  private async command(event: ReadingEvent): Promise<void> {
    await this.ready;
    await this.inside.drive(event);
  }

  /**
   * The sleep timer: the listening stops `minutes` from now (null: off), at the end of the sentence
   * then being read; nothing past that point is requested. It outlives a reading (a new one keeps it).
   */
  async setSleepTimer(minutes: number | null, atEnd = false, atChapter = false): Promise<void> {
    await this.ready;
    const sleepAt = minutes !== null && minutes > 0 ? this.deps.now() + Math.round(minutes * 60_000) : 0;
    await this.show({ type: 'sleep', sleepAt, sleepAtEnd: atEnd && !sleepAt, sleepAtChapter: atChapter && !sleepAt && !atEnd });
    this.sleep.arm();
  }

  /** Moves by `delta` parts (previous/next); quick presses are taken one after another, each from where the last one landed. */
  jump(delta: number): Promise<void> {
    return this.jumps(async () => {
      await this.ready;
      await moveTo(this.inside, this.view.part + delta);
    });
  }

  /** Jumps to part `k`; audio already received comes from the cache, unpaid again. */
  jumpTo(k: number): Promise<void> {
    return this.jumps(async () => {
      await this.ready;
      await moveTo(this.inside, k);
    });
  }

  /**
   * A click on a paragraph of the page being read (the book page): the reading moves to it among its own
   * parts, so audio already received plays from the cache, unpaid again (a new reading from there cuts its
   * parts otherwise, and would buy them all again). False when this tab's reading is not under way or no
   * part counted so far holds the block: the page then starts a reading there.
   */
  jumpToBlock(tabId: number, block: number): Promise<boolean> {
    return this.jumps(async () => {
      await this.ready;
      const run = this.view.tabId === tabId ? this.run : null;
      const at = run && placeOfBlock(run.parts, block);
      return !!at && moveTo(this.inside, at.part, timeAtOffset(run.parts[at.part]!, at.offset, run.pace.partDuration(at.part)));
    });
  }

  /** "Continue from 12:40": to where the listener stopped on this page last time (`jumping.ts`). */
  resumeFromOffer(): Promise<void> {
    return this.jumps(async () => {
      await this.ready;
      await resumeFromOffer(this.inside);
    });
  }

  /** Save as MP3: what the parts not received yet would cost (`save.ts`). */
  async saveEstimate(chapter = false): Promise<SaveEstimate> {
    await this.ready;
    return estimateSave(this.run, this.deps.cache, chapter ? this.view.part : null);
  }

  /** Save as MP3, confirmed: the parts the listener was shown the cost of, and nothing else (`save.ts`). */
  async fetchMissing(order: SaveOrder): Promise<Outcome> {
    await this.ready;
    const run = this.run;
    return run ? fetchForSave(run, this.host(run), this.deps.cache, order) : { ok: false, code: 'save-changed' };
  }

  /** Speed and volume: applied by the player to what it already holds, remembered for later readings. */
  async setPlayback(patch: Partial<Playback>): Promise<Playback> {
    await this.ready;
    // Read, merge, write: one change at a time, or a quick speed-then-volume would lose the speed.
    return this.playbackChanges(() => changePlayback(this.inside, patch));
  }

  async onPlayerEvent(event: PlayerEvent): Promise<void> {
    await this.ready;
    await onPlayerEvent(this.inside, event);
  }

  /** Loads the player (load number `load`, from `beginLoad`, taken before the view moved) and feeds it. */
  private async play(load: number, startPart: number, seekInPart: number, settleUntil = 0): Promise<void> {
    const run = this.run!;
    // Well into a part held nowhere (lost with a player mid-stream): its rest from the sentence there.
    const rest = await restOf(run, this.deps.cache, startPart, seekInPart);
    // Replaced meanwhile (another reading, or a later load: a jump while the cache was looked up).
    if (this.run !== run || this.load !== load) return;
    const at = rest ? { load, startPart, seekInPart: 0, partOffset: rest.partOffset } : { load, startPart, seekInPart };
    const { loaded, player } = loadPlayer(this.deps, run, this.view, at);
    const delivery = new Delivery(run, { ...this.host(run), player }, settleUntil);
    this.delivery?.stop();
    this.delivery = delivery;
    this.pump(delivery, startPart, rest?.hold ?? null);
    await loaded;
  }

  private pump(delivery: Delivery, from: number, hold: PartialHold | null): void {
    this.delivery = delivery;
    delivery.pump(from, hold).catch(async (err: unknown) => {
      if (delivery.signal.aborted || this.delivery !== delivery) return;
      await this.inside.fail(err);
    });
  }

  /** Requests of `run`, and where their bills and the reading's turns go. */
  private host(run: ReadingRun): DeliveryHost {
    return runHost(run, this.deps, {
      current: () => this.run === run,
      view: () => this.view,
      show: (change) => this.show(change),
      askAgain: () => askAgain(this.inside, run),
      network: this.network,
    });
  }

  /** Ends the reading's requests and audio (`silence`: the player is told to stop); `replace`: a new reading takes its place. */
  private async end(replace: boolean, silence = true): Promise<void> {
    const run = this.run;
    this.delivery?.stop();
    this.delivery = null;
    // Its requests end by their signals; the next reading's wait, if any, begins anew.
    this.network.forget();
    if (!run) return;
    if (replace) run.dispose();
    else run.close();
    if (run.band.marked && this.view.tabId !== null) this.deps.highlight(this.view.tabId, null);
    run.band.mark('');
    if (silence && this.view.id === run.id && this.active) {
      await this.deps.player.post({ type: 'stop', readingId: run.id }).catch(ignore('stopping the player'));
      diagnostics.mark('end:player-told');
    }
  }

  /** What the listener is shown after `change` (`view.ts`, the one function that decides it), saved for the popup. */
  private async show(change: ViewChange): Promise<void> {
    const wasActive = this.active;
    this.view = viewAfter(this.view, change, this.deps.now());
    if (change.type === 'step' && change.state === 'extracting') this.deps.badge(null);
    if (wasActive && change.type === 'step' && change.state === 'error') this.deps.badge(this.view.error?.code ?? 'error');
    await this.deps.store.saveView(this.view);
  }
}
