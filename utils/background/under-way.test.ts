import { describe, expect, it } from 'vitest';
import type { ReadingStateName } from '../messaging/views';
import { settledYet } from '../../tests/unit/settled-yet';
import { IDLE_VIEW } from '../reading/state';
import { viewListeners } from './context';
import { underWay } from './under-way';

/** A clock the test moves: timers run when `advance` passes them. */
function clock() {
  let now = 0;
  const timers = new Map<number, { at: number; run: () => void }>();
  let next = 1;
  return {
    setTimeout: (run: () => void, ms: number) => (timers.set(next, { at: now + ms, run }), next++),
    clearTimeout: (timer: unknown) => void timers.delete(timer as number),
    advance(ms: number) {
      now += ms;
      for (const [id, t] of [...timers]) {
        if (t.at > now) continue;
        timers.delete(id);
        t.run();
      }
    },
  };
}

describe('underWay', () => {
  // Each row: the views the reading shows (id, state), and whether the wait is over after them (before the cap).
  const rows: { name: string; views: [string, ReadingStateName][]; starting: ReadingStateName[]; over: boolean }[] = [
    { name: 'the new reading past extracting', views: [['new', 'extracting'], ['new', 'loading']], starting: ['extracting'], over: true },
    { name: 'still extracting', views: [['new', 'extracting']], starting: ['extracting'], over: false },
    { name: 'loading, when loading is a starting state too', views: [['new', 'extracting'], ['new', 'loading']], starting: ['extracting', 'loading'], over: false },
    { name: 'playing', views: [['new', 'loading'], ['new', 'playing']], starting: ['extracting', 'loading'], over: true },
    { name: 'asks first', views: [['new', 'confirm']], starting: ['extracting', 'loading'], over: true },
    { name: 'failed', views: [['new', 'error']], starting: ['extracting'], over: true },
    { name: "the last reading's views (its id)", views: [['old', 'stopped'], ['old', 'idle']], starting: ['extracting'], over: false },
  ];
  it.each(rows)('$name: over = $over', async ({ views, starting, over }) => {
    const listeners = viewListeners();
    const time = clock();
    const wait = underWay(listeners.add, 'old', starting, 300, time);
    for (const [id, state] of views) listeners.emit({ ...IDLE_VIEW, id, state }, Promise.resolve());
    expect(await settledYet(wait)).toBe(over);
  });

  it('waits for the view to be written', async () => {
    const listeners = viewListeners();
    let write!: () => void;
    const written = new Promise<void>((resolve) => (write = resolve));
    const wait = underWay(listeners.add, 'old', ['extracting'], 300, clock());
    listeners.emit({ ...IDLE_VIEW, id: 'new', state: 'loading' }, written);
    expect(await settledYet(wait)).toBe(false);
    write();
    expect(await settledYet(wait)).toBe(true);
  });

  it('is over at the cap, and then follows the views no more', async () => {
    const listeners = viewListeners();
    const time = clock();
    let following = 0;
    const follow = (listener: Parameters<typeof listeners.add>[0]) => {
      following++;
      const stop = listeners.add(listener);
      return () => (following--, stop());
    };
    const wait = underWay(follow, 'old', ['extracting'], 300, time);
    time.advance(299);
    expect(await settledYet(wait)).toBe(false);
    expect(following).toBe(1);
    time.advance(1);
    expect(await settledYet(wait)).toBe(true);
    expect(following).toBe(0);
  });
});
