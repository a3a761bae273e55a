import { describe, expect, it } from 'vitest';
import { type Effect, type ReadingEvent, step } from './machine';
import type { ReadingStateName } from './state';

const STATES: ReadingStateName[] = ['idle', 'extracting', 'confirm', 'loading', 'playing', 'paused', 'finished', 'stopped', 'error'];
const EVENTS: Record<string, ReadingEvent> = {
  confirm: { type: 'confirm' },
  stop: { type: 'stop' },
  pause: { type: 'pause' },
  resume: { type: 'resume' },
  toggle: { type: 'toggle' },
  playing: { type: 'playing' },
  'ended (underrun)': { type: 'ended', done: false, pendingError: false },
  'ended (all handed over)': { type: 'ended', done: true, pendingError: false },
  'ended (all handed over, an error waiting)': { type: 'ended', done: true, pendingError: true },
  lost: { type: 'lost', reloading: false },
  'lost (already reloading)': { type: 'lost', reloading: true },
  'player-error': { type: 'player-error' },
  fault: { type: 'fault' },
};

const ENDED: [string, Effect[]] = ['finished', ['end', 'forget-place']];
const FAILED: [string, Effect[]] = ['error', ['end', 'show-pending-error']];
const AUDIO_ERROR: [string, Effect[]] = ['error', ['end', 'silence', 'show-audio-error']];
const FAULT: [string, Effect[]] = ['error', ['end', 'silence', 'show-fault']];
const STOPPED: [string, Effect[]] = ['stopped', ['end', 'silence']];
const STOPPED_KEPT: [string, Effect[]] = ['stopped', ['keep-place', 'end', 'silence']];
const PAUSED: [string, Effect[]] = ['paused', ['keep-place', 'post-pause']];
const RESUMED: [string, Effect[]] = ['playing', ['lift-sleep-hold', 'post-resume']];

/**
 * Every state × event: where it goes and what the driver does. A cell left out stays where it is and does
 * nothing (an ended reading ignores everything; a command that does not apply is ignored).
 */
const TABLE: Partial<Record<ReadingStateName, Partial<Record<keyof typeof EVENTS, [string, Effect[]]>>>> = {
  extracting: { stop: STOPPED, 'ended (all handed over)': ENDED, 'ended (all handed over, an error waiting)': FAILED, 'player-error': AUDIO_ERROR, fault: FAULT },
  confirm: { confirm: ['confirm', ['agree']], stop: STOPPED, 'ended (all handed over)': ENDED, 'ended (all handed over, an error waiting)': FAILED, 'player-error': AUDIO_ERROR, fault: FAULT },
  loading: {
    stop: STOPPED,
    pause: PAUSED,
    toggle: PAUSED,
    playing: ['playing', []],
    'ended (all handed over)': ENDED,
    'ended (all handed over, an error waiting)': FAILED,
    lost: ['loading', ['reload']],
    'player-error': AUDIO_ERROR,
    fault: FAULT,
  },
  playing: {
    stop: STOPPED_KEPT,
    pause: PAUSED,
    toggle: PAUSED,
    'ended (all handed over)': ENDED,
    'ended (all handed over, an error waiting)': FAILED,
    lost: ['loading', ['reload']],
    'player-error': AUDIO_ERROR,
    fault: FAULT,
  },
  paused: {
    stop: STOPPED_KEPT,
    resume: RESUMED,
    toggle: RESUMED,
    'ended (all handed over)': ENDED,
    'ended (all handed over, an error waiting)': FAILED,
    'player-error': AUDIO_ERROR,
    fault: FAULT,
  },
};

describe('the reading as a state machine: every state × event', () => {
  const rows = STATES.flatMap((state) => Object.keys(EVENTS).map((event) => [state, event] as const));
  it.each(rows)('%s + %s', (state, event) => {
    const [to, effects] = TABLE[state]?.[event] ?? [state, []];
    expect(step(state, EVENTS[event]!)).toEqual({ state: to, effects });
  });

  it('covers every pair: 9 states × 13 events', () => {
    expect(rows).toHaveLength(117);
  });
});
