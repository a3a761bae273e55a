import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { boundText, boundUrl, hashesOf, hashOf, HASH_CHARS, isHash, QUEUE_URL_MAX, sha256Of, SITE_MAX, storedNumber, storedText, TITLE_MAX, URL_SHOWN_MAX } from './bounds';
import { queueOf, queueRunOf, queueRunStorage, queueStorage, withEntry, type QueueEntry } from './queue';
import { pageKey, resumePointsOf, resumeStorage, samePart, withPoint, type ResumePoint } from './resume';
import { usageOf, usageStorage, type UsageEntry } from './usage-history';
import { usageWriter } from './usage-writer';

const MB2 = 2 * 1024 * 1024;
const longUrl = (n: number | string, length = MB2) => `https://example.ru/${n}?q=`.padEnd(length, 'x');

/** FNV-1a 64 done the slow, plain way (BigInt): what `hashOf` must agree with. */
function fnv1a64(s: string): string {
  let h = 0xcbf29ce484222325n;
  for (const b of new TextEncoder().encode(s)) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h.toString(16).padStart(16, '0');
}

describe('hashOf: FNV-1a 64 of the UTF-8, 16 hex digits', () => {
  it.each([
    ['empty', '', 'cbf29ce484222325'],
    ['one letter', 'a', 'af63dc4c8601ec8c'],
    ['a word', 'foobar', '85944171f73967e8'],
    ['Cyrillic (two bytes each)', 'https://example.ru/статья?x=1#y', fnv1a64('https://example.ru/статья?x=1#y')],
    ['an emoji (four bytes)', '😀', fnv1a64('😀')],
    ['a long address, hashed again from memory', longUrl(1, 5_000), fnv1a64(longUrl(1, 5_000))],
  ])('%s', (_name, value, expected) => {
    expect(hashOf(value)).toBe(expected);
    expect(hashOf(value)).toBe(expected);
    expect(isHash(hashOf(value))).toBe(true);
  });

  it('SHA-256 where the match guards a file', async () => {
    expect(await sha256Of('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('boundUrl: a hash to match, a cut start to show', () => {
  it.each([
    ['a short address is unchanged', 'https://example.ru/a', 'https://example.ru/a'],
    ['an address at the bound is unchanged', longUrl('at', URL_SHOWN_MAX), longUrl('at', URL_SHOWN_MAX)],
    ['one character past it is cut, with an ellipsis', longUrl('past', URL_SHOWN_MAX + 1), `${longUrl('past', URL_SHOWN_MAX - 1)}…`],
    ['a 2 MB address is stored under the bound', longUrl('big'), `${longUrl('big', URL_SHOWN_MAX - 1)}…`],
  ])('%s', (_name, url, shown) => {
    const bound = boundUrl(url);
    expect(bound.shown).toBe(shown);
    expect(bound.shown.length).toBeLessThanOrEqual(URL_SHOWN_MAX);
    expect(bound.hash).toHaveLength(HASH_CHARS);
    expect(bound.hash).toBe(hashOf(url));
    expect(JSON.stringify(bound).length).toBeLessThan(URL_SHOWN_MAX + 100);
  });

  it.each([
    ['2 MB addresses differing in their last character', `${longUrl('same')}a`, `${longUrl('same')}b`],
    ['differing just past the shown part', longUrl('p', URL_SHOWN_MAX + 10).replace(/x$/, 'y'), longUrl('p', URL_SHOWN_MAX + 10)],
    ['differing past the queue bound', `${longUrl('q', QUEUE_URL_MAX)}1`, `${longUrl('q', QUEUE_URL_MAX)}2`],
  ])('%s: the same shown, different hashes', (_name, a, b) => {
    expect(boundUrl(a).shown).toBe(boundUrl(b).shown);
    expect(boundUrl(a).hash).not.toBe(boundUrl(b).hash);
  });
});

describe('boundText and the values read back', () => {
  it.each([
    ['a short title is unchanged', 'Статья', TITLE_MAX, 'Статья'],
    ['a 2 MB title is cut to the bound', 'Заголовок '.repeat(210_000), TITLE_MAX, `${'Заголовок '.repeat(30).slice(0, TITLE_MAX - 1)}…`],
    ['never half an emoji', `${'a'.repeat(TITLE_MAX - 2)}😀😀`, TITLE_MAX, `${'a'.repeat(TITLE_MAX - 2)}…`],
    ['a site name', 's'.repeat(1_000), SITE_MAX, `${'s'.repeat(SITE_MAX - 1)}…`],
  ])('%s', (_name, text, max, expected) => {
    const bound = boundText(text, max);
    expect(bound).toBe(expected);
    expect(bound.length).toBeLessThanOrEqual(max);
  });

  it.each([
    ['a string within the bound', 'abc', 5, 'abc'],
    ['a longer string is cut', 'abcdefgh', 5, 'abcd…'],
    ['a number is not a string', 5, 5, null],
    ['nothing is not a string', undefined, 5, null],
  ])('storedText: %s', (_name, value, max, expected) => {
    expect(storedText(value, max)).toBe(expected);
  });

  it.each([
    ['a number', 3, 0, 3],
    ['below the least', -1, 0, null],
    ['not finite', Number.NaN, -Infinity, null],
    ['infinite', Infinity, 0, null],
    ['a numeric string is not a number', '3', 0, null],
  ])('storedNumber: %s', (_name, value, min, expected) => {
    expect(storedNumber(value, min)).toBe(expected);
  });
});

describe('hashesOf: the tab record as read back', () => {
  const h = hashOf('https://example.ru/a');
  it.each([
    ['hashes by tab', { 1: h, 2: h }, 50, { 1: h, 2: h }],
    ['an earlier version’s whole addresses are dropped', { 1: 'https://example.ru/a', 2: h }, 50, { 2: h }],
    ['a 2 MB value or key is dropped', { 1: longUrl(1), ['k'.repeat(MB2)]: h }, 50, {}],
    ['the last ones kept', { 1: h, 2: h, 3: h }, 2, { 2: h, 3: h }],
    ['not a record', [h], 50, {}],
  ])('%s', (_name, value, kept, expected) => {
    expect(hashesOf(value, kept)).toEqual(expected);
  });
});

const point = (at: number, partKey = '["","mp3","Первая часть статьи."]'): ResumePoint => ({ part: 2, partKey, partTime: 1.5, position: 40, at });
const entry = (id: string, url: string, title = id): QueueEntry => ({ id, url, title, site: 'example.ru', chars: null, addedAt: 1 });

describe('stored values read back: bounded, old ones migrated, bad ones dropped', () => {
  it.each([
    ['not an object', 'nope', 0],
    ['a list', [point(1)], 0],
    ['an earlier version’s point, keyed by its address', { 'https://example.ru/a': point(1) }, 1],
    ['a 2 MB address and a 2 MB part key', { [longUrl('a')]: point(1, 'x'.repeat(MB2)) }, 1],
    ['points that are not', { a: 'x', b: { ...point(1), position: Number.NaN }, c: { ...point(1), partKey: 5 }, d: { ...point(1), part: 1.5 } }, 0],
    ['sixty points: the newest fifty', Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`https://example.ru/${i}`, point(i)])), 50],
  ])('resume points: %s', (_name, value, count) => {
    const points = resumePointsOf(value);
    expect(Object.keys(points)).toHaveLength(count);
    for (const [key, p] of Object.entries(points)) {
      expect(isHash(key)).toBe(true);
      expect(isHash(p.partKey)).toBe(true);
    }
    expect(JSON.stringify(points).length).toBeLessThan(count * 120 + 10);
  });

  it('an earlier version’s point is found again by its address, and its part by its key', () => {
    const key = '["","mp3","Первая часть статьи."]';
    const points = resumePointsOf({ 'https://example.ru/a': point(1, key) });
    const found = points[pageKey('https://example.ru/a#section')]!;
    expect(found.position).toBe(40);
    expect(samePart(key, found.partKey)).toBe(true);
    expect(samePart('["","mp3","Другой текст."]', found.partKey)).toBe(false);
  });

  it.each([
    ['not a list', { a: 1 }, []],
    ['a 2 MB address is dropped (it could not be fetched whole)', [entry('a', longUrl('a')), entry('b', 'https://example.ru/b')], ['b']],
    ['an address at the queue bound is kept whole', [entry('a', longUrl('a', QUEUE_URL_MAX))], ['a']],
    ['entries that are not', [null, 'x', { ...entry('a', 'https://example.ru/a'), chars: 'many' }, { ...entry('b', 'https://example.ru/b'), id: 'i'.repeat(1_000) }], []],
  ])('queue: %s', (_name, value, ids) => {
    expect(queueOf(value).map((e) => e.id)).toEqual(ids);
  });

  it('queue: a 2 MB title and site are cut', () => {
    const [e] = queueOf([{ ...entry('a', 'https://example.ru/a', 't'.repeat(MB2)), site: 's'.repeat(MB2) }]);
    expect(e!.title).toHaveLength(TITLE_MAX);
    expect(e!.site).toHaveLength(SITE_MAX);
  });

  it.each([
    ['a run', { entryId: 'e', readingId: 'r' }, { entryId: 'e', readingId: 'r' }],
    ['a 2 MB id', { entryId: 'e'.repeat(MB2), readingId: 'r' }, null],
    ['not a run', 'run', null],
  ])('queue run: %s', (_name, value, expected) => {
    expect(queueRunOf(value)).toEqual(expected);
  });

  it.each([
    ['not a list', 'x', 0, 0],
    ['a 2 MB title and request id are cut', [{ time: 1, title: 't'.repeat(MB2), chars: 5, costRub: '0.0075', requestId: 'r'.repeat(MB2) }], 1, 600],
    ['a cost of 2 MB is dropped', [{ time: 1, title: 't', chars: 5, costRub: '1'.repeat(MB2), requestId: 'r' }], 0, 0],
    ['entries that are not', [null, { time: 'now', title: 't', chars: 5, costRub: '0.0075', requestId: 'r' }, { time: 1, title: 't', chars: -1, costRub: '0.0075', requestId: 'r' }], 0, 0],
  ])('usage history: %s', (_name, value, count, maxChars) => {
    const list = usageOf(value);
    expect(list).toHaveLength(count);
    expect(JSON.stringify(list).length).toBeLessThanOrEqual(maxChars || 2);
  });
});

/** Everything the extension keeps in storage.local and storage.session, in bytes of JSON. */
async function storedBytes(): Promise<number> {
  const [local, session] = await Promise.all([fakeBrowser.storage.local.get(null), fakeBrowser.storage.session.get(null)]);
  return new TextEncoder().encode(JSON.stringify([local, session])).byteLength;
}

describe('through the storage modules', () => {
  beforeEach(() => fakeBrowser.reset());

  it('five readings of pages with 2 MB addresses and titles keep under 100 KB in all, and each page’s place is found again', async () => {
    const history = usageWriter({ get: () => usageStorage.getValue(), set: (list) => usageStorage.setValue(list) }, () => undefined);
    const bigTitle = 'Заголовок '.repeat(MB2 / 10);
    for (let n = 1; n <= 5; n++) {
      const url = longUrl(n);
      // Where the listener stopped (the part's key holds the part's text: a few thousand characters at most, 2 MB here).
      await resumeStorage.setValue(withPoint(await resumeStorage.getValue(), `${url}#top`, point(n, `["","mp3","${'т'.repeat(MB2)}${n}"]`)));
      // The billed request, titled as the page is.
      const usage: UsageEntry = { time: n, title: bigTitle, chars: 100, costRub: '0.1500', requestId: `req_${n}` };
      await history.append(usage);
      // Queued: the page itself is refused (its address could not be kept whole); another, with a 2 MB title, is kept cut.
      await queueStorage.setValue(withEntry(await queueStorage.getValue(), entry(`big${n}`, url, bigTitle)));
      await queueStorage.setValue(withEntry(await queueStorage.getValue(), entry(`ok${n}`, `https://example.ru/${n}`, bigTitle)));
      await queueRunStorage.setValue({ entryId: `ok${n}`, readingId: `r${n}` });
    }
    expect(await storedBytes()).toBeLessThan(100 * 1024);
    const points = await resumeStorage.getValue();
    for (let n = 1; n <= 5; n++) {
      const found = points[pageKey(longUrl(n))];
      expect(found?.at).toBe(n);
      expect(samePart(`["","mp3","${'т'.repeat(MB2)}${n}"]`, found!.partKey)).toBe(true);
    }
    expect((await queueStorage.getValue()).map((e) => e.id)).toEqual(['ok1', 'ok2', 'ok3', 'ok4', 'ok5']);
    expect(await usageStorage.getValue()).toHaveLength(5);
  });

  it('what another version (or a hand) wrote over the bounds is read bounded, and written back bounded', async () => {
    await fakeBrowser.storage.local.set({
      'resume-points': { [longUrl('old')]: point(1, 'k'.repeat(MB2)) },
      'listening-queue': [entry('a', longUrl('a')), entry('b', 'https://example.ru/b', 't'.repeat(MB2))],
      'usage-history': [{ time: 1, title: 't'.repeat(MB2), chars: 5, costRub: '0.0075', requestId: 'r' }],
    });
    const points = await resumeStorage.getValue();
    expect(points[pageKey(longUrl('old'))]?.position).toBe(40);
    const queue = await queueStorage.getValue();
    expect(queue.map((e) => [e.id, e.title.length])).toEqual([['b', TITLE_MAX]]);
    expect((await usageStorage.getValue())[0]!.title).toHaveLength(TITLE_MAX);
    await resumeStorage.setValue(points);
    await queueStorage.setValue(queue);
    await usageStorage.setValue(await usageStorage.getValue());
    expect(await storedBytes()).toBeLessThan(2 * 1024);
  });

  it('a change is seen bounded too', async () => {
    const seen: QueueEntry[][] = [];
    const stop = queueStorage.watch((q) => seen.push(q));
    await fakeBrowser.storage.local.set({ 'listening-queue': [entry('a', 'https://example.ru/a', 't'.repeat(MB2))] });
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0]![0]!.title).toHaveLength(TITLE_MAX);
    stop();
  });
});
