/**
 * What the reader's parts (asking, restoring, the player's reports) act through. The reader (`reader.ts`)
 * owns the reading's state — its view, its run, the player's load — and only its own methods change it:
 * the parts read it and ask for changes here.
 */
import type { RubUnits } from '../money/money';
import type { Settings } from '../storage/settings';
import type { ReaderDeps } from './deps';
import type { ReadingEvent } from './machine';
import type { ReadingRun } from './run';
import type { Delivery, PartialHold } from './delivery';
import type { SleepTimer } from './sleep';
import type { ReadingView } from './state';
import type { NetworkWait } from './network-wait';
import type { StepShown, ViewChange } from './view';

export interface ReaderInside {
  readonly deps: ReaderDeps;
  readonly sleep: SleepTimer;
  /** The wait for the service when it cannot be reached (one for every request of the reader). */
  readonly network: NetworkWait;
  view(): ReadingView;
  run(): ReadingRun | null;
  delivery(): Delivery | null;
  active(): boolean;
  /** What the listener is shown after `change` (`view.ts`): the only way the view changes. */
  show(change: ViewChange): Promise<void>;
  /** One event through the reading's table (`machine.ts`), its effects run; `shown`: what its step shows with the state. */
  drive(event: ReadingEvent, shown?: StepShown): Promise<void>;
  fail(err: unknown): Promise<void>;
  /** Ends the reading's requests and audio (`silence`: the player is told to stop). */
  end(silence: boolean): Promise<void>;
  /** A new load of the player: from now on, reports of the one before are not this reading's position. */
  beginLoad(): number;
  /** The player's current load (null: not known after a restart). */
  load(): number | null;
  /** A player report's load taken as the current one; false when it is from before a jump or reload. */
  takeLoad(load: number): boolean;
  play(load: number, part: number, partTime: number, settleUntil?: number): Promise<void>;
  /** Feeds the player from part `from` (a restarted background, told by the player what it holds). */
  deliverFrom(run: ReadingRun, from: number, hold: PartialHold | null, appended: boolean): void;
  grow(run: ReadingRun, tabId: number, settings: Pick<Settings, 'pronunciations' | 'urls'>, price: RubUnits): Promise<void>;
  /** The listener's own commands (a media key). */
  command(name: 'pause' | 'resume' | 'stop' | 'next' | 'prev'): Promise<void>;
  /** A reading picked up from an earlier life of the background becomes the reader's. */
  take(view: ReadingView, run: ReadingRun | null): void;
}
