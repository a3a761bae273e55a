import { describe, expect, it } from 'vitest';
import { aheadDecision, type AheadDecision, LOOKAHEAD_SECONDS, type LookaheadFacts, withinLookahead } from './lookahead';

const facts = (f: Partial<LookaheadFacts>): LookaheadFacts => ({ k: 1, playing: 0, end: 10, growing: false, skipped: new Set(), holdFrom: Infinity, asking: false, seconds: () => 20, received: () => true, ...f });

describe('withinLookahead: which part may be bought while part `playing` plays', () => {
  it.each<[string, Partial<LookaheadFacts>, boolean]>([
    ['the part playing', { k: 3, playing: 3 }, true],
    ['a part before it (jumped back)', { k: 1, playing: 3 }, true],
    ['the next part', { k: 4, playing: 3 }, true],
    ['two parts ahead', { k: 5, playing: 3 }, false],
    ['two ahead, the one between refused', { k: 5, playing: 3, skipped: new Set([4]) }, true],
    ['three ahead, one of the two between refused', { k: 6, playing: 3, skipped: new Set([4]) }, false],
    ['the next part, past where the sleep timer ends the listening', { k: 4, playing: 3, holdFrom: 4 }, false],
    ['the part playing, at the sleep timer\'s end', { k: 4, playing: 4, holdFrom: 4 }, true],
    ['the next part while the reading asks the listener', { k: 4, playing: 3, asking: true }, false],
    ['the part playing while it asks (it was bought before)', { k: 3, playing: 3, asking: true }, true],
    ['the first part before anything plays (playing = 0)', { k: 0, playing: 0 }, true],
    ['two ahead, the one between under the look-ahead\'s seconds (a chapter title)', { k: 5, playing: 3, seconds: () => 0.5 }, true],
    ['four ahead, the three between under it together', { k: 7, playing: 3, seconds: () => LOOKAHEAD_SECONDS / 3 - 0.01 }, true],
    ['four ahead, the three between reaching it together', { k: 7, playing: 3, seconds: () => LOOKAHEAD_SECONDS / 3 }, false],
    ['two ahead, a short one between, past the sleep timer\'s end', { k: 5, playing: 3, holdFrom: 5, seconds: () => 0.5 }, false],
    ['two ahead, a short one between, while the reading asks', { k: 5, playing: 3, asking: true, seconds: () => 0.5 }, false],
    ['two ahead, a short one between still arriving (one request ahead at a time)', { k: 5, playing: 3, seconds: () => 0.5, received: () => false }, false],
    ['three ahead, two short between, the second still arriving', { k: 6, playing: 3, seconds: () => 0.5, received: (j) => j !== 5 }, false],
    ['the next part needs nothing received', { k: 4, playing: 3, received: () => false }, true],
  ])('%s → %s', (_name, f, expected) => {
    expect(withinLookahead(facts(f))).toBe(expected);
  });
});

describe('aheadDecision: the part after the one starting to play', () => {
  it.each<[string, Partial<LookaheadFacts>, AheadDecision]>([
    ['planned, within the look-ahead', { k: 4, playing: 3 }, 'fetch'],
    ['not planned yet, the document still counted', { k: 10, playing: 9, end: 10, growing: true }, 'wait'],
    ['past the end of a whole plan', { k: 10, playing: 9, end: 10 }, 'none'],
    ['refused by the service: passed over', { k: 4, playing: 3, skipped: new Set([4]) }, 'pass'],
    ['a short part between: the one after it too', { k: 5, playing: 3, seconds: (j) => (j === 4 ? 0.4 : 20) }, 'fetch'],
    ['while the reading asks the listener', { k: 4, playing: 3, asking: true }, 'none'],
    ['past the sleep timer', { k: 4, playing: 3, holdFrom: 4 }, 'none'],
    ['the player still on an earlier part (asked early)', { k: 5, playing: 3 }, 'none'],
  ])('%s → %s', (_name, f, expected) => {
    expect(aheadDecision(facts(f))).toBe(expected);
  });
});
