/** The part of a `@wxt-dev/storage` item the extension uses. */
export interface StoredItem<T> {
  getValue(): Promise<T>;
  setValue(value: T): Promise<void>;
  removeValue(): Promise<void>;
  watch(cb: (value: T) => void): () => void;
}

/**
 * A stored item whose every value goes through `clean`, on the way in and on the way out: what is written is
 * bounded whoever writes it, and what is read back is never trusted as is (a value an earlier version wrote,
 * or one changed by hand, may be of any shape and length).
 */
export function boundedItem<T>(item: StoredItem<T>, clean: (value: unknown) => T): StoredItem<T> {
  return {
    getValue: async () => clean(await item.getValue()),
    setValue: (value) => item.setValue(clean(value)),
    removeValue: () => item.removeValue(),
    watch: (cb) => item.watch((value) => cb(clean(value))),
  };
}
