/**
 * Audio already received and paid for, by part key (text + voice + format), so
 * resume, going back and reading the same text again never request it twice.
 * Least recently used entries go first once the byte cap is reached.
 */
export class AudioCache {
  private entries = new Map<string, Uint8Array[]>();
  private sizes = new Map<string, number>();
  private total = 0;

  constructor(readonly capBytes = 64 * 1024 * 1024) {}

  get size(): number {
    return this.total;
  }

  get(key: string): Uint8Array[] | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    // Re-insert: Map order is the recency order.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  set(key: string, chunks: Uint8Array[]): void {
    this.delete(key);
    const size = chunks.reduce((n, c) => n + c.byteLength, 0);
    if (size > this.capBytes) return;
    this.entries.set(key, chunks);
    this.sizes.set(key, size);
    this.total += size;
    for (const oldest of this.entries.keys()) {
      if (this.total <= this.capBytes) break;
      this.delete(oldest);
    }
  }

  delete(key: string): void {
    const size = this.sizes.get(key);
    if (size === undefined) return;
    this.entries.delete(key);
    this.sizes.delete(key);
    this.total -= size;
  }

  clear(): void {
    this.entries.clear();
    this.sizes.clear();
    this.total = 0;
  }
}

export function partKey(p: { text: string; voice: string; format: string }): string {
  return JSON.stringify([p.voice, p.format, p.text]);
}
