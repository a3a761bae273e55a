import { describe, expect, it } from 'vitest';
import { AudioCache, partKey } from './audio-cache';

const bytes = (n: number) => [new Uint8Array(n)];

describe('AudioCache', () => {
  it('evicts the least recently used entries past the cap', () => {
    const cache = new AudioCache(100);
    cache.set('a', bytes(40));
    cache.set('b', bytes(40));
    cache.get('a'); // a is now the most recent
    cache.set('c', bytes(40));
    expect([cache.has('a'), cache.has('b'), cache.has('c')]).toEqual([true, false, true]);
    expect(cache.size).toBe(80);
  });

  it('never keeps an entry larger than the cap, and replacing an entry keeps the size exact', () => {
    const cache = new AudioCache(100);
    cache.set('big', bytes(101));
    expect(cache.has('big')).toBe(false);
    cache.set('a', bytes(30));
    cache.set('a', bytes(50));
    expect(cache.size).toBe(50);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it.each([
    [{ text: 'Привет', voice: '', format: 'mp3' }, { text: 'Привет', voice: '', format: 'mp3_high' }],
    [{ text: 'Привет', voice: '', format: 'mp3' }, { text: 'Привет', voice: 'sasha-lite', format: 'mp3' }],
    [{ text: 'a', voice: 'b', format: 'mp3' }, { text: 'ab', voice: '', format: 'mp3' }],
  ])('keys differ when text, voice or format differ: %j vs %j', (x, y) => {
    expect(partKey(x)).not.toBe(partKey(y));
  });
});
