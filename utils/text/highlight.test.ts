import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { buildIndex, tokens } from './highlight';
import { squeezeSpaces } from './chars';

describe("the page's words as the read text has them (blanks and invisible characters: chars.ts)", () => {
  it.each([
    ['soft hyphens inside a word', 'пе\u00ADре\u00ADнос слова', 'перенос слова'],
    ['a zero-width space inside a word', 'сверх\u200Bдлинное слово', 'сверхдлинное слово'],
    ['a word joiner and U+FEFF', 'на\u2060чало ко\uFEFFнец', 'начало конец'],
    ['Braille blanks as an indent', '\u2800\u2800\u2800Жили-были', 'жили были'],
    ['Hangul fillers glued to words, and alone', '\u3164Привет\u3164мир \uFFA0 !', 'привет мир'],
    ['plain words', 'Ёлка и ёж', 'елка и еж'],
  ])('%s', (_name, page, words) => {
    // The block's text as read, and the page's own text node, give the same words.
    expect(tokens(squeezeSpaces(page)).join(' ')).toBe(words);
    const { document } = parseHTML(`<html><body><p>${page}</p></body></html>`);
    const node = document.querySelector('p')!.firstChild as unknown as Text;
    const index = buildIndex([{ node, start: 0, end: node.data.length }]);
    expect(index.text).toBe(words);
    // Each word's place is its own slice of the node, from its first letter to its last.
    for (const span of index.spans) expect(/^[\p{L}\p{N}]/u.test(node.data.slice(span.start)) && /[\p{L}\p{N}]$/u.test(node.data.slice(0, span.end))).toBe(true);
  });
});
