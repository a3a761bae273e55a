import { describe, expect, it } from 'vitest';
import { settledYet } from '../../tests/unit/settled-yet';
import { answered, askAtOpening, leaveOpeningStart, openingStart, type OpeningStart } from './popup-start';

describe('askAtOpening: the reading a popup asks for as it opens', () => {
  const deps = (search: string, active: number | null, answer: boolean | Error = true) => {
    const sent: number[] = [];
    return {
      sent,
      deps: {
        search,
        activeTab: async () => active,
        send: async (tabId: number) => {
          sent.push(tabId);
          if (answer instanceof Error) throw answer;
          return answer;
        },
        now: () => 1000,
      },
    };
  };

  it.each<[string, string, number | null, boolean | Error, number[], boolean | null]>([
    ['opened by the toolbar button: the click started it, nothing asked', '?from=toolbar', 7, true, [], null],
    ['a tab named in the address', '?tabId=5', 7, true, [5], true],
    ['no tab named: the active one', '', 7, true, [7], true],
    ['no active tab: nothing asked', '', null, true, [], null],
    ['a reading is under way: the background starts none', '?tabId=5', 7, false, [5], false],
    ['the background cannot be asked: none started', '?tabId=5', 7, new Error('no receiver'), [5], false],
  ])('%s', async (_name, search, active, answer, sentTo, starts) => {
    const { sent, deps: d } = deps(search, active, answer);
    const start = await askAtOpening(d);
    expect(sent).toEqual(sentTo);
    expect(start ? await start.starts : null).toBe(starts);
    if (start) expect(start.asked).toEqual({ sentAt: 1000, tabId: sentTo[0] });
  });

  it('a tab named in the address is asked for before anything is awaited, its ask known at once', () => {
    const { sent, deps: d } = deps('?tabId=5', null);
    const start = askAtOpening(d);
    expect(sent).toEqual([5]);
    expect(start).not.toBeInstanceOf(Promise);
  });

  it('left for the popup\'s bundle, found there; none left: none', () => {
    const page = {};
    expect(openingStart(page)).toBeNull();
    const start = { asked: { sentAt: 1, tabId: 2 }, starts: Promise.resolve(true) };
    leaveOpeningStart(start, page);
    expect(openingStart(page)).toBe(start);
  });
});

describe('answered: when the popup loads its bundle', () => {
  const opening = (starts: Promise<boolean>): OpeningStart => ({ asked: { sentAt: 1, tabId: 2 }, starts });

  it.each<[string, () => ReturnType<typeof askAtOpening>]>([
    ['nothing asked (the toolbar started the reading)', () => null],
    ['the background started the reading and it is under way', () => opening(Promise.resolve(true))],
    ['the background started none', () => opening(Promise.resolve(false))],
    ['the active tab looked up, then asked for', () => Promise.resolve(opening(Promise.resolve(true)))],
    ['no active tab', () => Promise.resolve(null)],
    ['the ask failed', () => opening(Promise.reject(new Error('no receiver')))],
  ])('at once: %s', async (_name, start) => {
    expect(await settledYet(answered(start()))).toBe(true);
  });

  it('not while the background has not answered', async () => {
    let answer!: (starts: boolean) => void;
    const wait = answered(opening(new Promise((resolve) => (answer = resolve))));
    expect(await settledYet(wait)).toBe(false);
    answer(true);
    expect(await settledYet(wait)).toBe(true);
  });
});
