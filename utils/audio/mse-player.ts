import { MediaSessionLink } from './media-session';
import { FinePosition } from './fine-position';
import type { PlayerCommand, PlayerEvent } from './player-protocol';
import { diagnostics } from '../diagnostics/wired';
import { initSegmentOf, sameBytes } from './mp3-fmp4';
import { PLAIN_MP3, type PlayerFormat, type StreamWrapper } from './player-format';
import type { PlayerStats } from './player-stats';
import { bufferedEnd, bufferedSpan, evictPlayed } from './source-buffer';
import { PlayerWords, type PlayPoint } from './word-clock';

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
  private partStarts = new Map<number, number>();
  private partBytes = new Map<number, number>();
  private completeParts = new Set<number>();
  private pendingSeek: number | null = null;
  private positionBase = 0;
  private ending = false;
  private started = false;
  private userPaused = false;
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
      this.load(cmd.readingId, cmd.seekInPart, cmd.positionBase, cmd.startPart);
      this.controls?.show({ title: cmd.title ?? '', site: cmd.site ?? '' });
      this.loadId = cmd.load;
      this.setPlayback(cmd.rate, cmd.volume);
      return;
    }
    if (cmd.readingId !== this.readingId) {
      if (cmd.type !== 'stop') this.emit({ type: 'lost', readingId: cmd.readingId });
      return;
    }
    switch (cmd.type) {
      case 'append': {
        const { part, bytes, resumed } = cmd;
        if (!this.started) diagnostics.mark('player:bytes');
        this.stats?.bytes();
        this.partBytes.set(part, (this.partBytes.get(part) ?? 0) + bytes.byteLength);
        this.words.add(part, bytes, cmd.text);
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
          this.completeParts.add(part);
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
        this.setPlayback(cmd.rate, cmd.volume);
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
      let bytes = out;
      if (!this.initSeen.has(part)) {
        this.initSeen.add(part);
        const init = initSegmentOf(out);
        // The SourceBuffer has this very init segment already (appended ahead at the load): not again.
        if (init && this.primed && sameBytes(init, this.primed)) {
          bytes = out.subarray(init.length);
          diagnostics.mark('player:init-left-out');
        }
        this.primed = null;
        if (init) this.lastInit = init.slice() as Uint8Array<ArrayBuffer>;
      }
      this.queue.push({ part, bytes: bytes as Uint8Array<ArrayBuffer> });
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

  private setPlayback(rate: number, volume: number): void {
    // The browser keeps the pitch while the rate changes (preservesPitch is on by default; set it anyway).
    this.audio.preservesPitch = true;
    this.audio.defaultPlaybackRate = rate;
    this.audio.playbackRate = rate;
    this.audio.volume = volume;
  }

  /** Seconds played in this reading (the background's base plus this buffer's time). */
  position(): number {
    const first = this.partStarts.get(this.firstPart) ?? 0;
    return this.positionBase + Math.max(0, this.audio.currentTime - first - this.seekBase);
  }

  /** Wrapped streams: the init segment of the last part that began, kept across loads. */
  private lastInit: Uint8Array<ArrayBuffer> | null = null;
  /** The init segment appended ahead in this load, until the first part's own has come. */
  private primed: Uint8Array | null = null;
  /** The parts of this load whose first bytes (with their init segment) have been wrapped. */
  private readonly initSeen = new Set<number>();
  private firstPart = 0;
  private seekBase = 0;

  /** The reader's number for the current load (echoed in events, so one from before a jump is known as such). */
  private loadId = 0;

  private load(readingId: string, seekInPart: number, positionBase: number, startPart: number): void {
    this.reset();
    this.stats?.load();
    this.words.load(readingId);
    this.readingId = readingId;
    this.positionBase = positionBase;
    this.firstPart = startPart;
    this.seekBase = seekInPart;
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
        // Wrapped streams: the last part's init segment goes in while the first bytes are awaited (Firefox
        // takes ~12 ms over an append that holds one); the part's own is then left out when it is the same.
        if (this.lastInit && this.queue.length === 0 && this.initSeen.size === 0) {
          diagnostics.mark('player:primed');
          this.primed = this.lastInit;
          buffer.appendBuffer(this.lastInit);
          return;
        }
        this.pump();
      },
      { once: true },
    );
    this.audio.src = this.objectUrl;
  }

  private reset(): void {
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
    this.partStarts.clear();
    this.partBytes.clear();
    this.completeParts.clear();
    this.pendingSeek = null;
    this.ending = false;
    this.started = false;
    this.userPaused = false;
    this.readingId = '';
    this.generation++;
    this.wrappers.clear();
    this.initSeen.clear();
    this.primed = null;
    this.feed = Promise.resolve();
  }

  private pump(): void {
    const { buffer, media } = this;
    if (!buffer || !media || buffer.updating || media.readyState !== 'open') return;
    const next = this.queue[0];
    if (next) {
      if (!this.partStarts.has(next.part)) this.partStarts.set(next.part, bufferedEnd(this.buffer));
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
        this.emit({ type: 'ended', readingId: this.readingId, load: this.loadId, position: this.positionBase });
        this.started = true;
      }
      return;
    }
    if (this.pendingSeek !== null) {
      const target = (this.partStarts.get(this.firstPart) ?? 0) + this.pendingSeek;
      if (end <= target && !this.ending) return; // wait for the bytes that hold the position
      this.audio.currentTime = Math.min(target, end);
      this.pendingSeek = null;
    }
    // Not yet: too little to play on while the next pieces arrive (the part, or the stream, ending starts it).
    if (!this.ending && this.completeParts.size === 0 && end - this.audio.currentTime < (this.format.startSeconds ?? 0)) return;
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

  private currentPart(at = this.audio.currentTime): number {
    const t = at + 0.01;
    let part = this.firstPart;
    for (const [p, start] of this.partStarts) if (start <= t && p > part) part = p;
    return part;
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
    const now = this.finePosition();
    const part = this.currentPart(now);
    const next = this.partStarts.get(part + 1);
    return {
      part,
      // Negative just before the part begins (the part is taken 10 ms early): the time to its first word stays exact.
      ms: (now - (this.partStarts.get(part) ?? 0)) * 1000,
      rate: this.audio.playbackRate,
      partLeftMs: next !== undefined && next > now ? (next - now) * 1000 : null,
    };
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
    const part = this.currentPart(at);
    const partTime = Math.max(0, at - (this.partStarts.get(part) ?? 0));
    let complete = this.firstPart - 1;
    while (this.completeParts.has(complete + 1)) complete++;
    this.emit({
      type: 'progress',
      readingId: this.readingId,
      load: this.loadId,
      part,
      partTime,
      position: this.position(),
      complete,
      partialBytes: this.partBytes.get(complete + 1) ?? 0,
      rate: this.audio.playbackRate,
      partialSeconds: this.partStarts.has(complete + 1) ? Math.max(0, bufferedEnd(this.buffer) - this.partStarts.get(complete + 1)!) : 0,
    });
  }

  /** Seconds of audio held by the SourceBuffer, for the memory benchmark. */
  bufferedSeconds(): number {
    return bufferedSpan(this.buffer);
  }
}
