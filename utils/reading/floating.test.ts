import { describe, expect, it } from 'vitest';
import { clampPlace } from '@/components/FloatingPlayer';
import { placeOf } from '../storage/page-options';
import { FloatingLink, floatingViewOf } from './floating';
import type { FloatingView } from '../messaging/views';
import { IDLE_VIEW, type ReadingView } from './state';

const view = (patch: Partial<ReadingView>): ReadingView => ({ ...IDLE_VIEW, id: 'r1', tabId: 7, state: 'playing', parts: 4, costRub: '0.0100', ...patch });

describe('floatingViewOf: where the mini-player shows', () => {
  it.each([
    ['idle', { state: 'idle' as const, id: '' }, false],
    ['extracting (the page is busy finding the text)', { state: 'extracting' as const }, false],
    ['confirm', { state: 'confirm' as const }, true],
    ['playing', {}, true],
    ['paused', { state: 'paused' as const }, true],
    ['finished', { state: 'finished' as const }, false],
    ['stopped', { state: 'stopped' as const }, false],
    ['error', { state: 'error' as const, error: { code: 'network', requestId: '', detail: '' } }, true],
    ['no tab (a restored reading of a closed tab)', { tabId: null }, false],
  ])('%s', (_name, patch, shown) => {
    expect(floatingViewOf(view(patch)) !== null).toBe(shown);
  });

  it('carries no balance and no key, only what the player shows', () => {
    expect(Object.keys(floatingViewOf(view({ balanceRub: '99.0000' }))!).sort()).toEqual(['costRub', 'error', 'part', 'parts', 'rate', 'readingId', 'state', 'title', 'wait', 'waitSince']);
  });
});

describe('FloatingLink: what is sent to which tab', () => {
  const world = (enabled = true) => {
    const sent: [number, FloatingView | null][] = [];
    const link = new FloatingLink({ send: async (tab, v) => void sent.push([tab, v]), enabled: () => enabled, place: () => null });
    return { sent, link };
  };

  it.each<[string, Partial<ReadingView>[], [number, string | null][]]>([
    ['shown once, again only when what it shows changes', [{}, { position: 3 }, { partTime: 2 }, { part: 1 }], [[7, 'playing:0'], [7, 'playing:1']]],
    ['taken away on stop', [{}, { state: 'stopped' }], [[7, 'playing:0'], [7, null]]],
    ['a wait for the network shown as it begins and as it ends', [{}, { wait: 'network', waitSince: 5 }, { position: 4 }, { wait: '', waitSince: 0 }], [[7, 'playing:0'], [7, 'playing:0'], [7, 'playing:0']]],
    ['taken away when the reading finishes', [{}, { state: 'finished' }], [[7, 'playing:0'], [7, null]]],
    ['moves with a new reading to another tab', [{}, { id: 'r2', tabId: 9 }], [[7, 'playing:0'], [7, null], [9, 'playing:0']]],
    ['a pause is shown', [{}, { state: 'paused' }], [[7, 'playing:0'], [7, 'paused:0']]],
    ['first shown once the audio plays, not while the first part loads', [{ state: 'loading' }, { state: 'playing' }], [[7, 'playing:0']]],
    ['once shown, a jump (loading again) is shown', [{}, { state: 'loading', part: 2 }, { part: 2 }], [[7, 'playing:0'], [7, 'loading:2'], [7, 'playing:2']]],
    ['shown while the reading asks first', [{ state: 'confirm' }], [[7, 'confirm:0']]],
    ['nothing for a reading with no tab', [{ tabId: null }], []],
  ])('%s', async (_name, views, expected) => {
    const { sent, link } = world();
    for (const patch of views) link.onView(view(patch));
    await link.settled();
    expect(sent.map(([tab, v]) => [tab, v && `${v.state}:${v.part}`])).toEqual(expected);
  });

  it('a slow first send (its script being injected) is not overtaken by the next view', async () => {
    const sent: string[] = [];
    let first = true;
    const link = new FloatingLink({
      send: async (_tab, v) => {
        if (first) {
          first = false;
          await new Promise((r) => setTimeout(r, 20));
        }
        sent.push(v ? `${v.state}:${v.part}` : 'gone');
      },
      enabled: () => true,
      place: () => null,
    });
    link.onView(view({ state: 'playing' }));
    link.onView(view({ part: 1 }));
    link.onView(view({ state: 'stopped' }));
    await link.settled();
    expect(sent).toEqual(['playing:0', 'playing:1', 'gone']);
  });

  it('switched off: nothing shown, and switching off takes it away at once', async () => {
    let on = true;
    const sent: [number, FloatingView | null][] = [];
    const link = new FloatingLink({ send: async (tab, v) => void sent.push([tab, v]), enabled: () => on, place: () => null });
    link.onView(view({}));
    on = false;
    link.refresh(view({}));
    link.onView(view({ part: 2 }));
    await link.settled();
    expect(sent.map(([tab, v]) => [tab, v?.state ?? null])).toEqual([[7, 'playing'], [7, null]]);
  });
});

describe('the place the user put it', () => {
  it.each([
    [{ right: 20, bottom: 30 }, { right: 20, bottom: 30 }],
    [{ right: -5, bottom: 1e9 }, { right: 0, bottom: 10_000 }],
    [{ right: 'x', bottom: 3 }, null],
    [{ right: Number.NaN, bottom: 3 }, null],
    [null, null],
    ['12,30', null],
  ])('placeOf(%j) = %j', (input, expected) => {
    expect(placeOf(input)).toEqual(expected);
  });

  it.each([
    [{ right: 16, bottom: 16 }, { right: 16, bottom: 16 }],
    // Past the left or top edge: kept inside the window.
    [{ right: 2000, bottom: 2000 }, { right: 800 - 300, bottom: 600 - 80 }],
    [{ right: -10, bottom: -10 }, { right: 0, bottom: 0 }],
  ])('clampPlace(%j) in an 800×600 window = %j', (place, expected) => {
    expect(clampPlace(place, { width: 300, height: 80 }, { width: 800, height: 600 })).toEqual(expected);
  });
});
