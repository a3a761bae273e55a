import { describe, expect, it } from 'vitest';
import { applyPronunciation, cleanRules, growsTooMuch, MAX_RULE_CHARS, MAX_RULES, MAX_RULES_GROWTH, parseRulesJson, rulesGrowth, rulesJson, type PronunciationRule } from './pronunciation';

const rule = (find: string, replace: string, wholeWord = true): PronunciationRule => ({ find, replace, wholeWord });
/** The review's rule: one letter into MAX_RULE_CHARS of it, anywhere. */
const blowUp = rule('a', 'a'.repeat(MAX_RULE_CHARS), false);
const MCHS = rule('МЧС', 'министерство по чрезвычайным ситуациям');

describe('applyPronunciation', () => {
  it.each([
    ['a whole word, any case; a capital stays a capital', 'ИИ и ии меняют мир.', [rule('ИИ', 'искусственный интеллект')], 'Искусственный интеллект и искусственный интеллект меняют мир.'],
    ['an acronym inside a sentence becomes plain words', 'Системы ИИ пишут.', [rule('ИИ', 'искусственный интеллект')], 'Системы искусственный интеллект пишут.'],
    ['a whole word is not found inside another', 'Линии и ИИ.', [rule('ИИ', 'интеллект')], 'Линии и интеллект.'],
    ['a plain rule matches inside words', 'nginx-proxy и nginx.', [rule('nginx', 'энджинкс', false)], 'энджинкс-proxy и энджинкс.'],
    ['special characters are found as written', 'C++ и C#.', [rule('C++', 'си плюс плюс'), rule('C#', 'си шарп')], 'Си плюс плюс и си шарп.'],
    ['rules apply in order', 'ТТС', [rule('ТТС', 'text to speech'), rule('text', 'текст')], 'Текст to speech'],
    ['a "$&" in the replacement is text', 'a b', [rule('a', '$&$&')], '$&$& b'],
    ['no rules, no change', 'Текст.', [], 'Текст.'],
    ['an acronym alone grows 11.5 times, within the cap', 'ИИ', [rule('ИИ', 'искусственный интеллект')], 'Искусственный интеллект'],
    ['a sign read as a phrase', 'a ≤ b', [rule('≤', 'меньше или равно', false)], 'a меньше или равно b'],
  ])('%s', (_name, text, rules, expected) => {
    expect(applyPronunciation(text, rules)).toBe(expected);
  });
});

describe('applyPronunciation never makes a text more than MAX_RULES_GROWTH times as long', () => {
  it.each([
    // The review: 100 characters made 4,000,000 by two rules; a third threw a RangeError.
    ['two rules of a letter into 200 (was 4,000,000)', 'a'.repeat(100), [blowUp, blowUp], 'a'.repeat(100)],
    ['three of them (was a RangeError)', 'a'.repeat(100), [blowUp, blowUp, blowUp], 'a'.repeat(100)],
    ['five hundred of them', 'a'.repeat(100), Array.from({ length: 500 }, () => blowUp), 'a'.repeat(100)],
    ['doubling rules apply up to the cap, the one past it is skipped', 'a'.repeat(10), Array.from({ length: 6 }, () => rule('a', 'aa', false)), 'a'.repeat(10 * MAX_RULES_GROWTH)],
    ['a rule past the cap is skipped whole; the rules after it still apply', 'x a', [blowUp, rule('x', 'y')], 'y a'],
    ['the same rule fits a longer text', 'a' + ' '.repeat(200), [blowUp], 'a'.repeat(MAX_RULE_CHARS) + ' '.repeat(200)],
    ['a stored rule longer than any the options page saves is not applied', 'a'.repeat(100), [rule('a', 'b'.repeat(MAX_RULE_CHARS + 1), false)], 'a'.repeat(100)],
    ['nor are rules past MAX_RULES', 'a', [...Array.from({ length: MAX_RULES }, () => rule('x', 'y')), rule('a', 'b')], 'a'],
  ])('%s', (_name, text, rules, expected) => {
    const out = applyPronunciation(text, rules);
    expect(out.length).toBeLessThanOrEqual(MAX_RULES_GROWTH * text.length);
    expect(out).toBe(expected);
  });

  it('a whole page with a chain of growing rules stays bounded', () => {
    const text = 'Системы ИИ и МЧС. '.repeat(500);
    const rules = [rule('ИИ', 'искусственный интеллект'), ...Array.from({ length: 10 }, () => rule('и', 'ии', false))];
    const out = applyPronunciation(text, rules);
    expect(out.length).toBeLessThanOrEqual(MAX_RULES_GROWTH * text.length);
    // The acronym and the doublings that fit were applied; the rest were skipped.
    expect(out.length).toBeGreaterThan((MAX_RULES_GROWTH / 2) * text.length);
  });
});

