import { MediaSessionLink } from './media-session';
import { FinePosition } from './fine-position';
import type { PlayerCommand, PlayerEvent } from './player-protocol';
import { diagnostics } from '../diagnostics/wired';
import { InitSegments } from './init-segments';
import { PLAIN_MP3, type PlayerFormat, type StreamWrapper } from './player-format';
import type { PlayerStats } from './player-stats';
import { bufferedEnd, bufferedSpan, evictPlayed } from './source-buffer';
import { PlayerWords, type PlayPoint } from './word-clock';
import { PlayTimeline } from './play-timeline';
import { StopBefore } from './stop-before';
import { setPlayback } from './rates';

/**
 * Plays one reading progressively: every part's bytes go into one SourceBuffer
 * in `sequence` mode, so parts play back to back, and playback starts on the
 * first appended bytes. It reports where it is, and the word being said (`word` events: each part's words
 * timed from its own audio as it comes, `part-words.ts`, and told as they come, `word-clock.ts`); it
 * decides nothing else.
 */
export class MsePlayer {
  private readingId = '';
  private media: MediaSource | null = null;
  private buffer: SourceBuffer | null = null;
  private queue: Array<{ part: number; bytes: ArrayBuffer | Uint8Array<ArrayBuffer> }> = [];
  /** Wrapped streams: one wrapper per part, fed in command order through one chain. */
  private wrappers = new Map<number, StreamWrapper>();
  private feed: Promise<void> = Promise.resolve();
  private generation = 0;
  /** Where each part lies on the media timeline, and what is held of it. */
  private readonly timeline = new PlayTimeline();
  private pendingSeek: number | null = null;
  private ending = false;
  private started = false;
  private userPaused = false;
  /** Where playback must stop (`stop-before`): paused there as by the listener, the background told. */
  private readonly stopBefore: StopBefore;
  private objectUrl = '';
  private readonly fine = new FinePosition();
  private readonly words = new PlayerWords(
    () => this.playPoint(),
    (part, word) => this.readingId && this.emit({ type: 'word', readingId: this.readingId, load: this.loadId, part, word }),
    undefined,
    () => this.report(),
  );

  constructor(
    private readonly emit: (event: PlayerEvent) => void,
    readonly audio: HTMLAudioElement = new Audio(),
    private readonly format: PlayerFormat = PLAIN_MP3,
    /** Test builds only: counters for the benchmarks and tests. */
    readonly stats?: PlayerStats,
    /** The system's media controls (none in unit tests). */
    readonly controls: MediaSessionLink | null = typeof navigator !== 'undefined' && 'mediaSession' in navigator
      ? new MediaSessionLink((action) => this.readingId && this.emit({ type: 'media-action', readingId: this.readingId, action }))
      : null,
  ) {
    const stopped = (part: number) => (this.handle({ type: 'pause', readingId: this.readingId }), this.emit({ type: 'stopped-before', readingId: this.readingId, load: this.loadId, part }));
    this.stopBefore = new StopBefore(audio, { startOf: (part) => this.timeline.startOf(part), started: () => this.started, stopped });
    audio.addEventListener('play', () => this.controls?.state('playing'));
    audio.addEventListener('pause', () => {
      this.words.stop();
      this.controls?.state(this.readingId ? 'paused' : 'none');
    });
    audio.addEventListener('playing', () => {
      diagnostics.mark('player:playing-event');
      this.stats?.playing(this.audio.currentTime);
      this.emit({ type: 'playing', readingId: this.readingId, load: this.loadId });
      this.words.sync();
    });
    audio.addEventListener('ratechange', () => {
      this.fine.forget();
      this.words.sync();
    });
    audio.addEventListener('seeked', () => {
      this.fine.forget();
      this.words.seeked();
    });
    audio.addEventListener('waiting', () => {
      this.words.stop();
      this.stats?.waited();
      this.emit({ type: 'waiting', readingId: this.readingId });
    });
    audio.addEventListener('timeupdate', () => this.onTime());
    audio.addEventListener('ended', () => {
      this.stats?.ended();
      this.emit({ type: 'ended', readingId: this.readingId, load: this.loadId, position: this.position() });
    });
    audio.addEventListener('error', () => {
      if (!this.readingId) return;
      this.emit({ type: 'error', readingId: this.readingId, message: audio.error?.message || 'The audio could not be played.' });
    });
  }

