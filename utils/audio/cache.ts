import { clear, createStore, del, get, set, type UseStore } from 'idb-keyval';

/** Where the bytes live: IndexedDB in the extension, a Map in unit tests. */
export interface CacheBackend {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  del(key: string): Promise<void>;
  clear(): Promise<void>;
}

const INDEX = '__index__';
type Index = Array<[key: string, size: number]>;

/**
 * Audio already received and paid for, by part key (text + voice + format), so
 * resume, going back and reading the same text again never request it twice.
 * It outlives the service worker (IndexedDB). Least recently used entries go
 * first once the byte cap is reached.
 */
export class AudioCache {
  /** key → size, in recency order (oldest first). */
  private index: Map<string, number> | null = null;
  private total = 0;
  private loading: Promise<Map<string, number>> | null = null;

  constructor(
    private readonly backend: CacheBackend,
    readonly capBytes = 64 * 1024 * 1024,
  ) {}

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

  private saveIndex(index: Map<string, number>): Promise<void> {
    return this.backend.set(INDEX, [...index.entries()]);
  }

  async size(): Promise<number> {
    await this.load();
    return this.total;
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const index = await this.load();
    const size = index.get(key);
    if (size === undefined) return undefined;
    const bytes = await this.backend.get(key);
    if (!(bytes instanceof Uint8Array) && !(bytes instanceof ArrayBuffer)) {
      await this.delete(key);
      return undefined;
    }
    // Re-insert: Map order is the recency order.
    index.delete(key);
    index.set(key, size);
    await this.saveIndex(index);
    return bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  }

  async has(key: string): Promise<boolean> {
    return (await this.load()).has(key);
  }

  async set(key: string, bytes: Uint8Array): Promise<void> {
    const index = await this.load();
    if (bytes.byteLength > this.capBytes) return;
    if (index.has(key)) await this.delete(key);
    const evicted: string[] = [];
    for (const [oldest, size] of index) {
      if (this.total + bytes.byteLength <= this.capBytes) break;
      index.delete(oldest);
      this.total -= size;
      evicted.push(oldest);
    }
    index.set(key, bytes.byteLength);
    this.total += bytes.byteLength;
    await Promise.all([...evicted.map((k) => this.backend.del(k)), this.backend.set(key, bytes)]);
    await this.saveIndex(index);
  }

  async delete(key: string): Promise<void> {
    const index = await this.load();
    const size = index.get(key);
    if (size === undefined) return;
    index.delete(key);
    this.total -= size;
    await this.backend.del(key);
    await this.saveIndex(index);
  }

  async clear(): Promise<void> {
    await this.backend.clear();
    this.index = new Map();
    this.loading = null;
    this.total = 0;
  }
}

export function partKey(p: { text: string; voice: string; format: string }): string {
  return JSON.stringify([p.voice, p.format, p.text]);
}

export function indexedDbBackend(store: UseStore = createStore('trysasha-audio', 'parts')): CacheBackend {
  return {
    get: (key) => get(key, store),
    set: (key, value) => set(key, value, store),
    del: (key) => del(key, store),
    clear: () => clear(store),
  };
}

export function memoryBackend(): CacheBackend & { map: Map<string, unknown> } {
  const map = new Map<string, unknown>();
  return {
    map,
    get: async (key) => map.get(key),
    set: async (key, value) => void map.set(key, value),
    del: async (key) => void map.delete(key),
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
