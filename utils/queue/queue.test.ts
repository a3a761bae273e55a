import { describe, expect, it } from 'vitest';
import type { QueueEntry, QueueRun } from '../storage/queue';
import { ListeningQueue } from './queue';
import { IDLE_VIEW, type ReadingView } from '../reading/state';

const entry = (id: string): QueueEntry => ({ id, url: `https://example.ru/${id}`, title: id, site: 'example.ru', chars: 10, addedAt: 0 });

function world(ids: string[]) {
  let queue = ids.map(entry);
  let run: QueueRun | null = null;
  const started: string[] = [];
  let sleepDone = 0;
  let n = 0;
  const q = new ListeningQueue({
    load: async () => queue,
    save: async (next) => void (queue = next),
    saveRun: async (r) => void (run = r),
    start: (e) => void started.push(e.id),
    sleepDone: () => void sleepDone++,
    newId: () => `r${++n}`,
  });
  const view = (patch: Partial<ReadingView>): ReadingView => ({ ...IDLE_VIEW, id: q.playing?.readingId ?? 'other', state: 'playing', ...patch });
  return { q, view, started, ids: () => queue.map((e) => e.id), run: () => run, sleeps: () => sleepDone };
}

describe('the listening queue plays', () => {
  it('one entry after another; each read to the end leaves the queue', async () => {
    const w = world(['a', 'b']);
    await w.q.play();
    expect(w.started).toEqual(['a']);
    await w.q.onView(w.view({ state: 'playing' }));
    await w.q.onView(w.view({ state: 'finished' }));
    expect(w.started).toEqual(['a', 'b']);
    expect(w.ids()).toEqual(['b']);
    await w.q.onView(w.view({ state: 'finished' }));
    expect(w.ids()).toEqual([]);
    expect(w.run()).toBeNull();
  });

  it.each([
    ['a stop', { state: 'stopped' as const }],
    ['an error', { state: 'error' as const }],
  ])('%s ends the run; the entry stays', async (_n, patch) => {
    const w = world(['a', 'b']);
    await w.q.play();
    await w.q.onView(w.view(patch));
    expect(w.run()).toBeNull();
    expect(w.ids()).toEqual(['a', 'b']);
    expect(w.started).toEqual(['a']);
  });

  it('another reading started ends the run', async () => {
    const w = world(['a', 'b']);
    await w.q.play();
    await w.q.onView({ ...IDLE_VIEW, id: 'manual', state: 'extracting' });
    expect(w.run()).toBeNull();
    // The manual reading's end does not move the queue.
    await w.q.onView({ ...IDLE_VIEW, id: 'manual', state: 'finished' });
    expect(w.started).toEqual(['a']);
  });

  it('the sleep timer "to the end of the article" ends it after the entry, and is used up', async () => {
    const w = world(['a', 'b']);
    await w.q.play();
    await w.q.onView(w.view({ state: 'finished', sleepAtEnd: true }));
    expect(w.started).toEqual(['a']);
    expect(w.ids()).toEqual(['b']);
    expect(w.sleeps()).toBe(1);
    expect(w.run()).toBeNull();
  });

  it('an empty queue plays nothing', async () => {
    const w = world([]);
    await w.q.play();
    expect(w.started).toEqual([]);
    expect(w.run()).toBeNull();
  });

  it('adds made quickly are all kept, in order', async () => {
    const w = world([]);
    await Promise.all([w.q.add(entry('a')), w.q.add(entry('b')), w.q.add(entry('c'))]);
    expect(w.ids()).toEqual(['a', 'b', 'c']);
  });
});
