import '../../tests/unit/indexeddb.setup';
import { describe, expect, it } from 'vitest';
import { createStore } from 'idb-keyval';
import { keptBooks } from './kept';

const book = (bytes: number, name = 'b.fb2') => ({ name, title: name, file: new Blob([new Uint8Array(bytes)]) });
const fresh = (max: number) => keptBooks(createStore(`kept-${Math.random()}`, 'files'), max);

describe('kept books: kept when asked, within a bound, the longest unopened first to go', () => {
  it('keeps and gives back a book by its id; forgets it', async () => {
    const kept = fresh(1_000);
    expect(await kept.keep('a', book(100))).toBe('kept');
    expect(await kept.has('a')).toBe(true);
    const back = await kept.get('a');
    expect(back?.file.size).toBe(100);
    expect(back?.name).toBe('b.fb2');
    await kept.forget('a');
    expect(await kept.get('a')).toBeNull();
    expect(await kept.summary()).toEqual({ count: 0, bytes: 0 });
  });

  it('past the bound, the books opened longest ago go first; the one kept now stays', async () => {
    const kept = fresh(1_000);
    await kept.keep('old', book(400), 1);
    await kept.keep('mid', book(400), 2);
    await kept.keep('new', book(400), 3);
    expect(await kept.has('old')).toBe(false);
    expect(await kept.has('mid')).toBe(true);
    expect(await kept.summary()).toEqual({ count: 2, bytes: 800 });
  });

  it('a book opened again counts as new', async () => {
    const kept = fresh(1_000);
    await kept.keep('a', book(400), 1);
    await kept.keep('b', book(400), 2);
    await kept.get('a');
    await kept.keep('c', book(400), Date.now() + 1);
    expect(await kept.has('a')).toBe(true);
    expect(await kept.has('b')).toBe(false);
  });

  it('one book past the bound alone is refused, and nothing kept is let go for it', async () => {
    const kept = fresh(1_000);
    await kept.keep('a', book(500));
    expect(await kept.keep('big', book(1_001))).toBe('too-large');
    expect(await kept.summary()).toEqual({ count: 1, bytes: 500 });
  });

  it('clear lets every book go', async () => {
    const kept = fresh(1_000);
    await kept.keep('a', book(10));
    await kept.keep('b', book(10));
    await kept.clear();
    expect(await kept.summary()).toEqual({ count: 0, bytes: 0 });
  });
});
