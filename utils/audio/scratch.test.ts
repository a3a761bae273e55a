import { describe, expect, it } from 'vitest';
import { scratch } from './scratch';

describe('scratch: a table kept from one run to the next', () => {
  it('gives the length asked for, in the same memory while it fits', () => {
    const take = scratch((n) => new Uint16Array(n));
    const a = take(10);
    a[3] = 7;
    const b = take(5);
    expect(b.length).toBe(5);
    expect(b.buffer).toBe(a.buffer);
    expect(b[3]).toBe(7);
  });
  it('grows to at least twice what it kept', () => {
    const take = scratch((n) => new Float64Array(n));
    take(100);
    expect(take(150).buffer.byteLength).toBe(200 * 8);
  });
  it('beyond what it keeps, a table for the one run, and the kept one stays', () => {
    const take = scratch((n) => new Uint16Array(n));
    const kept = take(10).buffer;
    expect(take(2 ** 21).buffer).not.toBe(kept);
    expect(take(10).buffer).toBe(kept);
  });
});
