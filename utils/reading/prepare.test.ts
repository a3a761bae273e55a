import { describe, expect, it } from 'vitest';
import { type AccountInfo, DEFAULT_SETTINGS } from '../storage/settings';
import type { ExtractedText } from '../text/extract';
import type { ReaderDeps } from './deps';
import { ReadingError } from './plan';
import { prepare } from './prepare';

const account = (price: string): AccountInfo => ({ name: 'A', provider: 'p', balanceRub: '10.0000', pricePerMillionRub: price, maxConcurrency: 2, checkedAt: 0 });
const text: ExtractedText = { title: 'T', source: 'article', blocks: [{ text: 'Текст.', kind: 'paragraph' }] };

/** A world whose key check answers only when told to, and which notes when the account is asked for. */
function world(opts: { problem?: string | null; fresh: () => Promise<AccountInfo>; cached?: AccountInfo | null }) {
  const steps: string[] = [];
  let answerKey!: () => void;
  const keyChecked = new Promise<void>((resolve) => (answerKey = resolve));
  const deps = {
    keyProblem: async () => {
      await keyChecked;
      steps.push('key checked');
      return opts.problem ?? null;
    },
    getSettings: async () => DEFAULT_SETTINGS,
    getAccount: async () => opts.cached ?? null,
    refreshAccount: () => (steps.push('account asked'), opts.fresh()),
  } as unknown as ReaderDeps;
  return { deps, steps, answerKey };
}

describe('what a reading starts from', () => {
  it('asks for the account while the key is being checked, not once it is found good', async () => {
    const w = world({ fresh: () => Promise.resolve(account('1500.0000')) });
    const prepared = prepare(w.deps, async () => text);
    await Promise.resolve();
    expect(w.steps).toEqual(['account asked']);
    w.answerKey();
    await expect(prepared).resolves.toMatchObject({ account: { pricePerMillionRub: '1500.0000' }, stalePrice: false });
    expect(w.steps).toEqual(['account asked', 'key checked']);
  });

  it.each([
    ['the refresh answered', () => Promise.resolve(account('1500.0000'))],
    ['the refresh failed (its request refuses a key that fails the check)', () => Promise.reject(new ReadingError('no-key'))],
  ])('a key problem stops the start with its own code: %s', async (_, fresh) => {
    const w = world({ problem: 'key-origin', fresh, cached: account('1000.0000') });
    const prepared = prepare(w.deps, async () => text);
    w.answerKey();
    await expect(prepared).rejects.toMatchObject({ code: 'key-origin' });
  });

  it.each([
    ['the price as the service has it now', () => Promise.resolve(account('3000.0000')), account('1500.0000'), { account: { pricePerMillionRub: '3000.0000' }, stalePrice: false }],
    ['the last known price, said to be so, when the service cannot be asked', () => Promise.reject(new ReadingError('network')), account('1500.0000'), { account: { pricePerMillionRub: '1500.0000' }, stalePrice: true }],
  ])('%s', async (_, fresh, cached, expected) => {
    const w = world({ fresh, cached });
    w.answerKey();
    await expect(prepare(w.deps, async () => text)).resolves.toMatchObject(expected);
  });

  it('with no known price and no answer, the service\'s error stops the start', async () => {
    const w = world({ fresh: () => Promise.reject(new ReadingError('network')), cached: null });
    w.answerKey();
    await expect(prepare(w.deps, async () => text)).rejects.toMatchObject({ code: 'network' });
  });
});
