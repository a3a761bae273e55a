import { describe, expect, it } from 'vitest';
import { applyPronunciation, cleanRules, parseRulesJson, rulesJson, type PronunciationRule } from './pronunciation';

const rule = (find: string, replace: string, wholeWord = true): PronunciationRule => ({ find, replace, wholeWord });

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
  ])('%s', (_name, text, rules, expected) => {
    expect(applyPronunciation(text, rules)).toBe(expected);
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
