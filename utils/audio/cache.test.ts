import { describe, expect, it } from 'vitest';
import { AudioCache, memoryBackend, partKey } from './cache';

const bytes = (n: number, fill = 1) => new Uint8Array(n).fill(fill);

describe('AudioCache', () => {
  it('evicts the least recently used entries past the cap, from the store too', async () => {
    const backend = memoryBackend();
    const cache = new AudioCache(backend, 100);
    await cache.set('a', bytes(40));
    await cache.set('b', bytes(40));
    await cache.get('a'); // a is now the most recent
    await cache.set('c', bytes(40));
    expect([await cache.has('a'), await cache.has('b'), await cache.has('c')]).toEqual([true, false, true]);
    expect(backend.map.has('b')).toBe(false);
    expect(await cache.size()).toBe(80);
  });

  it('outlives its instance: a new cache on the same store finds the bytes and the recency order', async () => {
    const backend = memoryBackend();
    const first = new AudioCache(backend, 100);
    await first.set('a', bytes(40, 7));
    await first.set('b', bytes(40));
    await first.get('a');
    const second = new AudioCache(backend, 100);
    expect(await second.get('a')).toEqual(bytes(40, 7));
    expect(await second.size()).toBe(80);
    await second.set('c', bytes(40));
    expect(await second.has('b')).toBe(false); // b was the oldest
  });

  it('never keeps an entry larger than the cap; replacing keeps the size exact; clear empties the store', async () => {
    const backend = memoryBackend();
    const cache = new AudioCache(backend, 100);
    await cache.set('big', bytes(101));
    expect(await cache.has('big')).toBe(false);
    await cache.set('a', bytes(30));
    await cache.set('a', bytes(50));
    expect(await cache.size()).toBe(50);
    await cache.clear();
    expect(await cache.size()).toBe(0);
    expect(backend.map.size).toBe(0);
    expect(await new AudioCache(backend, 100).has('a')).toBe(false);
  });

  it('bytes and index are written together, one change at a time: the stored index always counts the stored bytes', async () => {
    const backend = memoryBackend();
    const cache = new AudioCache(backend, 100);
    await Promise.all([cache.set('a', bytes(40)), cache.set('b', bytes(40)), cache.set('c', bytes(40)), cache.get('a'), cache.delete('b')]);
    const index = backend.map.get('__index__') as Array<[string, number]>;
    const stored = [...backend.map.keys()].filter((k) => k !== '__index__').sort();
    expect(index.map(([k]) => k).sort()).toEqual(stored);
    expect(index.reduce((n, [, size]) => n + size, 0)).toBeLessThanOrEqual(100);
    expect(await cache.size()).toBe(index.reduce((n, [, size]) => n + size, 0));
  });

  it('a refused write changes nothing: neither the store nor the count', async () => {
    const backend = memoryBackend();
    const cache = new AudioCache(backend, 100);
    await cache.set('a', bytes(60));
    const write = backend.write;
    backend.write = () => Promise.reject(new DOMException('full', 'QuotaExceededError'));
    await expect(cache.set('b', bytes(60))).rejects.toThrow('full');
    backend.write = write;
    expect([await cache.has('a'), await cache.has('b'), await cache.size()]).toEqual([true, false, 60]);
    expect([...backend.map.keys()].sort()).toEqual(['__index__', 'a']);
  });

  it.each([
    [{ text: 'Привет', voice: '', format: 'mp3' }, { text: 'Привет', voice: '', format: 'mp3_high' }],
    [{ text: 'Привет', voice: '', format: 'mp3' }, { text: 'Привет', voice: 'sasha-lite', format: 'mp3' }],
    [{ text: 'a', voice: 'b', format: 'mp3' }, { text: 'ab', voice: '', format: 'mp3' }],
  ])('keys differ when text, voice or format differ: %j vs %j', (x, y) => {
    expect(partKey(x)).not.toBe(partKey(y));
  });
});
