/**
 * The listening queue's player (background): plays its entries one after another, each a normal
 * reading (money, confirmation, cache and errors as ever) of the page's article, fetched when its turn
 * comes. An entry read to the end leaves the queue and the next one starts; a stop, an error, another
 * reading started, or the sleep timer "to the end of the article" ends the run (the entries stay).
 */
import { isActive, type ReadingView } from '../reading/state';
import { moved, type QueueEntry, type QueueRun, withEntry, without } from '../storage/queue';

export interface QueueDeps {
  load(): Promise<QueueEntry[]>;
  save(queue: QueueEntry[]): Promise<void>;
  saveRun(run: QueueRun | null): Promise<void>;
  /** Starts the reading `readingId` of the entry's page (its article fetched then). */
  start(entry: QueueEntry, readingId: string): void;
  /** The sleep timer "to the end of the article" was used up: it goes off. */
  sleepDone(): void;
  newId(): string;
}

export class ListeningQueue {
  private run: QueueRun | null = null;
  /** Changes of the stored queue, one at a time (adds from the menu can come quickly). */
  private changes: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: QueueDeps) {}

  /** After a restart of the background: the run it was in, if any. */
  restore(run: QueueRun | null): void {
    this.run = run;
  }

  get playing(): QueueRun | null {
    return this.run;
  }

  add(entry: QueueEntry): Promise<void> {
    return this.change((q) => withEntry(q, entry));
  }

  /** An entry's count or title, learnt after it was added. */
  update(id: string, patch: Partial<Pick<QueueEntry, 'chars' | 'title' | 'site'>>): Promise<void> {
    return this.change((q) => q.map((e) => (e.id === id ? { ...e, ...patch } : e)));
  }

  move(id: string, delta: number): Promise<void> {
    return this.change((q) => moved(q, id, delta));
  }

  remove(id: string): Promise<void> {
    return this.change((q) => without(q, id));
  }

  /** Plays the queue from its first entry (the reading in progress, if any, is replaced). */
  async play(): Promise<void> {
    await this.changes;
    const [first] = await this.deps.load();
    await this.begin(first ?? null);
  }

  /** Follows the reader: on to the next entry when one is read to the end. */
  async onView(view: ReadingView): Promise<void> {
    const run = this.run;
    if (!run) return;
    if (view.id !== run.readingId) {
      // Another reading started (from the page, the menu, a shortcut): the queue stops playing.
      if (view.id && isActive(view.state)) await this.begin(null);
      return;
    }
    if (view.state === 'finished') {
      await this.remove(run.entryId);
      if (view.sleepAtEnd) {
        this.deps.sleepDone();
        await this.begin(null);
        return;
      }
      const [next] = await this.deps.load();
      await this.begin(next ?? null);
    } else if (view.state === 'stopped' || view.state === 'error') {
      await this.begin(null);
    }
  }

  private async begin(entry: QueueEntry | null): Promise<void> {
    this.run = entry ? { entryId: entry.id, readingId: this.deps.newId() } : null;
    await this.deps.saveRun(this.run);
    if (entry && this.run) this.deps.start(entry, this.run.readingId);
  }

  private change(f: (q: QueueEntry[]) => QueueEntry[]): Promise<void> {
    const next = this.changes.then(async () => this.deps.save(f(await this.deps.load())));
    this.changes = next.catch(() => undefined);
    return next;
  }
}
