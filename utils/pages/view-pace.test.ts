import { describe, expect, it } from 'vitest';
import { IDLE_VIEW, type ReadingView } from '../reading/state';
import { mayWait, startingView } from './view-pace';

const view = (id: string, state: ReadingView['state'], costRub = '0.0000'): ReadingView => ({ ...IDLE_VIEW, id, state, costRub });

describe('mayWait: what the popup draws a moment later', () => {
  it.each([
    ['the first part billed while it loads', view('a', 'loading'), view('a', 'loading', '0.0100'), true],
    ['loading → playing', view('a', 'loading'), view('a', 'playing'), false],
    ['extracting → loading', view('a', 'extracting'), view('a', 'loading'), false],
    ['a change while playing (the position)', view('a', 'playing'), view('a', 'playing', '0.0100'), false],
    ['a new reading that is loading', view('a', 'loading'), view('b', 'loading'), false],
    ['nothing drawn yet', null, view('a', 'loading'), false],
    ['an error while loading', view('a', 'loading'), view('a', 'error'), false],
  ] as const)('%s → %s', (_name, shown, next, wait) => {
    expect(mayWait(shown, next)).toBe(wait);
  });
});

describe('startingView: the popup over a reading it asked to start', () => {
  const asked = { sentAt: 1_000, tabId: 7 };
  const at = (v: ReadingView, updatedAt: number, sleepAt = 0): ReadingView => ({ ...v, updatedAt, sleepAt });
  const extracting = (sleepAt = 0): ReadingView => ({ ...IDLE_VIEW, state: 'extracting', tabId: 7, sleepAt, updatedAt: 1_000 });
  it.each([
    ['nothing asked (opened by the toolbar)', at(view('a', 'finished', '1.0000'), 500), null, at(view('a', 'finished', '1.0000'), 500)],
    ['the last reading finished, nothing new yet', at(view('a', 'finished', '1.0000'), 500), asked, extracting()],
    ['the last reading stopped', at(view('a', 'stopped'), 500), asked, extracting()],
    ['the last reading ended in an error', at(view('a', 'error'), 500), asked, extracting()],
    ['no reading ever (idle)', IDLE_VIEW, asked, extracting()],
    ['the view not read yet', null, asked, extracting()],
    ['a sleep timer still set', at(view('a', 'stopped'), 500, 5_000), asked, extracting(5_000)],
    ['a sleep timer run out', at(view('a', 'stopped'), 500, 900), asked, extracting()],
    ['the new reading written (extracting)', at(view('b', 'extracting'), 1_010), asked, at(view('b', 'extracting'), 1_010)],
    ['the new reading failed at once (a restricted page)', at(view('b', 'error'), 1_020), asked, at(view('b', 'error'), 1_020)],
    ['an active reading the background keeps', at(view('a', 'playing'), 500), asked, at(view('a', 'playing'), 500)],
    ['a reading paused', at(view('a', 'paused'), 500), asked, at(view('a', 'paused'), 500)],
  ] as const)('%s', (_name, stored, ask, shown) => {
    expect(startingView(stored, ask, 2_000)).toEqual(shown);
  });
});
