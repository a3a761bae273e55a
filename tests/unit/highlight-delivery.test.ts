import { describe, expect, it } from 'vitest';
import { deliverHighlight, noReceiver } from '../../utils/page-text/highlight-delivery';

const missing = new Error('Could not establish connection. Receiving end does not exist.');

describe('noReceiver', () => {
  it.each([
    [missing, true],
    [new Error('Receiving end does not exist.'), true],
    [new Error('No tab with id: 4.'), false],
    ['Could not establish connection.', true],
  ])('%s → %s', (error, want) => expect(noReceiver(error)).toBe(want));
});

describe('deliverHighlight', () => {
  const run = (failures: unknown[], latestAfter = Infinity) => {
    let sent = 0;
    let waits = 0;
    const result = deliverHighlight({
      send: async () => {
        const failure = failures[sent++];
        if (failure) throw failure;
        return 'shown';
      },
      latest: () => waits <= latestAfter,
      wait: async () => void waits++,
    });
    return { result, sent: () => sent };
  };

  it.each([
    { name: 'received at once', failures: [], latestAfter: Infinity, want: 'shown', sends: 1 },
    { name: 'the page script listens on the third try', failures: [missing, missing], latestAfter: Infinity, want: 'shown', sends: 3 },
    { name: 'a newer highlight was asked for meanwhile: this one is dropped', failures: [missing, missing], latestAfter: 0, want: undefined, sends: 1 },
  ])('$name', async ({ failures, latestAfter, want, sends }) => {
    const r = run(failures, latestAfter);
    await expect(r.result).resolves.toBe(want);
    expect(r.sent()).toBe(sends);
  });

  it('gives up after its tries, with the browser error', async () => {
    const r = run([missing, missing, missing, missing, missing, missing]);
    await expect(r.result).rejects.toBe(missing);
    expect(r.sent()).toBe(5);
  });

  it('another error is not tried again', async () => {
    const gone = new Error('No tab with id: 4.');
    const r = run([gone]);
    await expect(r.result).rejects.toBe(gone);
    expect(r.sent()).toBe(1);
  });
});
