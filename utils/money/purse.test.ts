import { describe, expect, it } from 'vitest';
import { Purse } from './purse';

describe('Purse: a reading’s side of the money, changed only through its own steps', () => {
  it('a part counts against the envelope once; a halved part counts as its halves are bought, not twice', () => {
    const purse = new Purse('r');
    purse.openUnder(1_000);
    purse.admit(10n, 'play', { key: 'p1', chars: 600, resumed: false });
    purse.admit(10n, 'play', { key: 'p1', chars: 600, resumed: false }); // asked again (a jump back): not again
    expect(purse.committedChars).toBe(600);
    // The service found it too long: halved, its halves bought.
    purse.split('p1', 600);
    purse.admit(5n, 'play', { key: 'p1a', chars: 300, resumed: false });
    purse.admit(5n, 'play', { key: 'p1b', chars: 300, resumed: false });
    expect(purse.committedChars).toBe(600);
  });

  it('the rest of a dropped stream, and a save, do not count against the envelope; a save counts against its grant', () => {
    const purse = new Purse('r');
    purse.agree(1_000);
    purse.admit(10n, 'play', { key: 'p1', chars: 600, resumed: true });
    expect(purse.committedChars).toBe(0);
    const grant = { upTo: 3, maxRub: 100n, spent: 0n };
    purse.grant(grant);
    purse.admit(40n, 'save', { key: 'p2', chars: 900, resumed: false });
    expect(grant.spent).toBe(40n);
    expect(purse.reserved).toBe(50n);
    // Billed 35 for the 40 held; the other request was not billed.
    purse.settle(40n, 35n, 'save');
    purse.giveBack(10n, 'play');
    expect(grant.spent).toBe(35n);
    expect(purse.reserved).toBe(0n);
    expect(purse.committedChars).toBe(0);
  });

  it.each([
    ['new', 'planning', (p: Purse) => p],
    ['an envelope alone opens nothing (the reading’s state does)', 'planning', (p: Purse) => (p.openUnder(100), p)],
    ['asking', 'asking', (p: Purse) => (p.enter('asking'), p)],
    ['agreed, then answered', 'open', (p: Purse) => (p.enter('asking'), p.agree(100), p.enter('open'), p)],
    ['ended', 'over', (p: Purse) => (p.enter('open'), p.close(), p)],
    ['ended stays ended, whatever the state after', 'over', (p: Purse) => (p.enter('over'), p.enter('open'), p)],
  ] as const)('%s → phase %s', (_name, phase, steps) => {
    expect(steps(new Purse('r')).phase).toBe(phase);
  });
});
