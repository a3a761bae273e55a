/**
 * The reading's life as a pure table: `step(state, event) → { state, effects }`. Every command, player
 * event and fault that changes what the listener sees is decided here, and nowhere else; the reader
 * (`session.ts`) is the one driver that runs the effects (the player, the service, storage). Tested by
 * a table of every state × event (`machine.test.ts`).
 *
 * What the table does not hold: how parts are bought (the look-ahead, `lookahead.ts`; the spending gate,
 * `money/gate.ts`), and the counting of a text that grows (`growth.ts`), which change figures, not states.
 */
import type { ReadingStateName } from './state';

export type ReadingEvent =
  /** The listener agreed to the cost it was asked about. */
  | { type: 'confirm' }
  | { type: 'stop' }
  | { type: 'pause' }
  | { type: 'resume' }
  | { type: 'toggle' }
  /** The player started sounding. */
  | { type: 'playing' }
  /** The player ran out of audio: the reading's end when every part was handed over (`done`), else an underrun. */
  | { type: 'ended'; done: boolean; pendingError: boolean }
  /** The player lost the reading (Chrome closed a silent offscreen document); `reloading`: it is already being loaded again. */
  | { type: 'lost'; reloading: boolean }
  /** The player could not play what it was given. */
  | { type: 'player-error' }
  /** A stopping error (a refused key, an empty balance …) before any audio reached the player. */
  | { type: 'fault' };

export type Effect =
  /** Where the listener is kept on this page, to the second. */
  | 'keep-place'
  /** The run ends: its deliveries stop; a part under way still finishes into the cache. */
  | 'end'
  /** … and the player is silenced. */
  | 'silence'
  | 'post-pause'
  | 'post-resume'
  /** The sleep timer's hold goes (the listener resumed after it paused the reading). */
  | 'lift-sleep-hold'
  /** The reading may buy beyond what was asked about. */
  | 'agree'
  /** The player is loaded again from the part and second the reading is at. */
  | 'reload'
  /** Read to the end: nothing to continue from on this page. */
  | 'forget-place'
  /** The pending stopping error is shown. */
  | 'show-pending-error'
  /** The player's error is shown. */
  | 'show-audio-error'
  /** The fault is shown. */
  | 'show-fault';

export interface Step {
  state: ReadingStateName;
  effects: Effect[];
}

const ACTIVE: ReadonlySet<ReadingStateName> = new Set(['extracting', 'confirm', 'loading', 'playing', 'paused']);
/** States in which audio is wanted (a reading being loaded, or sounding). */
const SOUNDING: ReadonlySet<ReadingStateName> = new Set(['loading', 'playing']);

const stay = (state: ReadingStateName): Step => ({ state, effects: [] });

export function step(state: ReadingStateName, event: ReadingEvent): Step {
  switch (event.type) {
    case 'confirm':
      return state === 'confirm' ? { state, effects: ['agree'] } : stay(state);
    case 'stop':
      if (!ACTIVE.has(state)) return stay(state);
      return { state: 'stopped', effects: state === 'playing' || state === 'paused' ? ['keep-place', 'end', 'silence'] : ['end', 'silence'] };
    case 'pause':
      return SOUNDING.has(state) ? { state: 'paused', effects: ['keep-place', 'post-pause'] } : stay(state);
    case 'resume':
      return state === 'paused' ? { state: 'playing', effects: ['lift-sleep-hold', 'post-resume'] } : stay(state);
    case 'toggle':
      return step(state, { type: state === 'paused' ? 'resume' : 'pause' });
    case 'playing':
      return state === 'loading' ? { state: 'playing', effects: [] } : stay(state);
    case 'ended':
      // An underrun: more audio is on the way.
      if (!ACTIVE.has(state) || !event.done) return stay(state);
      return event.pendingError ? { state: 'error', effects: ['end', 'show-pending-error'] } : { state: 'finished', effects: ['end', 'forget-place'] };
    case 'lost':
      // Only a reading that should be sounding is reloaded; a paused one reloads when resumed.
      return SOUNDING.has(state) && !event.reloading ? { state: 'loading', effects: ['reload'] } : stay(state);
    case 'player-error':
      return ACTIVE.has(state) ? { state: 'error', effects: ['end', 'silence', 'show-audio-error'] } : stay(state);
    case 'fault':
      return ACTIVE.has(state) ? { state: 'error', effects: ['end', 'silence', 'show-fault'] } : stay(state);
  }
}
