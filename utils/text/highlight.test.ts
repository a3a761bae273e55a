import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { MARK_COLOURS } from './highlight';
import { buildIndex, findSentence, findWord, tokens } from './text-index';
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

describe('the word being said, placed inside its sentence as the page shows it', () => {
  const indexOf = (html: string) => {
    const { document } = parseHTML(`<html><body><p>${html}</p></body></html>`);
    // linkedom has no Range to set: the places are what is checked here, not the range.
    (document as unknown as { createRange: () => unknown }).createRange = () => ({ setStart: () => undefined, setEnd: () => undefined });
    const slices: Array<{ node: Text; start: number; end: number }> = [];
    const walk = (n: Node) => {
      if (n.nodeType === 3) slices.push({ node: n as Text, start: 0, end: (n as Text).data.length });
      n.childNodes.forEach(walk);
    };
    walk(document.querySelector('p')!);
    return buildIndex(slices);
  };
  const wordIn = (sentence: string, w: string) => ({ start: sentence.indexOf(w), end: sentence.indexOf(w) + w.length });
  it.each([
    ['the page as sent', 'Кошка спит на окне.', 'Кошка спит на окне.', 'на', 'на'],
    ['inline markup around the word', 'The <b>quick</b> <a href="#">brown fox</a> jumps.', 'The quick brown fox jumps.', 'fox', 'fox'],
    ['a citation mark on the page only', 'Paris is large.<sup>[12]</sup> It is old and grand.', 'Paris is large. It is old and grand.', 'old', 'old'],
    ['a hyphenated word: two tokens, one mark', 'Он пришёл из-за дождя.', 'Он пришёл из-за дождя.', 'из-за', 'из-за'],
    ['a word the sentence as sent leaves out (another script)', 'Слово 東京 и город Москва.', 'Слово и город Москва.', 'Москва', 'москва'],
  ])('%s', (_name, html, sentence, word, want) => {
    const index = indexOf(html);
    const found = findSentence(index, sentence)!;
    const place = findWord(index, sentence, wordIn(sentence, word), found.startToken, found.endToken)!;
    const words = index.text.split(' ');
    expect(words.slice(place.first, place.last + 1).join('-')).toBe(want);
  });

  it.each([
    ['a drop cap: the letter set apart by a tag is the word\'s', '<span class="drop-cap"><span>W</span></span>hale whisperer', 'whale whisperer'],
    ['a word in two styles', 'пере<b>нос</b> слова', 'перенос слова'],
    ['a line break between words is not inside one', 'один<br>два', 'один два'],
    ['a citation mark after a word is not the word\'s', 'слово<sup>1</sup> дальше', 'слово 1 дальше'],
  ])('the page\'s words across tags: %s', (_name, html, words) => {
    const index = indexOf(html);
    expect(index.text).toBe(words);
  });

  it('a sentence that begins with a drop cap is marked from its first letter', () => {
    const index = indexOf('<span class="drop-cap"><span>W</span></span>hale whisperer Hori Parata was seven.');
    const found = findSentence(index, 'Whale whisperer Hori Parata was seven.')!;
    expect(found.startToken).toBe(0);
    expect(index.spans[0]!.node.data).toBe('W');
    expect(index.spans[0]!.endNode?.data).toMatch(/^hale/);
  });

  it('a word the page does not have is put at its share of the sentence, inside it', () => {
    const index = indexOf('один два три четыре пять');
    const sentence = 'один два ТРИДЦАТЬ четыре пять';
    const place = findWord(index, sentence, wordIn(sentence, 'ТРИДЦАТЬ'), 0, 4)!;
    expect(place).toEqual({ first: 2, last: 2 });
  });
});

describe("the marks' colours: readable, and the word told from its sentence", () => {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const contrast = (a: string, b: string) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi! + 0.05) / (lo! + 0.05);
  };
  it.each([
    ['text on the sentence band (WCAG AA: 4.5)', MARK_COLOURS.text, MARK_COLOURS.sentence, 4.5],
    ['text on the word mark', MARK_COLOURS.text, MARK_COLOURS.word, 4.5],
    ['the word mark against the band (a non-text contrast of 1.5 or more)', MARK_COLOURS.word, MARK_COLOURS.sentence, 1.5],
  ])('%s', (_name, a, b, least) => expect(contrast(a, b)).toBeGreaterThanOrEqual(least));
});
