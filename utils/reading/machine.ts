/**
 * The reading's life as a pure table: `step(state, event) → { state, effects }`. Every command, player
 * event and fault that changes what the listener sees is decided here, and nowhere else; the reader
 * (`reader.ts`) is the one driver that runs the effects (the player, the service, storage). Tested by
 * a table of every state × event (`machine.test.ts`).
 *
 * The money phase is part of the state (`moneyOf`): a reading being planned buys nothing, one that asks
 * buys nothing until the answer, one loading, playing or paused buys within what was agreed, one that is
 * over buys nothing more for playback. The driver enters it on every step.
 *
 * What the table does not hold: which parts are bought (the look-ahead, `lookahead.ts`; the spending gate,
 * `money/gate.ts`), and the counting of a text that grows (`growth.ts`), which change figures, not states.
 */
import type { MoneyPhase } from '../money/gate';
import type { ReadingStateName, Wait } from './state';

export type ReadingEvent =
  /** A new reading begins (the driver has ended the last one): its text is being extracted; nothing is waited for yet. */
  | { type: 'start' }
  /** The text was planned and nothing needs asking: the player is loaded on the first part. */
  | { type: 'planned' }
  /** The reading asks the listener first (its estimate, a spending cap, a preview), or again because its text grew. */
  | { type: 'ask' }
  /** The listener agreed to the cost it was asked about. */
  | { type: 'confirm' }
  /** After the answer the reading goes on: loading its first part, or as it was before it asked again. */
  | { type: 'answered'; to: 'loading' | 'playing' | 'paused' }
  /** The listener moved to another part (previous, next, a part chosen, "continue from"): the player is loaded there. */
  | { type: 'jump' }
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
  | { type: 'fault' }
  /** The service could not be reached (no answer at all): what was received plays on, the reading waits. */
  | { type: 'unreachable' }
  /** The service answered again. */
  | { type: 'reachable' }
  /** The service has not been reached for the pause limit (`network-wait.ts`). */
  | { type: 'wait-expired' };

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
  | 'show-fault'
  /** The wait for the network begins: shown with the time it began. */
  | 'wait-begins'
  /** The wait for the network is over. */
  | 'wait-ends'
  /** The listener pressed ▶ in a wait for the network: its requests try again at once, the pause limit counted anew. */
  | 'retry-now';

export interface Step {
  state: ReadingStateName;
  /** What the reading waits for, besides its state: `network` while the service cannot be reached. */
  wait: Wait;
  effects: Effect[];
  /** The money phase of the new state (`moneyOf`). */
  money: MoneyPhase;
  /** The event means something in this state (else it is ignored, and what came with it is not shown). */
  applies: boolean;
}

type Decision = Omit<Step, 'wait' | 'applies' | 'money'> & { wait?: Wait; ignored?: true };

const ACTIVE: ReadonlySet<ReadingStateName> = new Set(['extracting', 'confirm', 'loading', 'playing', 'paused']);
/** States in which audio is wanted (a reading being loaded, or sounding). */
const SOUNDING: ReadonlySet<ReadingStateName> = new Set(['loading', 'playing']);

const stay = (state: ReadingStateName): Decision => ({ state, effects: [], ignored: true });

/**
 * One event's step. A reading waits for the network beside its state (it plays on, or is paused, while it
 * waits); a reading that is over waits for nothing.
 */
export function step(state: ReadingStateName, event: ReadingEvent, wait: Wait = ''): Step {
  const decided = decide(state, event, wait);
  return { state: decided.state, wait: ACTIVE.has(decided.state) ? (decided.wait ?? wait) : '', effects: decided.effects, money: moneyOf(decided.state), applies: !decided.ignored };
}

/** The reading's state seen from the money: what the spending gate lets it buy (`money/gate.ts`). */
export function moneyOf(state: ReadingStateName): MoneyPhase {
  if (state === 'extracting') return 'planning';
  if (state === 'confirm') return 'asking';
  return ACTIVE.has(state) ? 'open' : 'over';
}

function decide(state: ReadingStateName, event: ReadingEvent, wait: Wait): Decision {
  switch (event.type) {
    case 'start':
      return { state: 'extracting', wait: '', effects: [] };
    case 'planned':
      return state === 'extracting' ? { state: 'loading', effects: [] } : stay(state);
    case 'ask':
      return state === 'extracting' || SOUNDING.has(state) || state === 'paused' ? { state: 'confirm', effects: [] } : stay(state);
    // Going on (after an answer, or to another part) while the service cannot be reached: its requests try
    // again at once, and the pause limit counts anew (they may be held at it).
    case 'answered':
      return state === 'confirm' ? { state: event.to, effects: wait === 'network' ? ['retry-now'] : [] } : stay(state);
    // From a pause, a jump is the listener listening again: the sleep timer's hold is lifted as ▶ lifts it
    // (paused by the timer or at a chapter's end, the parts past the hold were never bought, and never would be).
    case 'jump': {
      if (!SOUNDING.has(state) && state !== 'paused') return stay(state);
      const lift: Effect[] = state === 'paused' ? ['lift-sleep-hold'] : [];
      return { state: 'loading', effects: wait === 'network' ? [...lift, 'retry-now'] : lift };
    }
    case 'confirm':
      return state === 'confirm' ? { state, effects: ['agree'] } : stay(state);
    case 'stop':
      if (!ACTIVE.has(state)) return stay(state);
      return { state: 'stopped', effects: state === 'playing' || state === 'paused' ? ['keep-place', 'end', 'silence'] : ['end', 'silence'] };
    case 'pause':
      return SOUNDING.has(state) ? { state: 'paused', effects: ['keep-place', 'post-pause'] } : stay(state);
    case 'resume':
      if (state !== 'paused') return stay(state);
      // Paused while the service could not be reached (by the pause limit, or by the listener): ▶ tries at once.
      return { state: 'playing', effects: wait === 'network' ? ['lift-sleep-hold', 'post-resume', 'retry-now'] : ['lift-sleep-hold', 'post-resume'] };
    case 'toggle':
      return decide(state, { type: state === 'paused' ? 'resume' : 'pause' }, wait);
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
    case 'unreachable':
      // A reading that requests audio, or its text (a queued page's download); one asking again may have had
      // a request under way.
      return ACTIVE.has(state) && wait === '' ? { state, wait: 'network', effects: ['wait-begins'] } : stay(state);
    case 'reachable':
      return wait === 'network' ? { state, wait: '', effects: ['wait-ends'] } : stay(state);
    case 'wait-expired':
      // Paused, not failed: ▶ carries on from the same place. A reading the listener paused stays so.
      return wait === 'network' && SOUNDING.has(state) ? { state: 'paused', effects: ['keep-place', 'post-pause'] } : stay(state);
  }
}
