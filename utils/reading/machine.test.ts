import { describe, expect, it } from 'vitest';
import type { MoneyPhase } from '../money/gate';
import { type Effect, moneyOf, type ReadingEvent, step } from './machine';
import type { ReadingStateName, Wait } from './state';

const STATES: ReadingStateName[] = ['idle', 'extracting', 'confirm', 'loading', 'playing', 'paused', 'finished', 'stopped', 'error'];
const EVENTS: Record<string, ReadingEvent> = {
  start: { type: 'start' },
  planned: { type: 'planned' },
  ask: { type: 'ask' },
  confirm: { type: 'confirm' },
  'answered (to loading)': { type: 'answered', to: 'loading' },
  'answered (to paused)': { type: 'answered', to: 'paused' },
  'answered (to playing)': { type: 'answered', to: 'playing' },
  jump: { type: 'jump' },
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
  unreachable: { type: 'unreachable' },
  reachable: { type: 'reachable' },
  'wait-expired': { type: 'wait-expired' },
};

/** Where it goes, what the driver does, and what it waits for then ('' when left out). */
type Cell = [string, Effect[], Wait?];

const ENDED: Cell = ['finished', ['end', 'forget-place']];
const FAILED: Cell = ['error', ['end', 'show-pending-error']];
const AUDIO_ERROR: Cell = ['error', ['end', 'silence', 'show-audio-error']];
const FAULT: Cell = ['error', ['end', 'silence', 'show-fault']];
const STOPPED: Cell = ['stopped', ['end', 'silence']];
const STOPPED_KEPT: Cell = ['stopped', ['keep-place', 'end', 'silence']];
const PAUSED: Cell = ['paused', ['keep-place', 'post-pause']];
const RESUMED: Cell = ['playing', ['lift-sleep-hold', 'post-resume']];
const WAITS = (state: string): Cell => [state, ['wait-begins'], 'network'];

/**
 * Every state × event: where it goes and what the driver does. A cell left out stays where it is and does
 * nothing (an ended reading ignores everything; a command that does not apply is ignored): `applies` is
 * false there, and what the event came with is not shown.
 */
const STARTS: Cell = ['extracting', []];
const TABLE: Partial<Record<ReadingStateName, Partial<Record<keyof typeof EVENTS, Cell>>>> = {
  // A new reading begins from any state (the driver ended the last one).
  idle: { start: STARTS },
  finished: { start: STARTS },
  stopped: { start: STARTS },
  error: { start: STARTS },
  extracting: { start: STARTS, planned: ['loading', []], ask: ['confirm', []], unreachable: WAITS('extracting'), stop: STOPPED, 'ended (all handed over)': ENDED, 'ended (all handed over, an error waiting)': FAILED, 'player-error': AUDIO_ERROR, fault: FAULT },
  confirm: { start: STARTS, unreachable: WAITS('confirm'), confirm: ['confirm', ['agree']], 'answered (to loading)': ['loading', []], 'answered (to paused)': ['paused', []], 'answered (to playing)': ['playing', []], stop: STOPPED, 'ended (all handed over)': ENDED, 'ended (all handed over, an error waiting)': FAILED, 'player-error': AUDIO_ERROR, fault: FAULT },
  loading: {
    start: STARTS,
    ask: ['confirm', []],
    jump: ['loading', []],
    stop: STOPPED,
    pause: PAUSED,
    toggle: PAUSED,
    playing: ['playing', []],
    'ended (all handed over)': ENDED,
    'ended (all handed over, an error waiting)': FAILED,
    lost: ['loading', ['reload']],
    'player-error': AUDIO_ERROR,
    fault: FAULT,
    unreachable: WAITS('loading'),
  },
  playing: {
    start: STARTS,
    ask: ['confirm', []],
    jump: ['loading', []],
    stop: STOPPED_KEPT,
    pause: PAUSED,
    toggle: PAUSED,
    'ended (all handed over)': ENDED,
    'ended (all handed over, an error waiting)': FAILED,
    lost: ['loading', ['reload']],
    'player-error': AUDIO_ERROR,
    fault: FAULT,
    unreachable: WAITS('playing'),
  },
  paused: {
    start: STARTS,
    ask: ['confirm', []],
    // The listener listens again: the sleep timer's hold (a timer's or a chapter's end) is lifted, as by ▶.
    jump: ['loading', ['lift-sleep-hold']],
    stop: STOPPED_KEPT,
    resume: RESUMED,
    toggle: RESUMED,
    'ended (all handed over)': ENDED,
    'ended (all handed over, an error waiting)': FAILED,
    'player-error': AUDIO_ERROR,
    fault: FAULT,
    unreachable: WAITS('paused'),
  },
};

