/** The part of a `@wxt-dev/storage` item a page needs to show its value. */
export interface Watchable<T> {
  getValue(): Promise<T>;
  watch(cb: (value: T | null) => void): () => void;
}

/**
 * Calls `show` with an item's value now and on every change. A change can
 * reach the page before the first read answers (the background writes while
 * the page opens): the read's older value must not replace it, so a read
 * that answers after a change is dropped.
 */
export function followStored<T>(item: Watchable<T>, fallback: T, show: (value: T) => void): () => void {
  let changed = false;
  let live = true;
  const unwatch = item.watch((value) => {
    changed = true;
    show(value ?? fallback);
  });
  void item.getValue().then(
    (value) => {
      if (live && !changed) show(value ?? fallback);
    },
    () => undefined,
  );
  return () => {
    live = false;
    unwatch();
  };
}
