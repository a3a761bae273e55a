/**
 * The reader: commands, the state machine of a reading, and its persistence. Each reading is a
 * `ReadingRun` replaced on start; fetching is `fetcher`, feeding the player `scheduler`, money
 * `ledger`, the text's plan `plan`, the sleep timer `sleep`, the place kept on a page
 * `resume-place`, whether to ask first `ask-first`. Lives in the background and saves what the popup
 * shows on every change, so a restarted service worker carries on; the player only plays and reports.
 */
import pLimit from 'p-limit';
import { ignore, logIgnored } from '../log';
import type { PlayerEvent } from '../messaging/player';
import type { Outcome } from '../messaging/protocol';
import { costOf, formatRubPlain, parseRub, type RubUnits } from '../money/money';
import { clampPlayback, type Playback, type Settings } from '../storage/settings';
import { askFirstReason, boundOf } from './ask-first';
import { capsOf } from '../money/caps';
import { charsWithin } from '../money/gate';
import type { ReaderDeps, ReadingRequest } from './deps';
import { runHost } from './host';
import { planReading, previewOf, ReadingError } from './plan';
import { growReading } from './growth';
import { SleepTimer } from './sleep';
import { keepPlace, resumeOfferOf } from './resume-place';
import { prepare } from './prepare';
import { errorViewOf, ReadingRun } from './run';
import { fetchMissing, saveEstimate, type SaveEstimate, type SaveOrder } from './save';
import { Delivery, type DeliveryHost, JUMP_SETTLE_MS, markNeeded, type PartialHold } from './scheduler';
import { IDLE_VIEW, isActive, type ReadingView } from './state';
import { diagnostics } from '../diagnostics/wired';

export type { ReaderDeps, ReaderStore, ReadingRequest } from './deps';
export { ReadingError };

