/** The measure of the expected-text benchmark: n-word shingles compared as multisets (`tests/fixtures/shingles.ts`). */
import { describe, expect, it } from 'vitest';
import { averageScores, score, shingles, shingleWords } from '../fixtures/shingles.ts';

// 12 words: 9 shingles of 4 words.
const article = 'Полиция Киева завершила досудебное расследование и направила в суд материалы уголовного дела.';
// 8 words: 5 shingles.
const second = 'Он сознался в содеянном и пояснил, что хотел.';

const close = (got: number, want: number) => expect(got).toBeCloseTo(want, 10);
const f1 = (p: number, r: number) => (2 * p * r) / (p + r);

describe('shingleWords', () => {
  it.each([
    ['lower-cases, drops punctuation', '«Я — Самуэль», – сказал он.', ['я', 'самуэль', 'сказал', 'он']],
    ['folds ё to е, capital Ё too', 'Ёлку привезли тёплой', ['елку', 'привезли', 'теплой']],
    ['keeps digits and mixed words', 'ЦКАД-5 — 76 км, iOS 9, 3d', ['цкад', '5', '76', 'км', 'ios', '9', '3d']],
    ['any script', 'Apple Maps 日本語 Ελλάδα', ['apple', 'maps', '日本語', 'ελλάδα']],
    ['a decomposed й and ё are one word', 'и\u0306од е\u0308ж', ['йод', 'еж']],
    ['no words', ' — «» ... ', []],
  ])('%s', (_, text, words) => {
    expect(shingleWords(text)).toEqual(words);
  });
});

describe('shingles', () => {
  it.each([
    ['four words: one shingle', ['a', 'b', 'c', 'd'], 4, { 'a b c d': 1 }],
    ['six words: three shingles', ['a', 'b', 'c', 'd', 'e', 'f'], 4, { 'a b c d': 1, 'b c d e': 1, 'c d e f': 1 }],
    ['a repeat is counted twice', ['a', 'b', 'a', 'b', 'a'], 2, { 'a b': 2, 'b a': 2 }],
    ['shorter than n: the whole list', ['a', 'b'], 4, { 'a b': 1 }],
    ['no words: none', [], 4, {}],
  ])('%s', (_, words, n, want) => {
    expect(Object.fromEntries(shingles(words, n))).toEqual(want);
  });
});

