import { describe, expect, it } from 'vitest';
import { QUEUE_URL_MAX } from './bounds';
import { MAX_QUEUE, moved, queueTotal, withEntry, without, type QueueEntry } from './queue';

const e = (id: string, chars: number | null = 100): QueueEntry => ({ id, url: `https://example.ru/${id}`, title: id, site: 'example.ru', chars, addedAt: 0 });
const ids = (q: QueueEntry[]) => q.map((x) => x.id).join(',');
/** An entry whose address is `length` characters long. */
const long = (id: string, length: number): QueueEntry => ({ ...e(id), url: `https://example.ru/${id}?q=`.padEnd(length, 'x') });

describe('the listening queue', () => {
  it.each([
    ['added at the end', [e('a')], e('b'), 'a,b'],
    ['a page already waiting keeps its place', [e('a'), e('b')], e('a'), 'a,b'],
    ['into an empty queue', [], e('a'), 'a'],
    ['an address at the bound is kept whole', [e('a')], long('b', QUEUE_URL_MAX), 'a,b'],
    ['an address past the bound is refused (it could not be kept whole)', [e('a')], long('b', QUEUE_URL_MAX + 1), 'a'],
    ['a 2 MB address is refused', [], long('b', 2 * 1024 * 1024), ''],
  ])('withEntry: %s', (_n, queue, entry, expected) => {
    expect(ids(withEntry(queue, entry))).toBe(expected);
  });

  it('keeps the last 100', () => {
    const full = Array.from({ length: MAX_QUEUE }, (_, i) => e(`p${i}`));
    const q = withEntry(full, e('new'));
    expect(q).toHaveLength(MAX_QUEUE);
    expect(q.at(-1)!.id).toBe('new');
    expect(q[0]!.id).toBe('p1');
  });

  it.each([
    ['up one', 'c', -1, 'a,c,b'],
    ['down one', 'a', 1, 'b,a,c'],
    ['up from the top stays', 'a', -1, 'a,b,c'],
    ['down from the bottom stays', 'c', 1, 'a,b,c'],
    ['far up goes to the top', 'c', -10, 'c,a,b'],
    ['an unknown id changes nothing', 'x', 1, 'a,b,c'],
  ])('moved: %s', (_n, id, delta, expected) => {
    expect(ids(moved([e('a'), e('b'), e('c')], id, delta))).toBe(expected);
  });

  it.each([
    ['the middle', 'b', 'a,c'],
    ['an unknown id', 'x', 'a,b,c'],
  ])('without: %s', (_n, id, expected) => {
    expect(ids(without([e('a'), e('b'), e('c')], id))).toBe(expected);
  });

  it.each([
    [[e('a', 100), e('b', 250)], { chars: 350, unknown: 0 }],
    [[e('a', 100), e('b', null)], { chars: 100, unknown: 1 }],
    [[], { chars: 0, unknown: 0 }],
  ])('queueTotal %#', (queue, expected) => {
    expect(queueTotal(queue)).toEqual(expected);
  });
});
