import { describe, expect, it } from 'vitest';
import { moreWordCharsThan, tokens } from './text-index';

describe('moreWordCharsThan: letters and digits counted only as far as asked', () => {
  it.each([
    ['', 0, false],
    ['Заголовок', 9, false],
    ['Заголовок', 8, true],
    ['Три слова тут', 11, false],
    ['Три слова тут', 10, true],
    // Punctuation, spaces and marks of no width are not letters.
    ['— «Да!» — …', 2, false],
    ['пе\u00ADре\u00ADнос', 7, false],
    // A Hangul filler is a blank to a reader, not a letter.
    ['\u3164\u3164ab', 2, false],
    ['x'.repeat(1_000_000), 10, true],
  ])('%j, more than %i: %s', (s, most, want) => expect(moreWordCharsThan(s, most)).toBe(want));

  // The extraction tells a block from the headline by this count: a text never has more of them than its own
  // token string is long (a letter stays at least one letter in the loose form).
  it.each([
    'Заголовок статьи',
    'Ёжик в тумане',
    'Café crème brûlée',
    'İstanbul’da İKİ',
    '한국어 텍스트',
    'e\u0301 combining',
    'ﬁne ligature',
    'Ⅻ² 3½ digits',
    '𝐁𝐨𝐥𝐝 𝟏𝟐',
  ])('%j: its own words are never "more"', (s) => expect(moreWordCharsThan(s, tokens(s).join(' ').length)).toBe(false));
});