describe('score', () => {
  it.each([
    ['a paragraph', article],
    ['two paragraphs on lines', `${article}\n\n${second}`],
    ['exactly four words', 'Полиция направила дело минера'],
    ['one word', 'Тест'],
  ])('identical texts score 1/1/1: %s', (_, text) => {
    expect(score(text, text)).toMatchObject({ precision: 1, recall: 1, f1: 1 });
  });

  it.each([
    // got: the article and k more words after it → 9 + k shingles, 9 matched.
    ['a teaser after it', `${article} Читайте также: Суд отправил за решетку минера`, 9 / (9 + 7)],
    ['a menu before it', `Главная Политика Экономика ${article}`, 9 / (9 + 3)],
    ['a teaser, a share bar and an ad after it', `${article} Читайте также Суд отправил Поделиться Реклама`, 9 / (9 + 6)],
  ])('extra text lowers precision only: %s', (_, got, precision) => {
    const s = score(article, got);
    close(s.precision, precision);
    expect(s.recall).toBe(1);
    close(s.f1, f1(precision, 1));
  });

  it('extra text inside the article also costs the n − 1 shingles across it', () => {
    // expected: 20 words, 17 shingles; a 2-word caption between the paragraphs: 22 words, 19 shingles. The 3
    // shingles that ran from one paragraph into the next are not read: 14 matched.
    const s = score(`${article} ${second}`, `${article} Фото: Reuters ${second}`);
    close(s.precision, 14 / 19);
    close(s.recall, 14 / 17);
  });

  it.each([
    // expected: the article and the second paragraph (20 words, 17 shingles).
    ['the second paragraph missing', article, 9 / 17],
    ['the first paragraph missing', second, 5 / 17],
    ['the headline missing', `${article} ${second}`.replace('Полиция Киева ', ''), 15 / 17],
  ])('missing text lowers recall only: %s', (_, got, recall) => {
    const s = score(`${article} ${second}`, got);
    expect(s.precision).toBe(1);
    close(s.recall, recall);
    close(s.f1, f1(1, recall));
  });

  it.each([
    // The article read twice: 2 × 12 words → 21 shingles, each of the 9 expected ones twice; 9 matched.
    ['read twice', `${article} ${article}`, 9 / 21],
    ['read three times', `${article} ${article} ${article}`, 9 / 33],
    // Expected twice (a refrain) and read twice: all matched.
    ['a refrain read as often as written', null, 1],
  ])('repeated text counts as extra (multiset): %s', (_, got, precision) => {
    const expected = got === null ? `${article} ${article}` : article;
    const s = score(expected, got ?? expected);
    close(s.precision, precision);
    expect(s.recall).toBe(1);
  });

  it.each([
    ['case', 'ПОЛИЦИЯ НАПРАВИЛА ДЕЛО МИНЕРА В СУД', 'полиция направила дело минера в суд'],
    ['ё and е', 'Привезли детишкам тёплый и настоящий Новый год — ёлку', 'привезли детишкам теплый и настоящий новый год елку'],
    ['punctuation and quotes', 'Дело "минера" — в суд: «Вокзальная», 102!', 'Дело «минера» - в суд. "Вокзальная" 102'],
    ['spacing and lines', 'Полиция   направила\n\nдело\u00a0минера в суд', 'Полиция направила дело минера в суд'],
    ['dashes and hyphens', 'Северо-Казахстанская область — 10 тысяч', 'Северо Казахстанская область 10 тысяч'],
  ])('%s do not matter', (_, expected, got) => {
    expect(score(expected, got)).toMatchObject({ precision: 1, recall: 1, f1: 1 });
  });

  it.each([
    // Fewer than 4 words on either side: both are cut into shingles of that many words.
    ['a short headline read as written', 'Привет мир', 'привет, мир!', 1, 1],
    ['a short text read with two more words', 'Привет мир', 'Привет мир и все', 1 / 3, 1],
    ['three words read of five', 'В Рязани наградили лучших журналистов', 'наградили лучших журналистов', 1, 1 / 3],
    ['one word read of five', 'В Рязани наградили лучших журналистов', 'Рязани', 1, 1 / 5],
    ['a short text, other words', 'Привет мир', 'Пока мир', 0, 0],
    ['the same words in another order', 'один два три', 'три два один', 0, 0],
  ])('short texts: %s', (_, expected, got, precision, recall) => {
    const s = score(expected, got);
    close(s.precision, precision);
    close(s.recall, recall);
    close(s.f1, precision + recall ? f1(precision, recall) : 0);
  });

  it.each([
    ['both empty', '', '', 1, 1, 1],
    ['both without words', '— «»', ' ... ', 1, 1, 1],
    ['nothing read: nothing wrong said, nothing heard', article, '', 1, 0, 0],
    ['only punctuation read', article, '— — —', 1, 0, 0],
    ['nothing expected, something read: all extra', '', article, 0, 1, 0],
  ])('empty: %s', (_, expected, got, precision, recall, f) => {
    expect(score(expected, got)).toMatchObject({ precision, recall, f1: f });
  });

  it('counts the shingles it compared', () => {
    expect(score(article, `${article} Фото: Reuters`)).toEqual({ precision: 9 / 11, recall: 1, f1: f1(9 / 11, 1), expected: 9, got: 11, matched: 9 });
  });

  it('n can be set', () => {
    // 2-word shingles: 11 expected, the 3 menu words add 3.
    close(score(article, `Главная Политика Экономика ${article}`, 2).precision, 11 / 14);
  });
});

describe('averageScores', () => {
  it.each([
    ['one page', [{ precision: 0.5, recall: 1, f1: 2 / 3 }], { pages: 1, precision: 0.5, recall: 1, f1: 2 / 3 }],
    [
      'pages weigh the same, F1 is the mean of the pages’ F1',
      [
        { precision: 1, recall: 1, f1: 1 },
        { precision: 0, recall: 1, f1: 0 },
      ],
      { pages: 2, precision: 0.5, recall: 1, f1: 0.5 },
    ],
  ])('%s', (_, rows, want) => {
    const got = averageScores(rows);
    expect(got).toMatchObject(want);
    expect(got.micro).toBeUndefined();
  });

  it('gives the totals over pages when the rows carry counts: a long page weighs more', () => {
    const long = score(`${article} ${second}`, `${article} ${second}`); // 17 of 17
    const short = score('Полиция направила дело минера в суд', 'Главная Полиция направила дело минера в суд'); // 3 of 4
    const avg = averageScores([long, short]);
    close(avg.precision, (1 + 3 / 4) / 2);
    expect(avg.recall).toBe(1);
    close(avg.f1, (1 + f1(3 / 4, 1)) / 2);
    close(avg.micro!.precision, 20 / 21);
    expect(avg.micro!.recall).toBe(1);
  });

  it('refuses to average no pages', () => {
    expect(() => averageScores([])).toThrow(/no pages/);
  });
});
