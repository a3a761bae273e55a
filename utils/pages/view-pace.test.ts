import { describe, expect, it } from 'vitest';
import { IDLE_VIEW, type ReadingView } from '../reading/state';
import { mayWait } from './view-pace';

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
