import { describe, expect, it } from 'vitest';
import { boundOf, growthOf, titleFirstMax } from './bound';
import { costOf, parseRub } from './money';

const PRICE = '1500.0000';
const rule = (find: string, replace: string) => ({ find, replace, wholeWord: true });

describe('titleFirstMax: the most page text an article may have to be read title first', () => {
  it.each<[string, { confirmThresholdRub: string; previewFirst?: boolean; pronunciations?: ReturnType<typeof rule>[] }, string | undefined, number]>([
    // 10 ₽ at 1,500 ₽ a million characters: 6,666 characters (the page's bound counts its own folding).
    ['the default threshold', { confirmThresholdRub: '10' }, PRICE, 6_666],
    ['a threshold of 100 ₽', { confirmThresholdRub: '100' }, PRICE, 66_666],
    ['no threshold: every reading asks first', { confirmThresholdRub: '0' }, PRICE, 0],
    ['a preview asked for', { confirmThresholdRub: '100', previewFirst: true }, PRICE, 0],
    ['the price not known yet', { confirmThresholdRub: '100' }, undefined, 0],
    ['a free account', { confirmThresholdRub: '0' }, '0.0000', 1_000_000],
    ['a huge threshold is kept to a million characters of reading', { confirmThresholdRub: '100000' }, PRICE, 1_000_000],
    ['a pronunciation rule writing twelve letters for one', { confirmThresholdRub: '10', pronunciations: [rule('ИИ', 'искусственный интеллект')] }, PRICE, 555],
    ['a rule whose replacement folding may lengthen again', { confirmThresholdRub: '10', pronunciations: [rule('кафе', 'café')] }, PRICE, 2_222],
    ['a threshold that is not a sum', { confirmThresholdRub: 'много' }, PRICE, 0],
  ])('%s', (_name, settings, price, most) => {
    expect(titleFirstMax(settings, price)).toBe(most);
  });

  it('a page of that much text never bills more than the threshold, however it is read', () => {
    const settings = { confirmThresholdRub: '7.3333', pronunciations: [rule('ИИ', 'искусственный интеллект')] };
    const most = titleFirstMax(settings, PRICE);
    expect(costOf(boundOf(most, settings.pronunciations), parseRub(PRICE)!)).toBeLessThanOrEqual(parseRub('7.3333')!);
    expect(costOf(boundOf(most + 1, settings.pronunciations), parseRub(PRICE)!)).toBeGreaterThan(parseRub('7.3333')!);
  });

  it("growthOf: every rule's growth, three times over when a replacement may fold", () => {
    expect(growthOf([])).toBe(1);
    expect(growthOf([rule('т.е.', 'то есть')])).toBe(2);
    // One rule's replacement may be lengthened again by the next.
    expect(growthOf([rule('т.е.', 'то есть'), rule('ИИ', 'искусственный интеллект')])).toBe(24);
    expect(growthOf([rule('т.е.', 'то есть'), rule('кафе', 'café')])).toBe(6);
  });
});