const round2 = (n: number) => Math.round(n * 100) / 100;

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

  constructor(private readonly deps: ReaderDeps) {
    this.sleep = new SleepTimer({
      deps,
      run: () => this.run,
      view: () => this.view,
      update: (patch) => this.update(patch),
      pause: () => this.pause(),
      poke: () => this.delivery?.poke(),
    });
    this.ready = this.restore().catch(async (err) => {
      logIgnored('restoring the reading after a restart of the background', err);
      if (this.active) await this.update({ state: 'stopped' });
    });
    void this.ready.then(() => (this.restored = true));
  }

  get active(): boolean {
    return isActive(this.view.state);
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
    // one's first view written (~10 ms, on the way wherever the service's round trip outlasts the extraction).
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
      // The view in memory is this reading's at once; it is written with the last plan's clearing.
      this.view = { ...IDLE_VIEW, id: run.id, state: 'extracting', tabId: req.tabId, source: req.source, costRub: formatRubPlain(0n), sleepAt, sleepAtEnd, updatedAt: this.deps.now() };
      firstWrites = this.writeFirst(run, this.view, writesAfter);
    } finally {
      this.starting--;
    }
    if (sleepAt && !this.sleep.armed) this.sleep.arm();
    try {
      // Written in the order asked: this reading's writes below (an error's view too) come after the first ones.
      await firstWrites;
      const { text, settings, account, stalePrice } = await prepared;
      run.signal.throwIfAborted();
      diagnostics.mark('prepared');
      // The place kept on this page is looked up while the reading is planned.
      const resumeLookup = text.url ? this.deps.getResume(text.url).catch(() => null) : Promise.resolve(null);
      const planned = planReading(run.id, text, settings, account);
      diagnostics.mark('planned');
      // A document read in batches (a PDF): the rest of its text is planned as it comes.
      const batched = text.more === true && req.tabId !== null;
      run.adopt(text, planned, batched);
      run.purse.caps = capsOf(settings);
      if (run.purse.caps) {
        await this.deps.wallet.ready;
        run.purse.spentAtStart = this.deps.wallet.spent();
      }
      this.deps.slots.setLimit(account.maxConcurrency);
      // Saved (for a restarted background) while the view is written.
      const planSaved = this.deps.store.savePlan(run.plan);
      // Written while the first part is asked for (the view in memory is already this one; the browser
      // keeps writes in the order they are asked for): waited for before the confirmation, or with the first part.
      const written = Promise.all([planSaved, this.update({ title: run.title, source: req.source || text.source, balanceRub: account.balanceRub, stalePrice, counting: batched, ...planned.view })]);
      written.catch(() => undefined);
      if (batched) {
        const grow = () => void this.grow(run, req.tabId!, settings, planned.price);
        // An article read title first: its rest once something waits for it (ReadingRun.growWhenWanted).
        if (text.bound !== undefined) run.growWhenWanted(grow);
        else grow();
      }
      await this.askFirstIfNeeded(run, { text, settings, account }, planned.price, batched, written);
      this.sleep.hold();
      const load = this.beginLoad();
      // The view is `loading` at once (in memory); its copy for the popup is written while the first part is asked for.
      const shown = this.update({ state: 'loading' });
      // The place kept on this page is offered once it is known: the first request does not wait for
      // the lookup (4–5 ms of the worker's time before it, on the toolbar path).
      void resumeLookup.then(async (point) => {
        // An article read title first: its place is looked for among all its parts, once they are counted.
        await run.titleCounted(false);
        const resumeOffer = resumeOfferOf(run, point);
        if (resumeOffer && this.run === run && this.active && this.view.position < resumeOffer.position) return this.update({ resumeOffer });
      }).catch(ignore('offering the place kept on the page'));
      await Promise.all([written, shown, this.play(load, 0, 0)]);
    } catch (err) {
      if (run.signal.aborted || this.run !== run) return;
      await this.fail(err);
    }
  }

  /**
   * Asks before the first part when the estimate passes the threshold, the spending caps would be
   * passed, or the listener wants a preview; returns once agreed to (at once when nothing is asked).
   * The view is shown asking only once `written` (the planned reading's first view) is.
   */
  private async askFirstIfNeeded(run: ReadingRun, planning: NonNullable<ReadingRun['planning']>, price: RubUnits, batched: boolean, written: Promise<unknown>): Promise<void> {
    const { settings } = planning;
    const threshold = parseRub(settings.confirmThresholdRub) ?? 0n;
    const confirmReason = await askFirstReason(run, {
      estimateChars: () => this.view.estimateChars,
      price,
      threshold,
      previewFirst: settings.previewFirst === true,
      boundChars: planning.text.bound === undefined ? undefined : boundOf(planning.text.bound, settings.pronunciations ?? []),
    });
    if (!confirmReason) {
      // Nothing asked: the reading may spend what stays under the threshold, and asks again past it.
      run.purse.envelope = { chars: charsWithin(threshold, price) };
      run.purse.phase = 'open';
      return;
    }
    // The preview switches blocks off by planning again: only a reading planned whole has one.
    if (!batched) run.planning = planning;
    const preview = run.planning ? previewOf(planning.text.blocks, run.parts, price, run.off) : [];
    await written;
    run.purse.phase = 'asking';
    await this.update({ confirmReason, preview, state: 'confirm' });
    await run.confirmation();
    run.signal.throwIfAborted();
    this.agreed(run, confirmReason);
    run.planning = null;
    await this.update({ preview: [] });
  }

  /**
   * The listener agreed to the reading as shown: its estimate (the document as it is counted, while a PDF
   * is still being counted) and, asked because of a spending cap, passing that cap by as much.
   */
  private agreed(run: ReadingRun, reason: ReadingView['confirmReason']): void {
    const chars = run.parts.reduce((n, p) => n + p.chars, 0);
    run.purse.envelope = { chars: run.growing ? Infinity : chars };
    if (reason === 'budget') run.purse.capApproval = costOf(chars, run.ledger.price);
    run.purse.phase = 'open';
    void this.deps.store.saveProgress(run.progress()).catch(ignore('saving the reading'));
  }

  /**
   * The text grew past what the listener agreed to (an article read title first whose page grew, a document
   * counted after it was agreed to): the reading asks again, with its whole estimate, and buys nothing more
   * until the answer. What was received plays on meanwhile.
   */
  private askAgain(run: ReadingRun): void {
    if (this.run !== run || run.purse.phase !== 'open' || !this.active) return;
    run.purse.phase = 'asking';
    const back = this.view.state;
    void this.update({ state: 'confirm', confirmReason: 'threshold', preview: [] }).catch(ignore('saving the reading'));
    run.confirmation().then(
      async () => {
        this.agreed(run, 'threshold');
        if (this.run !== run || this.view.state !== 'confirm') return;
        await this.update({ state: back === 'paused' ? 'paused' : run.sounding ? 'playing' : 'loading' });
        this.delivery?.poke();
      },
      () => undefined, // stopped or replaced while it asked
    );
  }

  /**
   * The popup's and the toolbar's start: after a worker restart the saved reading is restored first, so
   * an active one is kept. `decided` learns whether this call starts a reading, before it begins.
   */
  async startUnlessActive(req: ReadingRequest, decided?: (starts: boolean) => void): Promise<void> {
    // Once restored, decided in the call itself: the reading's start (and its first ask of the page) comes
    // before what the caller does next. Firefox's toolbar opens its popup right after this call, which
    // held the background's thread ~20 ms before the page was asked.
    if (!this.restored) await this.ready;
    const starts = !this.active && this.starting === 0;
    decided?.(starts);
    if (starts) await this.start(req);
  }

  /**
   * While the reading asks first: a block of the preview switched off (or on again). The plan is made
   * again without it, so its text is never sent and the estimate follows; the last block stays on.
   */
  async setBlockOn(block: number, on: boolean): Promise<void> {
    await this.ready;
    const run = this.run;
    const planning = run?.planning;
    if (!run || !planning || this.view.state !== 'confirm' || !planning.text.blocks[block]) return;
    if (on === !run.off.has(block)) return;
    if (on) run.off.delete(block);
    else run.off.add(block);
    const blocks = planning.text.blocks.map((b, k) => (run.off.has(k) ? { ...b, text: '' } : b));
    let planned: ReturnType<typeof planReading>;
    try {
      planned = planReading(run.id, { ...planning.text, blocks }, planning.settings, planning.account);
    } catch {
      // Nothing would be left to read: that block stays on.
      run.off.delete(block);
      return;
    }
    run.plan = planned.plan;
    await this.deps.store.savePlan(run.plan);
    const preview = previewOf(planning.text.blocks, planned.plan.parts, planned.price, run.off);
    await this.update({ ...planned.view, preview });
  }

  async confirm(): Promise<void> {
    await this.ready;
    if (this.view.state === 'confirm') this.run?.confirm();
  }

  /**
   * Ends the reading; a part under way still finishes into the cache (it is paid for). `drop`: nothing of the
   * reading runs on, not even Save as MP3 (the key was removed and its audio is being deleted).
   */
  async stop({ drop = false } = {}): Promise<void> {
    await this.ready;
    if (drop) this.run?.dispose();
    if (!this.active) return;
    // Where the listener stopped is kept to the second.
    if (this.run && (this.view.state === 'playing' || this.view.state === 'paused')) keepPlace(this.run, this.view, this.deps, true);
    await this.end(false);
    await this.update({ state: 'stopped' });
  }

  async pause(): Promise<void> {
    await this.ready;
    if (this.view.state !== 'playing' && this.view.state !== 'loading') return;
    if (this.run) keepPlace(this.run, this.view, this.deps, true);
    await this.update({ state: 'paused' });
    await this.deps.player.post({ type: 'pause', readingId: this.view.id });
  }

  async resume(): Promise<void> {
    await this.ready;
    if (this.view.state !== 'paused') return;
    // After the sleep timer paused the reading: its hold goes.
    if (!this.view.sleepAt) this.sleep.hold();
    await this.update({ state: 'playing' });
    // A player that lost the reading (Chrome closed a silent offscreen document) answers `lost`.
    await this.deps.player.post({ type: 'resume', readingId: this.view.id });
  }

  /**
   * The sleep timer: the listening stops `minutes` from now (null: off), at the end of the sentence
   * then being read; nothing past that point is requested. It outlives a reading (a new one keeps it).
   */
  async setSleepTimer(minutes: number | null, atEnd = false): Promise<void> {
    await this.ready;
    const sleepAt = minutes !== null && minutes > 0 ? this.deps.now() + Math.round(minutes * 60_000) : 0;
    await this.update({ sleepAt, sleepAtEnd: atEnd && !sleepAt });
    this.sleep.arm();
  }

  async toggle(): Promise<void> {
    await this.ready;
    if (this.view.state === 'paused') await this.resume();
    else await this.pause();
  }

  /** Moves by `delta` parts (previous/next); quick presses are taken one after another, each from where the last one landed. */
  jump(delta: number): Promise<void> {
    return this.jumps(async () => {
      await this.ready;
      await this.moveTo(this.view.part + delta);
    });
  }

  /** Jumps to part `k`; audio already received comes from the cache, unpaid again. */
  jumpTo(k: number): Promise<void> {
    return this.jumps(async () => {
      await this.ready;
      await this.moveTo(k);
    });
  }

  /** "Continue from 12:40": to where the listener stopped on this page last time (received audio plays from the cache, unpaid). */
  resumeFromOffer(): Promise<void> {
    return this.jumps(async () => {
      await this.ready;
      const offer = this.view.resumeOffer;
      if (!offer) return;
      await this.update({ resumeOffer: null });
      await this.moveTo(offer.part, offer.partTime);
    });
  }

  private async moveTo(k: number, partTime = 0): Promise<void> {
    const run = this.run;
    // An article read title first, its rest not counted yet: counted first, so "next" goes past the title.
    if (run && k >= run.parts.length) await run.titleCounted(true);
    if (!run || this.run !== run || !['playing', 'paused', 'loading'].includes(this.view.state) || run.parts.length === 0) return;
    const target = Math.min(Math.max(Math.trunc(k), 0), run.parts.length - 1, run.stopAt - 1);
    if (target < 0) return;
    const now = this.deps.now();
    // Quick presses in a row: only the part the listener stops at is paid for.
    const settleUntil = now - run.lastJumpAt < JUMP_SETTLE_MS ? now + JUMP_SETTLE_MS : 0;
    run.lastJumpAt = now;
    this.delivery?.stop();
    markNeeded(run, target, settleUntil > 0);
    const load = this.beginLoad();
    await this.update({ state: 'loading', part: target, partTime });
    await this.play(load, target, partTime, settleUntil);
  }

  async saveEstimate(): Promise<SaveEstimate> {
    await this.ready;
    const run = this.run;
    return run?.plan ? saveEstimate(run, this.deps.cache) : { readingId: '', upTo: 0, refusal: 'save-changed', parts: 0, missing: 0, arriving: 0, missingChars: 0, missingRub: formatRubPlain(0n) };
  }

  /**
   * Save as MP3, confirmed: fetches the parts not received yet into the cache — those of the reading the
   * cost was shown for, before `upTo`, for at most `maxRub`. Refused when the reading changed since (another
   * one, more parts, a higher cost), is still counted, or waits for its own confirmation.
   */
  async fetchMissing(order: SaveOrder): Promise<Outcome> {
    await this.ready;
    const run = this.run;
    if (!run?.plan || run.id !== order.readingId) return { ok: false, code: 'save-changed' };
    const now = await saveEstimate(run, this.deps.cache);
    const maxRub = parseRub(order.maxRub);
    if (now.refusal) return { ok: false, code: now.refusal };
    if (now.upTo !== order.upTo || maxRub === null || (parseRub(now.missingRub) ?? 0n) > maxRub) return { ok: false, code: 'save-changed' };
    const grant = { upTo: order.upTo, maxRub, spent: 0n };
    run.purse.saveGrant = grant;
    try {
      return await fetchMissing(run, this.host(run), order.upTo);
    } finally {
      if (run.purse.saveGrant === grant) run.purse.saveGrant = null;
    }
  }

  /** Speed and volume: applied by the player to what it already holds, remembered for later readings. */
  async setPlayback(patch: Partial<Playback>): Promise<Playback> {
    await this.ready;
    // Read, merge, write: one change at a time, or a quick speed-then-volume would lose the speed.
    return this.playbackChanges(async () => {
      const playback = clampPlayback({ ...(await this.deps.getPlayback()), ...patch });
      await this.deps.savePlayback(playback);
      if (this.active) await this.deps.player.post({ type: 'playback', readingId: this.view.id, ...playback }).catch(ignore('changing speed or volume'));
      return playback;
    });
  }

  async onPlayerEvent(event: PlayerEvent): Promise<void> {
    await this.ready;
    const run = this.run;
    if (!run || event.readingId !== this.view.id || !this.active) return;
    if ('load' in event) {
      if (this.load !== null && event.load !== this.load) return; // from before a jump or reload
      this.load = event.load;
    }
    switch (event.type) {
      case 'playing':
        run.reloading = false;
        run.sounding = true;
        // An article read title first shows `playing` with its whole estimate: its rest is counted first (it
        // comes tens of milliseconds after the title was asked for, while the service synthesizes it).
        if (run.plan?.grows?.continues) {
          const load = this.load;
          await run.titleCounted(true);
          // A jump or a reload meanwhile: its own player's `playing` says so.
          if (this.load !== load) break;
        }
        if (this.run === run && this.view.state === 'loading') await this.update({ state: 'playing' });
        break;
      case 'progress': {
        run.reloading = false;
        const moved = event.part !== this.view.part || Math.abs(event.position - this.view.position) >= 0.2 || event.rate !== this.view.rate;
        if (moved) await this.update({ part: event.part, position: round2(event.position), partTime: round2(event.partTime), rate: event.rate });
        if (this.view.sleepAt) this.sleep.hold();
        if (moved) keepPlace(run, this.view, this.deps);
        // The listener got past the offered place on their own: the offer goes.
        if (this.view.resumeOffer && this.view.position > this.view.resumeOffer.position) await this.update({ resumeOffer: null });
        this.follow(run, event.part, event.partTime);
        // A restarted background learns from the player what it holds and carries on from there.
        if (!this.delivery && run.plan && this.view.state !== 'confirm') {
          const hold = event.partialBytes > 0 ? { bytes: event.partialBytes, seconds: event.partialSeconds } : null;
          const delivery = new Delivery(run, this.host(run));
          // What the player holds plays out before a stopping error is shown.
          delivery.appended = event.complete >= 0 || hold !== null;
          this.pump(delivery, event.complete + 1, hold);
        }
        this.delivery?.poke();
        break;
      }
      case 'lost': {
        // Only a reading that should be sounding is reloaded; a paused one reloads when resumed.
        if (run.reloading || (this.view.state !== 'playing' && this.view.state !== 'loading')) break;
        run.reloading = true;
        const load = this.beginLoad();
        await this.update({ state: 'loading' });
        await this.play(load, this.view.part, this.view.partTime);
        break;
      }
      case 'ended':
        await this.update({ position: round2(Math.max(event.position, this.view.position)) });
        if (!this.delivery?.done) break; // an underrun; more audio is on the way
        await this.end(false, false);
        if (run.pendingError) await this.update({ state: 'error', error: run.pendingError });
        else await this.update({ state: 'finished', part: Math.max(run.parts.length - 1, 0), resumeOffer: null });
        // Read to the end: nothing to continue from on this page.
        if (!run.pendingError && run.url) void this.deps.saveResume(run.url, null).catch(ignore('keeping the place on the page'));
        break;
      case 'media-action':
        // A media key, or the browser's or system's media controls.
        if (event.action === 'play') await this.resume();
        else if (event.action === 'pause') await this.pause();
        else if (event.action === 'stop') await this.stop();
        else await this.jump(event.action === 'nexttrack' ? 1 : -1);
        break;
      case 'error':
        await this.end(false);
        await this.update({ state: 'error', error: { code: 'bad-audio', requestId: '', detail: event.message } });
        break;
    }
  }

  /** A new load of the player: from now on, reports of the one before are not this reading's position. */
  private beginLoad(): number {
    return (this.load = (this.load ?? 0) + 1);
  }

  /** Loads the player (load number `load`, from `beginLoad`, taken before the view moved) and feeds it. */
  private async play(load: number, startPart: number, seekInPart: number, settleUntil = 0): Promise<void> {
    const run = this.run!;
    // The player is loaded while the first part is being requested (the service's first byte is the long
    // wait, not this); what the delivery sends the player waits for that load, so nothing overtakes it.
    const positionBase = this.view.position;
    const paused = this.view.state === 'paused';
    const loaded = (async () => {
      const { rate, volume } = await this.deps.getPlayback();
      await this.deps.player.post({ type: 'load', readingId: run.id, load, startPart, seekInPart, positionBase, rate, volume, title: run.title, site: run.site });
      if (paused) await this.deps.player.post({ type: 'pause', readingId: run.id });
    })();
    loaded.catch(() => undefined);
    const host = this.host(run);
    const player = this.deps.player;
    const afterLoad = {
      post: async (cmd: Parameters<typeof player.post>[0]) => {
        await loaded;
        return player.post(cmd);
      },
    };
    const delivery = new Delivery(run, { ...host, player: afterLoad }, settleUntil);
    this.delivery?.stop();
    this.delivery = delivery;
    this.pump(delivery, startPart, null);
    await loaded;
  }

  private pump(delivery: Delivery, from: number, hold: PartialHold | null): void {
    this.delivery = delivery;
    delivery.pump(from, hold).catch(async (err: unknown) => {
      if (delivery.signal.aborted || this.delivery !== delivery) return;
      await this.fail(err);
    });
  }

  /** Plans the rest of a document read in batches (a PDF) as its page gives it (`growth.ts`). */
  private grow(run: ReadingRun, tabId: number, settings: Pick<Settings, 'pronunciations' | 'urls'>, price: RubUnits): Promise<void> {
    return growReading(run, { deps: this.deps, current: () => this.run === run, view: () => this.view, update: (patch) => this.update(patch) }, tabId, settings, price);
  }

  /** Highlights the sentence being spoken, in its own block of the page. */
  private follow(run: ReadingRun, part: number, partTime: number): void {
    const sentence = run.sentence(part, partTime);
    const key = sentence && `${sentence.block}:${sentence.text}`;
    if (!sentence || key === run.highlighted || this.view.tabId === null) return;
    run.highlighted = key!;
    this.deps.highlight(this.view.tabId, sentence);
  }

  /** Requests of `run`, and where their bills and the reading's turns go. */
  private host(run: ReadingRun): DeliveryHost {
    return runHost(run, this.deps, {
      current: () => this.run === run,
      view: () => this.view,
      update: (patch) => this.update(patch),
      askAgain: () => this.askAgain(run),
    });
  }

  /** Picks up a reading saved by an earlier life of the background. */
  private async restore(): Promise<void> {
    const { view, plan, progress } = await this.deps.store.load();
    if (!view) return;
    this.view = view;
    if (!isActive(view.state)) return;
    if (!plan || plan.id !== view.id || view.state === 'extracting') {
      // The text was still being extracted: there is nothing to carry on with.
      await this.update({ state: 'stopped' });
      return;
    }
    const settings = await this.deps.getSettings();
    const run = ReadingRun.fromSaved(view, plan, progress, parseRub(settings.confirmThresholdRub) ?? 0n);
    run.purse.caps = capsOf(settings);
    this.run = run;
    this.deps.slots.setLimit(plan.maxConcurrency);
    const problem = await this.deps.keyProblem();
    if (problem) return this.fail(new ReadingError(problem));
    if (view.sleepAt) this.sleep.arm();
    // A document read in batches carries on being planned from where it was.
    if (plan.grows && view.tabId !== null) {
      run.growing = true;
      void this.grow(run, view.tabId, await this.deps.getSettings(), run.ledger.price);
    }
    if (view.state === 'confirm') {
      run.confirmation().then(
        async () => {
          this.agreed(run, view.confirmReason);
          const load = this.beginLoad();
          await this.update({ state: 'loading' });
          // Asked again mid-reading: on from where it was.
          await this.play(load, view.part, view.partTime);
        },
        () => undefined, // the reading was stopped or replaced while it waited
      );
    } else if (view.state !== 'paused') {
      // Playing: the player's next progress report says what it holds; if it lost the reading it says so.
      await this.deps.player.post({ type: 'resume', readingId: view.id }).catch(ignore('asking the player where it is'));
    }
  }

  /** Ends the reading's requests and audio (`silence`: the player is told to stop); `replace`: a new reading takes its place. */
  private async end(replace: boolean, silence = true): Promise<void> {
    const run = this.run;
    this.delivery?.stop();
    this.delivery = null;
    if (!run) return;
    if (replace) run.dispose();
    else run.close();
    // Ended before its rest was counted (an article read title first, stopped as its title began): no count goes on.
    if (this.view.id === run.id && this.view.counting) this.view = { ...this.view, counting: false };
    if (run.highlighted && this.view.tabId !== null) this.deps.highlight(this.view.tabId, null);
    run.highlighted = '';
    if (silence && this.view.id === run.id && this.active) await this.deps.player.post({ type: 'stop', readingId: run.id }).catch(ignore('stopping the player'));
  }

  private async fail(err: unknown): Promise<void> {
    const error = errorViewOf(err);
    await this.end(false);
    await this.update({ state: 'error', error });
  }

  /**
   * A start's first writes: the last reading's plan and progress cleared, the first view (`extracting`)
   * and the badge cleared. Made once `after` settles (`deps.startWritesAfter`; at once when null); the promise
   * resolves once they are asked for, not written. A view that has moved on by then (a stop, a newer
   * start) has written itself: the first one is not written over it.
   */
  private writeFirst(run: ReadingRun, first: ReadingView, after: Promise<void> | null): Promise<void> {
    const write = () => {
      if (this.run !== run) return;
      void this.deps.store.savePlan(null).catch(ignore('clearing the last plan'));
      void this.deps.store.saveProgress(null).catch(ignore('clearing the last progress'));
      if (this.view !== first) return;
      this.deps.badge(null);
      void this.deps.store.saveView(first).catch(ignore('writing the first view'));
    };
    if (!after) return Promise.resolve(write());
    return after.then(write, write);
  }

  private async update(patch: Partial<ReadingView>): Promise<void> {
    const wasActive = this.active;
    this.view = { ...this.view, ...patch, updatedAt: this.deps.now() };
    if (patch.state === 'extracting') this.deps.badge(null);
    if (wasActive && patch.state === 'error') this.deps.badge(this.view.error?.code ?? 'error');
    await this.deps.store.saveView(this.view);
  }
}
