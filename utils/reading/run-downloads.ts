/**
 * A reading's requests by part key (background): a second wish for the same audio joins the first. Its one
 * writer is the delivery (`delivery.ts` `obtain`, `markNeeded`); the rest of the reading only reads it.
 */
import type { Download } from './download';

export class RunDownloads {
  readonly #byKey = new Map<string, Download>();

  get(key: string): Download | undefined {
    return this.#byKey.get(key);
  }

  has(key: string): boolean {
    return this.#byKey.has(key);
  }

  [Symbol.iterator](): IterableIterator<[string, Download]> {
    return this.#byKey.entries();
  }

  keep(key: string, download: Download): void {
    this.#byKey.set(key, download);
  }

  /** Forgets the download of `key` (only `download`, when given: a newer one stays). */
  forget(key: string, download?: Download): void {
    if (!download || this.#byKey.get(key) === download) this.#byKey.delete(key);
  }

  /** The reading ended: what Save as MP3 still waits for goes on; a part under way finishes into the cache (it is paid for). */
  letGoAll(): void {
    for (const download of this.#byKey.values()) if (!download.wantedBySave) download.letGo();
  }
}