  handle(cmd: PlayerCommand): void {
    if (cmd.type === 'load') {
      this.load(cmd.readingId, cmd.seekInPart, cmd.positionBase, cmd.startPart, cmd.partOffset);
      this.controls?.show({ title: cmd.title ?? '', site: cmd.site ?? '' });
      this.loadId = cmd.load;
      setPlayback(this.audio, cmd.rate, cmd.volume);
      return;
    }
    if (cmd.readingId !== this.readingId) {
      if (cmd.type !== 'stop') this.emit({ type: 'lost', readingId: cmd.readingId });
      return;
    }
    if (cmd.type === 'stop-before') return this.stopBefore.set(cmd.part);
    switch (cmd.type) {
      case 'append': {
        const { part, bytes, resumed } = cmd;
        if (!this.started) diagnostics.mark('player:bytes');
        this.stats?.bytes();
        this.timeline.received(part, bytes.byteLength);
        this.words.add(part, bytes, cmd.text, cmd.wordsBefore);
        if (this.format.wrap) {
          this.wrapped(part, (w) => {
            if (resumed) w.restart();
            return w.push(new Uint8Array(bytes));
          });
        } else {
          this.queue.push({ part, bytes });
          this.pump();
        }
        break;
      }
      case 'part-end': {
        const { part } = cmd;
        this.words.end(part, cmd.text);
        const complete = () => {
          this.timeline.completed(part);
          // A whole part shorter than the start's cushion plays now.
          if (!this.started) void this.startPlayback();
        };
        if (this.format.wrap) {
          this.wrapped(part, (w) => (this.wrappers.delete(part), w.end()));
          this.afterFeed(complete);
        } else {
          complete();
        }
        break;
      }
      case 'playback':
        setPlayback(this.audio, cmd.rate, cmd.volume);
        break;
      case 'end-of-stream': {
        const generation = this.generation;
        this.afterFeed(async () => {
          // A part that ended in an error gets no part-end: what its wrapper holds back still plays.
          for (const part of [...this.wrappers.keys()].sort((a, b) => a - b)) {
            const out = await this.wrappers.get(part)!.end();
            this.wrappers.delete(part);
            if (generation !== this.generation) return;
            if (out) this.queue.push({ part, bytes: out as Uint8Array<ArrayBuffer> });
          }
          this.ending = true;
          this.pump();
        });
        break;
      }
      case 'pause':
        this.userPaused = true;
        this.audio.pause();
        this.emit({ type: 'paused', readingId: this.readingId });
        break;
      case 'resume':
        this.userPaused = false;
        if (this.started) void this.play();
        // Tells a restarted background what this player holds, even before playback has begun.
        this.report();
        break;
      case 'stop':
        this.reset();
        this.controls?.state('none');
        break;
    }
  }

  /** Runs `step` after every wrapping step before it; nothing of an earlier load runs after a new one. */
  private afterFeed(step: () => void | Promise<void>): void {
    if (!this.format.wrap) {
      void step();
      return;
    }
    const generation = this.generation;
    const readingId = this.readingId;
    this.feed = this.feed
      .then(() => (generation === this.generation ? step() : undefined))
      .catch(() => {
        if (generation === this.generation) this.emit({ type: 'error', readingId, message: 'The audio could not be buffered.' });
      });
  }

  private wrapped(part: number, op: (w: StreamWrapper) => Promise<Uint8Array | null>): void {
    const generation = this.generation;
    this.afterFeed(async () => {
      const out = await op(this.wrapperOf(part));
      if (!out || generation !== this.generation) return;
      if (!this.started) diagnostics.mark('player:wrapped');
      // The SourceBuffer may have this very init segment already (appended ahead at the load): not again.
      this.queue.push({ part, bytes: this.inits.strip(part, out) as Uint8Array<ArrayBuffer> });
      this.pump();
    });
  }

  /** The part's wrapper, made on first use (wrapped streams only). */
  private wrapperOf(part: number): StreamWrapper {
    let wrapper = this.wrappers.get(part);
    if (!wrapper) {
      wrapper = this.format.wrap!();
      this.wrappers.set(part, wrapper);
    }
    return wrapper;
  }

  /** Seconds played in this reading (the background's base plus this buffer's time). */
  position(): number {
    return this.timeline.position(this.audio.currentTime);
  }

  /** Wrapped streams: the init segments, one appended ahead at a load. */
  private readonly inits = new InitSegments();

  /** The reader's number for the current load (echoed in events, so one from before a jump is known as such). */
  private loadId = 0;

  private load(readingId: string, seekInPart: number, positionBase: number, startPart: number, partOffset = 0): void {
    this.reset();
    this.stats?.load();
    this.words.load(readingId);
    this.readingId = readingId;
    this.timeline.load(startPart, seekInPart, positionBase, partOffset);
    this.pendingSeek = seekInPart > 0 ? seekInPart : null;
    // The first part's wrapper is made and started now, while that part is asked for, not on its first bytes.
    if (this.format.wrap) this.wrapperOf(startPart).warm?.().catch(() => undefined);
    const media = new MediaSource();
    this.media = media;
    this.objectUrl = URL.createObjectURL(media);
    media.addEventListener(
      'sourceopen',
      () => {
        if (this.media !== media) return;
        const buffer = media.addSourceBuffer(this.format.mime);
        buffer.mode = 'sequence';
        diagnostics.mark('player:sourceopen');
        buffer.addEventListener('updateend', () => this.onUpdateEnd());
        this.buffer = buffer;
        // Wrapped streams: the last part's init segment goes in while the first bytes are awaited (`InitSegments`).
        const primed = this.queue.length === 0 ? this.inits.prime() : null;
        if (primed) {
          diagnostics.mark('player:primed');
          buffer.appendBuffer(primed);
          return;
        }
        this.pump();
      },
      { once: true },
    );
    this.audio.src = this.objectUrl;
  }

