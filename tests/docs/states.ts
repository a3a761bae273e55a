/**
 * The reading's state table as docs/architecture.md shows it, made from the table itself
 * (`step` in utils/reading/machine.ts): every event in every state, where it goes and what the driver does.
 * `npm run docs:states` writes it between the two markers; the docs check compares it with what is there.
 */
import { step, type ReadingEvent } from '../../utils/reading/machine.ts';
import type { ReadingStateName, Wait } from '../../utils/reading/state.ts';

export const BEGIN = '<!-- states:begin (written by `npm run docs:states` from utils/reading/machine.ts; do not edit by hand) -->';
export const END = '<!-- states:end -->';

/** Every state, in the order a reading goes through them (the type says when one is added or removed). */
const STATE_ORDER = { idle: 0, extracting: 1, confirm: 2, loading: 3, playing: 4, paused: 5, finished: 6, stopped: 7, error: 8 } satisfies Record<ReadingStateName, number>;
const STATES = (Object.keys(STATE_ORDER) as ReadingStateName[]).sort((a, b) => STATE_ORDER[a] - STATE_ORDER[b]);

/** Every event, each way it can come (the type says when one is added or removed). */
const EVENTS: { [T in ReadingEvent['type']]: Array<[string, Extract<ReadingEvent, { type: T }>]> } = {
  start: [['start', { type: 'start' }]],
  planned: [['planned', { type: 'planned' }]],
  ask: [['ask', { type: 'ask' }]],
  confirm: [['confirm', { type: 'confirm' }]],
  answered: [
    ['answered (to loading)', { type: 'answered', to: 'loading' }],
    ['answered (to playing)', { type: 'answered', to: 'playing' }],
    ['answered (to paused)', { type: 'answered', to: 'paused' }],
  ],
  jump: [['jump', { type: 'jump' }]],
  stop: [['stop', { type: 'stop' }]],
  pause: [['pause', { type: 'pause' }]],
  resume: [['resume', { type: 'resume' }]],
  toggle: [['toggle', { type: 'toggle' }]],
  playing: [['playing', { type: 'playing' }]],
  ended: [
    ['ended (underrun)', { type: 'ended', done: false, pendingError: false }],
    ['ended (all handed over)', { type: 'ended', done: true, pendingError: false }],
    ['ended (all handed over, an error waiting)', { type: 'ended', done: true, pendingError: true }],
  ],
  lost: [
    ['lost', { type: 'lost', reloading: false }],
    ['lost (already reloading)', { type: 'lost', reloading: true }],
  ],
  'player-error': [['player-error', { type: 'player-error' }]],
  fault: [['fault', { type: 'fault' }]],
  unreachable: [['unreachable', { type: 'unreachable' }]],
  reachable: [['reachable', { type: 'reachable' }]],
  'wait-expired': [['wait-expired', { type: 'wait-expired' }]],
};
const ROWS: Array<[string, ReadingEvent]> = Object.values(EVENTS).flat();
/** The states a reading can wait for the network in (one that is over waits for nothing), as the table says. */
const CAN_WAIT = STATES.filter((s) => step(s, { type: 'unreachable' }, '').wait === 'network');

/** One cell: `·` when the event is ignored there, else where it goes (`=` stays), the effects, and a change of what it waits for. */
function cell(state: ReadingStateName, event: ReadingEvent, wait: Wait): string {
  const next = step(state, event, wait);
  if (!next.applies) return '·';
  const to = next.state === state ? '=' : `→ ${next.state}`;
  const effects = next.effects.length ? `: ${next.effects.join(', ')}` : '';
  // A reading that ends waits for nothing: only a wait that begins, or ends while the reading goes on, is said.
  const goesOn = CAN_WAIT.includes(next.state);
  const waits = next.wait !== wait && goesOn ? (next.wait ? ' (waits: network)' : ' (wait over)') : '';
  return `${to}${effects}${waits}`;
}

const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
const head = (states: ReadingStateName[]) => [row(['event ↓ / state →', ...states.map((s) => `\`${s}\``)]), row(['---', ...states.map(() => '---')])];

/** The Markdown written between the markers: the table with nothing waited for, then what differs while the network is waited for. */
export function stateTable(): string {
  const plain = ROWS.map(([label, event]) => row([`\`${label}\``, ...STATES.map((s) => cell(s, event, ''))]));
  const differs = ROWS.filter(([, event]) => CAN_WAIT.some((s) => cell(s, event, 'network') !== cell(s, event, '')));
  const waiting = differs.map(([label, event]) =>
    row([`\`${label}\``, ...CAN_WAIT.map((s) => (cell(s, event, 'network') === cell(s, event, '') ? '″' : cell(s, event, 'network')))]),
  );
  return [
    BEGIN,
    '',
    ...head(STATES),
    ...plain,
    '',
    'While the reading waits for the network (`wait: network`, only in the states below), these cells differ (″: as above):',
    '',
    ...head(CAN_WAIT),
    ...waiting,
    '',
    END,
  ].join('\n');
}

/** `markdown` with the text between the markers (the markers included) replaced by `table`; null when a marker is missing. */
export function withTable(markdown: string, table: string, markers: readonly [string, string] = [BEGIN, END]): string | null {
  const begin = markdown.indexOf(markers[0]);
  const end = markdown.indexOf(markers[1]);
  if (begin < 0 || end < begin) return null;
  return markdown.slice(0, begin) + table + markdown.slice(end + markers[1].length);
}
