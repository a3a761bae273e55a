import { clear, createStore, get, promisifyRequest, type UseStore } from 'idb-keyval';
import pLimit from 'p-limit';

/** Where the bytes live: IndexedDB in the extension, a Map in unit tests. */
export interface CacheBackend {
  get(key: string): Promise<unknown>;
  /** Puts and deletes in one transaction: all of them happen, or none. */
  write(puts: ReadonlyArray<readonly [key: string, value: unknown]>, dels: readonly string[]): Promise<void>;
  clear(): Promise<void>;
}

const INDEX = '__index__';
type Index = Array<[key: string, size: number]>;

/**
 * Audio already received and paid for, by part key (text + voice + format), so
 * resume, going back and reading the same text again never request it twice.
 * It outlives the service worker (IndexedDB). Least recently used entries go
 * first once the byte cap is reached. The bytes and the index that counts them are written in one
 * transaction, one change at a time, so a worker stopped mid-write never leaves bytes the cap does not see.
 */
export class AudioCache {
  private readonly writes = pLimit(1);
  /** key → size, in recency order (oldest first). */
  private index: Map<string, number> | null = null;
  private total = 0;
  private loading: Promise<Map<string, number>> | null = null;

  /** Keys held by a Save as MP3 under way (a count each): never evicted while held. */
  private readonly held = new Map<string, number>();

  constructor(
    private readonly backend: CacheBackend,
    private readonly cap: number | (() => number) = 64 * 1024 * 1024,
  ) {}

  get capBytes(): number {
    return typeof this.cap === 'number' ? this.cap : this.cap();
  }

  /**
   * Keeps `keys` from eviction until the returned release is called (a file being made of them: a save longer
   * than the cap would otherwise lose its first parts while buying the last). The cache may pass its cap
   * meanwhile; the next write after the release brings it back under.
   */
  hold(keys: Iterable<string>): () => void {
    const mine = [...new Set(keys)];
    for (const k of mine) this.held.set(k, (this.held.get(k) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const k of mine) {
        const n = (this.held.get(k) ?? 1) - 1;
        if (n > 0) this.held.set(k, n);
        else this.held.delete(k);
      }
    };
  }

  private async load(): Promise<Map<string, number>> {
    if (this.index) return this.index;
    this.loading ??= this.backend.get(INDEX).then((saved) => {
      const index = new Map<string, number>(Array.isArray(saved) ? (saved as Index) : []);
      this.total = [...index.values()].reduce((n, s) => n + s, 0);
      this.index = index;
      return index;
    });
    return this.loading;
  }

  private commit(index: Map<string, number>, puts: ReadonlyArray<readonly [string, unknown]>, dels: readonly string[]): Promise<void> {
    return this.backend.write([...puts, [INDEX, [...index.entries()]]], dels);
  }

  async size(): Promise<number> {
    await this.load();
    return this.total;
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const index = await this.load();
    if (!index.has(key)) return undefined;
    const bytes = await this.backend.get(key);
    if (!(bytes instanceof Uint8Array) && !(bytes instanceof ArrayBuffer)) {
      await this.delete(key);
      return undefined;
    }
    await this.writes(() => {
      const size = index.get(key);
      if (size === undefined) return;
      // Re-insert: Map order is the recency order.
      index.delete(key);
      index.set(key, size);
      return this.commit(index, [], []);
    });
    return bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  }

  async has(key: string): Promise<boolean> {
    return (await this.load()).has(key);
  }

  async set(key: string, bytes: Uint8Array): Promise<void> {
    if (bytes.byteLength > this.capBytes && !this.held.has(key)) return;
    const index = await this.load();
    await this.writes(async () => {
      const before = new Map(index);
      const total = this.total;
      const replaced = index.get(key);
      if (replaced !== undefined) {
        index.delete(key);
        this.total -= replaced;
      }
      const evicted: string[] = [];
      for (const [oldest, size] of index) {
        if (this.total + bytes.byteLength <= this.capBytes) break;
        if (this.held.has(oldest)) continue;
        index.delete(oldest);
        this.total -= size;
        evicted.push(oldest);
      }
      index.set(key, bytes.byteLength);
      this.total += bytes.byteLength;
      try {
        await this.commit(index, [[key, bytes]], evicted);
      } catch (err) {
        // Nothing was written: the index in memory goes back to what is stored.
        index.clear();
        for (const [k, size] of before) index.set(k, size);
        this.total = total;
        throw err;
      }
    });
  }

  async delete(key: string): Promise<void> {
    const index = await this.load();
    await this.writes(async () => {
      const size = index.get(key);
      if (size === undefined) return;
      index.delete(key);
      this.total -= size;
      await this.commit(index, [], [key]);
    });
  }

  async clear(): Promise<void> {
    await this.writes(async () => {
      await this.backend.clear();
      this.index = new Map();
      this.loading = null;
      this.total = 0;
    });
  }
}

export function partKey(p: { text: string; voice: string; format: string }): string {
  return JSON.stringify([p.voice, p.format, p.text]);
}

export function indexedDbBackend(store: UseStore = createStore('trysasha-audio', 'parts')): CacheBackend {
  return {
    get: (key) => get(key, store),
    write: (puts, dels) =>
      store('readwrite', (s) => {
        for (const key of dels) s.delete(key);
        for (const [key, value] of puts) s.put(value, key);
        return promisifyRequest(s.transaction);
      }),
    clear: () => clear(store),
  };
}

export function memoryBackend(): CacheBackend & { map: Map<string, unknown> } {
  const map = new Map<string, unknown>();
  return {
    map,
    get: async (key) => map.get(key),
    write: async (puts, dels) => {
      for (const key of dels) map.delete(key);
      for (const [key, value] of puts) map.set(key, value);
    },
    clear: async () => map.clear(),
  };
}

export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
