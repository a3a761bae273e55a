import { describe, expect, it } from 'vitest';
import { countChars, hasLooseSpace, squeezeSpaces } from './chars';

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
    // The same answer as the one regular expression it stands for.
    expect(hasLooseSpace(text)).toBe(/\s\s|[^\S ]/.test(text));
    expect(squeezeSpaces(text)).toBe(squeezed);
  });

  it('counts code points, a surrogate pair once', () => {
    expect(countChars('ёж 🦔')).toBe(4);
  });
});
