import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StopBefore } from './stop-before';

/** An element whose clock the test moves: `currentTime` advances with the fake timers while it plays. */
class FakeAudio extends EventTarget {
  paused = false;
  playbackRate = 1;
  #time = 0;
  #since = Date.now();
  get currentTime(): number {
    return this.paused ? this.#time : this.#time + ((Date.now() - this.#since) / 1000) * this.playbackRate;
  }
  set currentTime(t: number) {
    this.#time = t;
    this.#since = Date.now();
  }
  pause(): void {
    this.#time = this.currentTime;
    this.paused = true;
    this.dispatchEvent(new Event('pause'));
  }
}

function setup(starts: Record<number, number>, at = 0) {
  const audio = new FakeAudio();
  audio.currentTime = at;
  const stopped: Array<{ part: number; time: number }> = [];
  const stop = new StopBefore(audio as unknown as HTMLMediaElement, { startOf: (p) => starts[p], started: () => true, stopped: (part) => stopped.push({ part, time: audio.currentTime }) });
  return { audio, stop, stopped };
}

describe('StopBefore: playback stops where the next chapter begins, even when the player holds its audio', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it.each([
    // [the part's start (s), where playback is when asked, the rate, ms after which it has stopped]
    [10, 4, 1, 6_000],
    [10, 4, 2, 3_000],
    [10, 9.999, 1, 0],
    [10, 10.3, 1, 0], // asked just after the part began (a report behind the player): back to its start
  ])('the part begins at %d s, playback at %d s, rate %d: stopped after %d ms, at the part\'s start', (start, at, rate, ms) => {
    const { audio, stop, stopped } = setup({ 3: start }, at);
    audio.playbackRate = rate;
    stop.set(3);
    if (ms > 0) {
      vi.advanceTimersByTime(ms - 20);
      expect(stopped).toEqual([]);
      vi.advanceTimersByTime(20);
    }
    expect(stopped).toEqual([{ part: 3, time: start }]);
    expect(audio.paused).toBe(true);
  });

  it('its timer late by a second (a busy machine): it still stops, and goes back to the part\'s start', () => {
    const { audio, stop, stopped } = setup({ 3: 10 }, 4);
    stop.set(3);
    // The timer's task runs a second after its time, the clock having moved on meanwhile.
    vi.advanceTimersByTime(5_000);
    audio.currentTime = 11;
    vi.advanceTimersByTime(1_000);
    expect(stopped).toEqual([{ part: 3, time: 10 }]);
  });

  it('well into the part already when asked (its chapter is the one playing): nothing stops', () => {
    const { stop, stopped } = setup({ 3: 10 }, 11);
    stop.set(3);
    vi.advanceTimersByTime(60_000);
    expect(stopped).toEqual([]);
  });

  it("a part whose audio has not come yet: nothing until its start is known, then it stops there", () => {
    const starts: Record<number, number> = {};
    const { stop, stopped } = setup(starts, 0);
    stop.set(3);
    vi.advanceTimersByTime(5_000);
    expect(stopped).toEqual([]);
    starts[3] = 8;
    stop.check();
    vi.advanceTimersByTime(3_000);
    expect(stopped).toEqual([{ part: 3, time: 8 }]);
  });

  it('paused by the listener before it: no stop while paused; played again, it stops there', () => {
    const { audio, stop, stopped } = setup({ 3: 10 }, 0);
    stop.set(3);
    vi.advanceTimersByTime(4_000);
    audio.pause();
    vi.advanceTimersByTime(20_000);
    expect(stopped).toEqual([]);
    audio.currentTime = 4;
    audio.paused = false;
    audio.dispatchEvent(new Event('playing'));
    vi.advanceTimersByTime(6_000);
    expect(stopped).toEqual([{ part: 3, time: 10 }]);
  });

  it('the speed changed on the way: the stop comes at the new speed', () => {
    const { audio, stop, stopped } = setup({ 3: 10 }, 0);
    stop.set(3);
    vi.advanceTimersByTime(4_000);
    audio.currentTime = 4; // the clock's base moved to now, before the new rate
    audio.playbackRate = 2;
    audio.dispatchEvent(new Event('ratechange'));
    vi.advanceTimersByTime(2_990);
    expect(stopped).toEqual([]);
    vi.advanceTimersByTime(10);
    expect(stopped).toEqual([{ part: 3, time: 10 }]);
  });

  it('told null, or cleared by a new load: it plays on', () => {
    for (const off of [(s: StopBefore) => s.set(null), (s: StopBefore) => s.clear()]) {
      const { stop, stopped } = setup({ 3: 10 }, 0);
      stop.set(3);
      off(stop);
      vi.advanceTimersByTime(20_000);
      expect(stopped).toEqual([]);
    }
  });
});
