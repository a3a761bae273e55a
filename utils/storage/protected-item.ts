/**
 * A value the background alone may change, kept with the API key in the extension origin's IndexedDB
 * (background). Content scripts can write `storage.local` in Firefox (Chromium closes it to them): the
 * service address, the confirmation threshold, the caps and what the caps count are kept here instead.
 * An older version's copy in `storage.local` is moved here at the first read.
 */
import { createStore, del, get, set, type UseStore } from 'idb-keyval';

/** Where an older version kept the value: read once, then removed. */
export interface Legacy {
  get(name: string): Promise<unknown>;
  remove(name: string): Promise<void>;
}

export interface ProtectedItem<T> {
  getValue(): Promise<T>;
  setValue(value: T): Promise<void>;
  /** Called after each `setValue` (the background is the only writer); returns the unwatch. */
  watch(listener: (value: T) => void): () => void;
}

export interface ProtectedDeps {
  store: UseStore;
  legacy: Legacy | null;
}

export const protectedStore = (): UseStore => createStore('trysasha-protected', 'values');

export function protectedItem<T>(name: string, fallback: T, deps: () => ProtectedDeps): ProtectedItem<T> {
  const listeners = new Set<(value: T) => void>();
  let moved: Promise<void> | null = null;
  /** The older version's copy, moved over once (a failed move is tried again at the next read). */
  const moveLegacy = (d: ProtectedDeps) => {
    moved ??= (async () => {
      if (!d.legacy || (await get(name, d.store)) !== undefined) return;
      const old = await d.legacy.get(name);
      if (old !== undefined && old !== null) await set(name, old, d.store);
      await d.legacy.remove(name);
    })().catch((err: unknown) => {
      moved = null;
      throw err;
    });
    return moved;
  };
  return {
    async getValue() {
      const d = deps();
      await moveLegacy(d);
      const value = await get<T>(name, d.store);
      return value === undefined ? fallback : value;
    },
    async setValue(value) {
      const d = deps();
      await moveLegacy(d).catch(() => undefined);
      if (value === null || value === undefined) await del(name, d.store);
      else await set(name, value, d.store);
      for (const listener of listeners) listener(value);
    },
    watch(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
