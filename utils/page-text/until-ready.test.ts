import { describe, expect, it } from 'vitest';
import { isNoReceiver } from '../messaging/content';
import { type ReadyRules, untilReady } from './until-ready';

const missing = new Error('Could not establish connection. Receiving end does not exist.');
const noResponse = new Error('No response');
const gone = new Error('No tab with id: 4.');

/** Asks answering in turn from `script` (an Error is thrown), on a clock that moves by each wait. */
function world(script: unknown[], rules: Partial<ReadyRules<unknown>> = {}) {
  let asked = 0;
  let clock = 0;
  const waits: number[] = [];
  const result = untilReady(
    async () => {
      const next = script[Math.min(asked++, script.length - 1)];
      if (next instanceof Error) throw next;
      return next;
    },
    {
      every: 50,
      ...rules,
      wait: async (ms) => void (waits.push(ms), (clock += ms)),
      now: () => clock,
    } as ReadyRules<unknown> & { wanted: () => boolean },
  );
  return { result, asked: () => asked, waits };
}

describe('untilReady: the one wait for a page not listening yet', () => {
  it.each([
    { name: 'answered at once', script: ['text'], rules: {}, want: 'text', asks: 1 },
    { name: 'the script listens on the third ask', script: [missing, noResponse, 'text'], rules: {}, want: 'text', asks: 3 },
    { name: 'the page being replaced answers first: asked until the awaited one', script: ['viewer', 'viewer', 'pdf page'], rules: { awaited: (a: unknown) => a === 'pdf page' }, want: 'pdf page', asks: 3 },
    { name: 'time is up: the last answer, awaited or not', script: ['viewer'], rules: { awaited: () => false, withinMs: 120 }, want: 'viewer', asks: 4 },
    { name: 'a newer mark was asked for meanwhile: nothing more asked', script: [missing, 'shown'], rules: { wanted: () => false }, want: undefined, asks: 1 },
    { name: 'asks spaced by their number (an offscreen document just made)', script: [missing, missing, 'parsed'], rules: { every: (n: number) => 100 * n, tries: 5 }, want: 'parsed', asks: 3 },
  ])('$name', async ({ script, rules, want, asks }) => {
    const w = world(script, rules);
    await expect(w.result).resolves.toBe(want);
    expect(w.asked()).toBe(asks);
  });

  it('waits by the rule given', async () => {
    const w = world([missing, missing, 'parsed'], { every: (n) => 100 * n });
    await w.result;
    expect(w.waits).toEqual([100, 200]);
  });

  it('gives up after its tries, with the browser’s error', async () => {
    const w = world([missing], { tries: 5 });
    await expect(w.result).rejects.toBe(missing);
    expect(w.asked()).toBe(5);
  });

  it('gives up after its time, with the browser’s error', async () => {
    const w = world([missing], { withinMs: 5_000 });
    await expect(w.result).rejects.toBe(missing);
    expect(w.asked()).toBe(102);
  });

  it('another error is not asked again', async () => {
    const w = world([gone, 'text']);
    await expect(w.result).rejects.toBe(gone);
    expect(w.asked()).toBe(1);
  });

  it('what counts as “not there yet” can be said (the PDF page’s own codes are not)', async () => {
    const w = world([new Error('bad-pdf')], { notYet: (e) => e instanceof Error && e.message !== 'bad-pdf' });
    await expect(w.result).rejects.toThrow('bad-pdf');
    expect(w.asked()).toBe(1);
  });
});

describe('isNoReceiver: “nobody there yet”, by default', () => {
  it.each([
    [missing, true],
    [new Error('Receiving end does not exist.'), true],
    [noResponse, true],
    [gone, false],
    [new Error('bad-pdf'), false],
    ['Could not establish connection.', false], // not an Error: nothing the browser throws
  ])('%s → %s', (error, want) => expect(isNoReceiver(error)).toBe(want));
});