  private reset(): void {
    this.stopBefore.clear();
    this.words.reset();
    this.audio.pause();
    if (this.objectUrl) {
      this.audio.removeAttribute('src');
      this.audio.load();
      URL.revokeObjectURL(this.objectUrl);
    }
    this.objectUrl = '';
    this.media = null;
    this.buffer = null;
    this.queue = [];
    this.timeline.clear();
    this.pendingSeek = null;
    this.ending = false;
    this.started = false;
    this.userPaused = false;
    this.readingId = '';
    this.generation++;
    this.wrappers.clear();
    this.inits.reset();
    this.feed = Promise.resolve();
  }

  private pump(): void {
    const { buffer, media } = this;
    if (!buffer || !media || buffer.updating || media.readyState !== 'open') return;
    const next = this.queue[0];
    if (next) {
      this.timeline.begins(next.part, bufferedEnd(this.buffer));
      this.stopBefore.check();
      try {
        if (!this.started) diagnostics.mark('player:appendBuffer');
        buffer.appendBuffer(next.bytes);
        this.queue.shift();
      } catch (err) {
        if (err instanceof DOMException && err.name === 'QuotaExceededError' && evictPlayed(this.buffer, this.audio.currentTime, true)) return;
        this.emit({ type: 'error', readingId: this.readingId, message: 'The audio could not be buffered.' });
      }
      return;
    }
    if (this.ending) {
      media.endOfStream();
      if (!this.started) void this.startPlayback();
      return;
    }
    evictPlayed(this.buffer, this.audio.currentTime, false);
  }

  private onUpdateEnd(): void {
    if (!this.started) {
      diagnostics.mark('player:updateend');
      void this.startPlayback();
    }
    this.pump();
  }

  private async startPlayback(): Promise<void> {
    const end = bufferedEnd(this.buffer);
    if (end <= 0) {
      if (this.ending && this.queue.length === 0) {
        this.emit({ type: 'ended', readingId: this.readingId, load: this.loadId, position: this.timeline.base });
        this.started = true;
      }
      return;
    }
    if (this.pendingSeek !== null) {
      const target = this.timeline.seekTarget(this.pendingSeek);
      if (end <= target && !this.ending) return; // wait for the bytes that hold the position
      this.audio.currentTime = Math.min(target, end);
      this.pendingSeek = null;
    }
    // Not yet: too little to play on while the next pieces arrive (the part, or the stream, ending starts it).
    if (!this.ending && !this.timeline.anyComplete && end - this.audio.currentTime < (this.format.startSeconds ?? 0)) return;
    this.started = true;
    if (!this.userPaused) await this.play();
  }

  private async play(): Promise<void> {
    const id = this.readingId;
    try {
      diagnostics.mark('player:play');
      await this.audio.play();
      diagnostics.mark('player:play-resolved');
    } catch (err) {
      if (id !== this.readingId || (err instanceof DOMException && err.name === 'AbortError')) return;
      this.emit({ type: 'error', readingId: id, message: 'Playback was refused by the browser.' });
    }
  }

  /** Where playback is (s of the media's timeline), finer than Firefox's stepping `currentTime` (`FinePosition`). */
  finePosition(): number {
    return this.fine.read(this.audio.currentTime, performance.now(), this.audio.playbackRate);
  }

  /** Whether the audio is moving (started, not paused, not waiting for data). */
  private moving(): boolean {
    return this.started && !this.audio.paused && this.audio.readyState >= HTMLMediaElement.HAVE_FUTURE_DATA;
  }

  /** Where playback is, for the word clock: null unless the audio is moving. */
  private playPoint(): PlayPoint | null {
    if (!this.readingId || !this.moving()) {
      this.fine.forget();
      return null;
    }
    // `ms` is negative just before the part begins (the part is taken 10 ms early): the time to its first word stays exact.
    return { ...this.timeline.inPart(this.finePosition()), rate: this.audio.playbackRate };
  }

  private onTime(): void {
    if (!this.readingId || !this.started) return;
    this.words.sync();
    this.report();
    this.pump();
  }

  /**
   * Tells the background where playback is (`at`: s of the timeline): the fine position while playing, as the
   * word clock has it — a report from Firefox's coarser `currentTime` could put the reading back in the part
   * before, just after the clock said the next one began (the band went back a sentence).
   */
  private report(at = this.moving() ? this.finePosition() : this.audio.currentTime): void {
    if (!this.readingId) return;
    const held = this.timeline.held(at, bufferedEnd(this.buffer));
    // The reading's position is the element's own time (the background's figures), not the fine one.
    this.emit({ type: 'progress', readingId: this.readingId, load: this.loadId, ...held, position: this.position(), rate: this.audio.playbackRate });
  }

  /** Seconds of audio held by the SourceBuffer, for the memory benchmark. */
  bufferedSeconds(): number {
    return bufferedSpan(this.buffer);
  }
}
