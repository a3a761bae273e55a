import { describe, expect, it } from 'vitest';
import { plainLocale, plainSentenceEnds } from './sentences';

const segmenter = new Intl.Segmenter('ru', { granularity: 'sentence' });
/** The sentence ends `Intl.Segmenter` finds: what the scan must answer. */
const segmented = (text: string) => Array.from(segmenter.segment(text), (s) => s.index + s.segment.length);
/** Sentences of `text` as the scan cuts it. */
const cut = (text: string) => {
  const ends = plainSentenceEnds(text);
  return ends?.map((end, i) => text.slice(i ? ends[i - 1] : 0, end));
};

describe('plainSentenceEnds: sentences of plain prose without the segmenter', () => {
  it.each([
    ['Первое. Второе! Третье?', ['Первое. ', 'Второе! ', 'Третье?']],
    ['Число 3.14 не делится.', ['Число 3.14 не делится.']],
    ['Это т. е. пример. Дальше.', ['Это т. е. пример. ', 'Дальше.']],
    ['Made in the U.S.A today. Next.', ['Made in the U.S.A today. ', 'Next.']],
    ['Он сказал: «Хватит!» И ушёл.', ['Он сказал: «Хватит!» ', 'И ушёл.']],
    ['Что?! Да.', ['Что?! ', 'Да.']],
    ['Подождите... а потом?', ['Подождите... а потом?']],
    ['Стоп!, сказал он.', ['Стоп!, сказал он.']],
    ['Многоточие… Не конец.', ['Многоточие… Не конец.']],
    ['Скобка.) Новая.', ['Скобка.) ', 'Новая.']],
    ['Конец.  ', ['Конец.  ']],
    ['', []],
  ])('%j', (text, sentences) => {
    expect(cut(text)).toEqual(sentences);
    expect(plainSentenceEnds(text)).toEqual(segmented(text));
  });

  it.each([['Tab\there'], ['Line\nbreak'], ['No-break\u00a0space'], ['Ukrainian її'], ['Soft\u00adhyphen'], ['Emoji 😀.']])(
    '%j has a character outside the alphabet: left to the segmenter',
    (text) => {
      expect(plainSentenceEnds(text)).toBeNull();
    },
  );

  it('agrees with Intl.Segmenter on every string of up to four of each class of character', () => {
    // A lower and an upper letter of each alphabet, a digit, each terminator, closing punctuation, a
    // continuation, other punctuation, the ellipsis and a space: every rule's context in four characters.
    const alphabet = [...'aAяЯ1.!?")«,;—#… '];
    let strings = [''];
    let compared = 0;
    for (let length = 1; length <= 4; length++) {
      strings = strings.flatMap((s) => alphabet.map((c) => s + c));
      for (const text of strings) {
        if (JSON.stringify(plainSentenceEnds(text)) !== JSON.stringify(segmented(text))) expect([text, plainSentenceEnds(text)]).toEqual([text, segmented(text)]);
        compared++;
      }
    }
    expect(compared).toBe(17 + 17 ** 2 + 17 ** 3 + 17 ** 4);
  });

  it('agrees with Intl.Segmenter on random longer strings over the whole alphabet', () => {
    const all = [...Array.from({ length: 0x5f }, (_, i) => String.fromCharCode(0x20 + i)), ...Array.from({ length: 0x40 }, (_, i) => String.fromCharCode(0x410 + i)), ...'Ёё«»–—‘’“”„…'];
    // Weighted towards prose: spaces, letters and terminators.
    const pool = [...all, ...' '.repeat(30), ...'абвгдеАБВabcAB.......!?,,,'];
    let seed = 2026;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let t = 0; t < 20_000; t++) {
      const text = Array.from({ length: 2 + Math.floor(random() * 40) }, () => pool[Math.floor(random() * pool.length)]).join('');
      if (JSON.stringify(plainSentenceEnds(text)) !== JSON.stringify(segmented(text))) expect([text, plainSentenceEnds(text)]).toEqual([text, segmented(text)]);
    }
  });

  it.each([
    ['ru', true],
    ['ru-RU', true],
    ['en-US', true],
    ['el', false],
    ['ja', false],
    ['rue', false],
  ])('locale %s: found without the segmenter %s', (locale, plain) => {
    expect(plainLocale(locale)).toBe(plain);
  });
});