describe('rulesGrowth: an upper bound of how many times as long the rules may make a text', () => {
  it.each([
    ['no rules', [], 1],
    ['a rule with an empty find does nothing', [rule('', 'x'.repeat(100))], 1],
    ['a shorter replacement', [rule('искусственный интеллект', 'ИИ')], 1],
    ['an acronym: replace over find', [rule('ИИ', 'искусственный интеллект')], 11.5],
    ['rules that cannot feed each other: the largest, not the product', [rule('ИИ', 'искусственный интеллект'), MCHS], 38 / 3],
    ['a later rule respelling an earlier one’s words adds nothing', [rule('C++', 'си плюс плюс'), rule('плюс', 'плас')], 4],
    ['a later rule growing an earlier one’s words: the product', [rule('x', 'yy'), rule('y', 'zzz')], 6],
    ['the same two the other way round cannot feed: the largest', [rule('y', 'zzz'), rule('x', 'yy')], 3],
    ['a find starting where a replacement ends', [rule('q', 'qwe'), rule('eq', 'eeee')], 6],
    ['a find reaching into where a replacement starts', [rule('q', 'wer'), rule('xw', 'xwxw')], 6],
    ['case is ignored, as in matching', [rule('x', 'YY'), rule('y', 'zzz')], 6],
    ['a capital that grows at a sentence’s start ("ß" → "SS")', [rule('x', 'ßa'), rule('ss', 'tttt')], 6],
    ['a chain of three doublings', [rule('a', 'aa', false), rule('a', 'aa', false), rule('a', 'aa', false)], 8],
    ['the review’s two rules', [blowUp, blowUp], MAX_RULE_CHARS * MAX_RULE_CHARS],
  ])('%s', (_name, rules, expected) => {
    expect(rulesGrowth(rules)).toBeCloseTo(expected, 9);
  });

  it.each([
    ['the acronym', [rule('ИИ', 'искусственный интеллект')], false],
    ['at the cap', [rule('ab', 'x'.repeat(2 * MAX_RULES_GROWTH))], false],
    ['one character past it', [rule('ab', 'x'.repeat(2 * MAX_RULES_GROWTH + 1))], true],
    ['the review’s rule alone', [blowUp], true],
    ['five doublings in a chain', Array.from({ length: 5 }, () => rule('a', 'aa', false)), false],
    ['six', Array.from({ length: 6 }, () => rule('a', 'aa', false)), true],
    ['fifty acronyms that cannot feed each other', Array.from({ length: 50 }, (_, k) => rule(`Ф${k}Щ`, 'ю'.repeat(30))), false],
  ])('growsTooMuch: %s', (_name, rules, expected) => {
    expect(growsTooMuch(rules)).toBe(expected);
  });

  it('no set it lets through makes a text longer than it says (3,000 random sets, none capped)', () => {
    let seed = 45;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648) >>> 16) % n;
    const word = (alphabet: string, most: number) => Array.from({ length: 1 + rnd(most) }, () => alphabet[rnd(alphabet.length)]).join('');
    for (let n = 0; n < 3_000; n++) {
      const alphabet = ['ab', 'aBß', 'sSß'][n % 3]!;
      const rules = Array.from({ length: 1 + rnd(6) }, () => rule(word(alphabet, 3), rnd(4) === 0 ? '' : word(alphabet, 4), rnd(2) === 0));
      const text = Array.from({ length: 1 + rnd(4) }, () => word(`${alphabet} .`, 16)).join(' ');
      const bound = rulesGrowth(rules);
      if (bound <= MAX_RULES_GROWTH) expect(applyPronunciation(text, rules).length).toBeLessThanOrEqual(bound * text.length);
    }
  });
});

describe('rules files', () => {
  it('export and import give back the same rules', () => {
    const rules = [rule('ИИ', 'искусственный интеллект'), rule('nginx', 'энджинкс', false)];
    expect(parseRulesJson(rulesJson(rules))).toEqual(rules);
  });

  it.each([
    ['not JSON', 'nope', null],
    ['not a list', '{"rules": 5}', null],
    ['a rule without strings', '[{"find": 1, "replace": "x"}]', null],
    ['a bare list; empty finds dropped; whole word by default', '[{"find": " ИИ ", "replace": "интеллект"}, {"find": "", "replace": "x"}]', [rule('ИИ', 'интеллект')]],
  ])('%s', (_name, text, expected) => {
    expect(parseRulesJson(text)).toEqual(expected);
  });

  it('a list too long is refused', () => expect(cleanRules(Array.from({ length: 501 }, () => rule('a', 'b')))).toBeNull());
});
