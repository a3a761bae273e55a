import { describe, expect, it } from 'vitest';
import { countChars, hasLooseSpace, isSpaceCode, oneSpaced, squeezeSpaces } from './chars';

/** The characters `squeezeSpaces` makes spaces or removes besides whitespace (`\s`). */
const BLANKS = [0x115f, 0x1160, 0x2800, 0x3164, 0xffa0];
const INVISIBLES = [0x00ad, 0x180e, 0x200b, 0x200c, 0x200d, 0x2060, 0xfeff];

describe('squeezeSpaces and hasLooseSpace: whitespace as the reader sends it', () => {
  it.each([
    ['', false, ''],
    ['one space', false, 'one space'],
    [' ends only ', false, 'ends only'],
    ['two  spaces', true, 'two spaces'],
    ['a tab\there', true, 'a tab here'],
    ['a line\nbreak', true, 'a line break'],
    ['space then break \nhere', true, 'space then break here'],
    ['no-break\u00a0space', true, 'no-break space'],
    ['thin\u2009space', true, 'thin space'],
    ['ideographic\u3000space', true, 'ideographic space'],
    ['Ёлка — ёж', false, 'Ёлка — ёж'],
  ])('%j', (text, loose, squeezed) => {
    expect(hasLooseSpace(text)).toBe(loose);
    // The same answer as the one regular expression it stands for (whitespace alone).
    expect(hasLooseSpace(text)).toBe(/\s\s|[^\S ]/.test(text));
    expect(squeezeSpaces(text)).toBe(squeezed);
  });

  it('counts code points, a surrogate pair once', () => {
    expect(countChars('ёж 🦔')).toBe(4);
  });
});

describe('blanks and invisible characters: never billed', () => {
  it.each([
    ['Braille blanks as an indent', '\u2800\u2800\u2800Жили-были дед да баба.', 'Жили-были дед да баба.'],
    ['Braille blanks between sentences', 'Первое.\u2800\u2800Второе.', 'Первое. Второе.'],
    ['a paragraph of Braille blanks only', '\u2800 \u2800\u2800', ''],
    ['a Braille blank glued to a word', 'слово\u2800слово', 'слово слово'],
    ['Hangul fillers as an empty line or name', '\u3164\u3164Привет\u3164мир\uFFA0\u115F\u1160!', 'Привет мир !'],
    ['en and em quads, figure and hair spaces', 'a\u2000b\u2001c\u2007d\u200Ae', 'a b c d e'],
    ['a zero-width space inside a long word', 'сверх\u200Bдлинное', 'сверхдлинное'],
    ['a zero-width space beside a space', 'два \u200B слова', 'два слова'],
    ['soft hyphens inside a word', 'пе\u00ADре\u00ADнос', 'перенос'],
    ['a word joiner and U+FEFF', '\uFEFFна\u2060чало и ко\uFEFFнец\u2060', 'начало и конец'],
    ['the Mongolian vowel separator', 'a\u180Eb', 'ab'],
    ['lone joiners at the ends and beside spaces', '\u200Dслово\u200C и \u200Dещё\u200D', 'слово и ещё'],
    ['a joiner inside an emoji sequence stays (makeAcceptable drops the emoji)', 'семья 👨\u200D👩 дома', 'семья 👨\u200D👩 дома'],
    ['units and other symbols are text', 'м² · 10³ · №5 · ⠁⠃', 'м² · 10³ · №5 · ⠁⠃'],
  ])('%s', (_name, text, squeezed) => {
    expect(squeezeSpaces(text)).toBe(squeezed);
    // A text `squeezeSpaces` rewrites beyond its ends is one `hasLooseSpace` says is loose (parts.ts trusts it).
    if (squeezed !== text.trim()) expect(hasLooseSpace(text)).toBe(true);
  });

  it('hasLooseSpace is true exactly for whitespace other than a space, a blank or an invisible character (every BMP code unit)', () => {
    const wrong: string[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      const ch = String.fromCharCode(c);
      const expected = (/\s/.test(ch) && c !== 32) || BLANKS.includes(c) || INVISIBLES.includes(c);
      if (hasLooseSpace(`a${ch}b`) !== expected) wrong.push(c.toString(16));
    }
    expect(wrong).toEqual([]);
  });

  it('isSpaceCode is whitespace (\\s), the blanks and the invisible characters (every BMP code unit)', () => {
    const wrong: string[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      const expected = /\s/.test(String.fromCharCode(c)) || BLANKS.includes(c) || INVISIBLES.includes(c);
      if (isSpaceCode(c) !== expected) wrong.push(c.toString(16));
    }
    expect(wrong).toEqual([]);
  });
});

describe('oneSpaced: the same as collapsing every run of white space and trimming, without a copy when none is loose', () => {
  it.each([
    'Одна строка из слов.',
    '',
    ' ',
    '  два  пробела ',
    'табуляция\tвнутри',
    'перевод\nстроки',
    '\u00a0неразрывный в начале',
    'в конце ',
    ' в начале',
    'тонкий\u2009пробел',
    'line\u2028separator',
    'a b c',
  ])('%j', (s) => {
    expect(oneSpaced(s)).toBe(s.replace(/\s+/g, ' ').trim());
  });
  it('a line already one-spaced is the same string', () => {
    const s = 'Уже как надо: слова через один пробел.';
    expect(oneSpaced(s)).toBe(s);
  });
});