/**
 * The same while the service cannot be reached (`wait` network, set only on an active reading): the
 * wait goes on through pause and resume, ends when the service answers or the reading is over, and
 * pauses a sounding reading at the limit.
 */
const N = 'network' as const;
const PAUSED_WAITING: Cell = ['paused', ['keep-place', 'post-pause'], N];
const OVER_WAITING: Partial<Record<keyof typeof EVENTS, Cell>> = {
  // The new reading waits for nothing yet.
  start: STARTS,
  stop: STOPPED,
  'ended (all handed over)': ENDED,
  'ended (all handed over, an error waiting)': FAILED,
  'player-error': AUDIO_ERROR,
  fault: FAULT,
  reachable: ['', ['wait-ends']],
};
const WAITING: Partial<Record<ReadingStateName, Partial<Record<keyof typeof EVENTS, Cell>>>> = {
  confirm: {
    ...OVER_WAITING,
    confirm: ['confirm', ['agree'], N],
    'answered (to loading)': ['loading', ['retry-now'], N],
    'answered (to paused)': ['paused', ['retry-now'], N],
    'answered (to playing)': ['playing', ['retry-now'], N],
    reachable: ['confirm', ['wait-ends']],
  },
  loading: {
    ...OVER_WAITING,
    ask: ['confirm', [], N],
    jump: ['loading', ['retry-now'], N],
    pause: PAUSED_WAITING,
    toggle: PAUSED_WAITING,
    playing: ['playing', [], N],
    lost: ['loading', ['reload'], N],
    reachable: ['loading', ['wait-ends']],
    'wait-expired': PAUSED_WAITING,
  },
  playing: {
    ...OVER_WAITING,
    ask: ['confirm', [], N],
    jump: ['loading', ['retry-now'], N],
    stop: STOPPED_KEPT,
    pause: PAUSED_WAITING,
    toggle: PAUSED_WAITING,
    lost: ['loading', ['reload'], N],
    reachable: ['playing', ['wait-ends']],
    'wait-expired': PAUSED_WAITING,
  },
  paused: {
    ...OVER_WAITING,
    ask: ['confirm', [], N],
    jump: ['loading', ['lift-sleep-hold', 'retry-now'], N],
    stop: STOPPED_KEPT,
    // ▶ tries the service again at once.
    resume: ['playing', ['lift-sleep-hold', 'post-resume', 'retry-now'], N],
    toggle: ['playing', ['lift-sleep-hold', 'post-resume', 'retry-now'], N],
    reachable: ['paused', ['wait-ends']],
  },
};

/**
 * The money phase of each state: what the spending gate lets a reading buy. Planning and asking buy nothing;
 * loading, playing and paused buy within what was agreed; a reading that is over buys nothing more.
 */
const MONEY: Record<ReadingStateName, MoneyPhase> = {
  idle: 'over',
  extracting: 'planning',
  confirm: 'asking',
  loading: 'open',
  playing: 'open',
  paused: 'open',
  finished: 'over',
  stopped: 'over',
  error: 'over',
};

describe('the money phase is the reading’s state seen from the money', () => {
  it.each(STATES)('%s', (state) => expect(moneyOf(state)).toBe(MONEY[state]));
});

describe('the reading as a state machine: every state × event', () => {
  const rows = STATES.flatMap((state) => Object.keys(EVENTS).map((event) => [state, event] as const));
  it.each(rows)('%s + %s', (state, event) => {
    const cell = TABLE[state]?.[event];
    const [to, effects, wait = ''] = cell ?? [state, []];
    expect(step(state, EVENTS[event]!)).toEqual({ state: to, wait, effects, money: MONEY[to as ReadingStateName], applies: cell !== undefined });
  });

  it('covers every pair: 9 states × 23 events', () => {
    expect(rows).toHaveLength(207);
  });
});

describe('… while waiting for the network: every active state × event', () => {
  const rows = (['confirm', 'loading', 'playing', 'paused'] as const).flatMap((state) => Object.keys(EVENTS).map((event) => [state, event] as const));
  it.each(rows)('%s (waiting) + %s', (state, event) => {
    const cell = WAITING[state]?.[event];
    const [to, effects, wait = ''] = cell ?? [state, [], N];
    expect(step(state, EVENTS[event]!, 'network')).toEqual({ state: to, wait, effects, money: MONEY[to as ReadingStateName], applies: cell !== undefined });
  });
});
