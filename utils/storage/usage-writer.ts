import pLimit from 'p-limit';
import { appendUsage, type UsageEntry } from './usage-history';

export interface UsageStore {
  get(): Promise<UsageEntry[]>;
  set(list: UsageEntry[]): Promise<void>;
}

/**
 * The background's one writer of the usage history: every append and the clearing go through one queue,
 * so a clear can never be undone by an append that read the list before it. A write that fails is
 * reported (`failed(true)`, shown by the pages) instead of being lost silently; the next good one clears it.
 */
export function usageWriter(store: UsageStore, failed: (yes: boolean) => void) {
  const queue = pLimit(1);
  let failing: boolean | null = null;
  const report = (yes: boolean) => {
    if (failing !== yes) failed(yes);
    failing = yes;
  };
  const write = (change: (list: UsageEntry[]) => UsageEntry[]) =>
    queue(async () => {
      try {
        await store.set(change(await store.get()));
        report(false);
      } catch (err) {
        report(true);
        throw err;
      }
    });
  return {
    append: (entry: UsageEntry) => write((list) => appendUsage(list, entry)),
    clear: () => write(() => []),
  };
}
