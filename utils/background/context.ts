/**
 * What the background's features share, made once in `main` (entrypoints/background.ts), and the shape
 * of a feature.
 *
 * A feature is one file here exporting `init(signal, ctx)`: the same name in every file, so the
 * background lists modules (`import * as toolbar from …`) and reads as the list of what the extension
 * does, and a test imports the one it drives, passing its own `ctx` (refined-github's shape). `ctx` is
 * taken as a `Pick` of what the feature uses: its signature says its dependencies.
 *
 * `init` is synchronous: a worker's listeners must be added in its first turn, or the event that woke
 * it is lost. What it adds it removes when `signal` aborts; nothing aborts it in the extension, a test
 * ends a feature with it.
 */
import type { ReadingCommand } from '../messaging/protocol';
import type { ListeningQueue } from '../queue/queue';
import type { Reader } from '../reading/reader';
import type { ReadingView } from '../reading/state';

/** Called with each new view of the reading and its write. */
export type ViewListener = (view: ReadingView, written: Promise<void>) => void;

export interface BackgroundContext {
  readonly reader: Reader;
  readonly queue: ListeningQueue;
  /** From the context menu: a page to the listening queue (its origin asked for in the click itself). */
  readonly addToQueue: (url: string, title: string) => void;
  readonly runCommand: (command: ReadingCommand) => Promise<void>;
  /** Follows the reading's views, in the order features subscribed; answers the unsubscribe. */
  readonly onView: (listener: ViewListener) => () => void;
}

export interface Feature {
  init(signal: AbortSignal, ctx: BackgroundContext): void;
}

/** The reader's views handed on to each feature that follows them (`emit` goes to `createReader`). */
export function viewListeners() {
  const listeners = new Set<ViewListener>();
  return {
    emit: (view: ReadingView, written: Promise<void>) => {
      for (const listener of listeners) listener(view, written);
    },
    add: (listener: ViewListener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/** The popup's commands, the mini-player's and the shortcuts' are the same few. */
export function commandRunner(reader: Pick<Reader, 'pause' | 'resume' | 'toggle' | 'stop' | 'jump' | 'confirm'>) {
  return (command: ReadingCommand): Promise<void> => {
    switch (command) {
      case 'pause':
        return reader.pause();
      case 'resume':
        return reader.resume();
      case 'toggle':
        return reader.toggle();
      case 'stop':
        return reader.stop();
      case 'next':
        return reader.jump(1);
      case 'prev':
        return reader.jump(-1);
      case 'confirm':
        return reader.confirm();
    }
  };
}

/** Runs `removers` once `signal` aborts. */
export function onAbort(signal: AbortSignal, ...removers: Array<() => void>): void {
  signal.addEventListener('abort', () => removers.forEach((remove) => remove()), { once: true });
}

/** `event.addListener(listener)`, removed once `signal` aborts. */
export function listen<L>(signal: AbortSignal, event: { addListener(listener: L): void; removeListener(listener: L): void }, listener: L): void {
  event.addListener(listener);
  onAbort(signal, () => event.removeListener(listener));
}
