import { describe, expect, it, vi } from 'vitest';
import { kept } from './kept';

describe('kept', () => {
  it('reads once, then answers from memory (also without waiting) until forgotten', async () => {
    let n = 0;
    const read = vi.fn(async () => ++n);
    const k = kept(read);
    expect(k.now()).toBeUndefined();
    expect(await Promise.all([k.get(), k.get()])).toEqual([1, 1]);
    expect(k.now()).toBe(1);
    k.forget();
    expect(k.now()).toBeUndefined();
    expect(await k.get()).toBe(2);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('a failed read is not kept', async () => {
    const read = vi.fn().mockRejectedValueOnce(new Error('busy')).mockResolvedValueOnce('ok');
    const k = kept(read);
    await expect(k.get()).rejects.toThrow('busy');
    expect(await k.get()).toBe('ok');
  });

  it('a read answered after a forget is not kept', async () => {
    let answer!: (v: string) => void;
    const k = kept(() => new Promise<string>((r) => (answer = r)));
    const old = k.get();
    k.forget();
    answer('before the change');
    await old;
    expect(k.now()).toBeUndefined();
  });
});
