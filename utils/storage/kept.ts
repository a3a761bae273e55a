/**
 * A value read once and kept in memory until `forget` (the background's copies of what a reading's start
 * needs at once: the settings, the key check). A read that fails is not kept; one that a `forget` came
 * after is not kept either (it may hold what was there before the change).
 */
export interface Kept<T> {
  /** The kept value, or a new read when none is kept. */
  get(): Promise<T>;
  /** The kept value without waiting; undefined while none has been read (or it is being read again). */
  now(): T | undefined;
  forget(): void;
}

export function kept<T>(read: () => Promise<T>): Kept<T> {
  let pending: Promise<T> | null = null;
  let value: { of: T } | null = null;
  return {
    get() {
      if (pending) return pending;
      const reading = read();
      pending = reading;
      reading.then(
        (v) => {
          if (pending === reading) value = { of: v };
        },
        () => {
          if (pending === reading) pending = null;
        },
      );
      return reading;
    },
    now: () => value?.of,
    forget() {
      pending = null;
      value = null;
    },
  };
}
