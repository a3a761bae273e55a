import { describe, expect, it } from 'vitest';
import { countChars, splitIntoParts, type Part, type SplitOptions, type TextBlock } from './parts';

const p = (text: string): TextBlock => ({ kind: 'paragraph', text });
const h = (text: string): TextBlock => ({ kind: 'heading', text });
const t = (text: string): TextBlock => ({ kind: 'title', text });

/** Deterministic pseudo-random numbers, so generated articles are the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const NOUNS = 'город река солнце человек работа время жизнь дорога окно история вопрос ответ ёлка йогурт подъезд'.split(' ');
const WORDS = [
  ...NOUNS,
  ...'объявление длинноватое словосочетание и в на под за перед быстро медленно сегодня вчера никогда всегда'.split(' '),
  ...'2024 года 15 % «цитата» (скобки) т. е. Mr. Smith'.split(' '),
];
// ICU ends a sentence after these; it does not after "…", so the generator does not use it.
const ENDINGS = ['.', '.', '.', '!', '?', '?!'];

interface Article {
  blocks: TextBlock[];
  /** The reading text the parts must add up to: sentences joined by " ", blocks by "\n". */
  whole: string;
  /** Offsets in `whole` where the generated sentences start. */
  sentenceStarts: number[];
}

/** Paragraphs of varied sentences (3 to 60 words, one now and then of 400), under a heading now and then. */
function article(targetChars: number, seed: number): Article {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const blocks: TextBlock[] = [];
  const lines: string[] = [];
  const sentenceStarts: number[] = [];
  let offset = 0;
  const addBlock = (block: TextBlock, sentences: string[]): void => {
    if (lines.length > 0) offset += 1;
    for (const [i, s] of sentences.entries()) {
      if (i > 0) offset += 1;
      sentenceStarts.push(offset);
      offset += s.length;
    }
    blocks.push(block);
    lines.push(sentences.join(' '));
  };
  addBlock(t('Большая статья о городе'), ['Большая статья о городе.']);
  while (offset < targetChars) {
    if (next() < 0.1) {
      const heading = `Глава ${blocks.length}`;
      addBlock(h(heading), [`${heading}.`]);
    }
    const sentences = Array.from({ length: 1 + Math.floor(next() * 7) }, () => {
      const count = next() < 0.02 ? 400 : 3 + Math.floor(next() * 58);
      const first = pick(NOUNS);
      const words = [`${first.charAt(0).toUpperCase()}${first.slice(1)}`];
      for (let i = 1; i < count; i++) words.push(pick(WORDS));
      return `${words.join(' ')}${pick(ENDINGS)}`;
    });
    // Extra spaces and a line break inside the paragraph are normalized away.
    addBlock(p(`  ${sentences.join('   ')} \n`), sentences);
  }
  return { blocks, whole: lines.join('\n'), sentenceStarts };
}

/**
 * The parts, in order, are slices of `whole` with at most one separator (" " or "\n") between
 * them; inside a part the sentence pieces cover the text with single separators ("\n" exactly
 * where the block changes). Returns each part's offset in `whole`.
 */
function checkCoverage(parts: readonly Part[], whole: string): number[] {
  const offsets: number[] = [];
  let cursor = 0;
  let lastBlock = -1;
  for (const [i, part] of parts.entries()) {
    expect(part.index).toBe(i);
    if (i > 0 && (whole[cursor] === ' ' || whole[cursor] === '\n')) cursor += 1;
    expect(whole.startsWith(part.text, cursor)).toBe(true);
    offsets.push(cursor);
    let inside = 0;
    for (const s of part.sentences) {
      const gap = part.text.slice(inside, s.start);
      expect(gap).toBe(inside === 0 ? '' : s.block === lastBlock ? ' ' : '\n');
      expect(s.block).toBeGreaterThanOrEqual(lastBlock);
      expect(s.end).toBeGreaterThan(s.start);
      lastBlock = s.block;
      inside = s.end;
    }
    expect(inside).toBe(part.text.length);
    cursor += part.text.length;
  }
  expect(cursor).toBe(whole.length);
  return offsets;
}

/** Every generated sentence starts exactly one sentence piece; other pieces are continuations of cut sentences. */
function checkSentences(parts: readonly Part[], offsets: readonly number[], sentenceStarts: readonly number[]): void {
  const pieceStarts = parts.flatMap((part, i) => part.sentences.map((s) => offsets[i]! + s.start));
  expect(new Set(pieceStarts).size).toBe(pieceStarts.length);
  const starts = new Set(pieceStarts);
  expect(sentenceStarts.filter((s) => !starts.has(s))).toEqual([]);
}

function checkLimits(parts: readonly Part[], options: Required<Omit<SplitOptions, 'locale' | 'hardMax' | 'onSilent' | 'continues'>>): void {
  for (const [i, part] of parts.entries()) {
    expect(part.chars).toBe(countChars(part.text));
    expect(part.chars).toBeLessThanOrEqual(i === 0 ? options.firstPartMax : options.partMax);
    expect(part.text).not.toMatch(/^\s|\s$|[\uD800-\uDBFF]$|^[\uDC00-\uDFFF]/);
    expect(countChars(part.previousText)).toBeLessThanOrEqual(options.contextChars);
    expect(countChars(part.nextText)).toBeLessThanOrEqual(options.contextChars);
  }
}

describe('countChars', () => {
  it.each([
    ['', 0],
    ['привет', 6],
    ['ёжик', 4],
    ['😀', 1],
    ['a😀b', 3],
    ['👨‍👩‍👧', 5], // three emoji and two joiners
    ['e\u0301', 2],
    ['\uD800', 1], // a lone surrogate is one code point
  ])('%j has %i code points', (s, n) => {
    expect(countChars(s)).toBe(n);
  });
});

describe('splitIntoParts: sentences and blocks', () => {
  it.each<[string, TextBlock[], string[]]>([
    ['two Russian sentences', [p('Привет. Как дела?')], ['Привет.', 'Как дела?']],
    ['English sentences', [p('Hello there. How are you? Fine!')], ['Hello there.', 'How are you?', 'Fine!']],
    ['whitespace inside a sentence is normalized', [p('  Много   пробелов\tи\u00A0табов.  ')], ['Много пробелов и табов.']],
    ['a line break ends a sentence', [p('Первая строка\nвторая строка.')], ['Первая строка', 'вторая строка.']],
    ['a title gets a full stop', [t('Заголовок статьи')], ['Заголовок статьи.']],
    ['a heading gets a full stop', [h('Глава 1')], ['Глава 1.']],
    ['a heading keeps its own punctuation', [h('Что делать?')], ['Что делать?']],
    ['a heading ending in a colon', [h('Итоги:')], ['Итоги:']],
    ['punctuation inside closing quotes counts', [h('«Война и мир!»')], ['«Война и мир!»']],
    ['a heading ending in a quote gets one', [h('«Война и мир»')], ['«Война и мир».']],
    ['a heading spread over lines is one sentence', [h('Глава\n  первая')], ['Глава первая.']],
    ['empty blocks are dropped', [p(''), h('  '), p('Текст.'), p('\n\n')], ['Текст.']],
  ])('%s', (_name, blocks, sentences) => {
    const parts = splitIntoParts(blocks, { firstPartMax: 1_000 });
    const found = parts.flatMap((part) => part.sentences.map((s) => part.text.slice(s.start, s.end)));
    expect(found).toEqual(sentences);
  });

  it.each<[string, TextBlock[], SplitOptions, string[]]>([
    ['no blocks', [], {}, []],
    ['only whitespace', [p('   \n '), t('')], {}, []],
    ['the first part is the first sentence', [p('Короткое. Второе предложение. Третье.')], {}, ['Короткое.', 'Второе предложение. Третье.']],
    [
      'sentences of a block join with a space, blocks with a newline',
      [t('Статья'), p('Раз. Два.'), h('Глава'), p('Три.')],
      {},
      ['Статья.', 'Раз. Два.\nГлава.\nТри.'],
    ],
    [
      'greedy packing up to partMax',
      [p('Аааа. Бббб. Вввв. Гггг. Дддд. Ееее.')],
      { partMax: 11 },
      ['Аааа.', 'Бббб. Вввв.', 'Гггг. Дддд.', 'Ееее.'],
    ],
    [
      'a long first sentence is cut at a word boundary',
      [p('Один два три четыре пять шесть семь. Восемь.')],
      { firstPartMax: 15 },
      ['Один два три', 'четыре пять шесть семь. Восемь.'],
    ],
    [
      'a cut prefers a space after a comma in the second half',
      [p('Слово слово слово, ещё слово и слово. Конец.')],
      { firstPartMax: 26 },
      ['Слово слово слово,', 'ещё слово и слово. Конец.'],
    ],
    [
      'a sentence longer than partMax is split at spaces',
      [p('Раз. Ааа ббб ввв ггг ддд еее жжж. Конец.')],
      { partMax: 12 },
      ['Раз.', 'Ааа ббб ввв', 'ггг ддд еее', 'жжж. Конец.'],
    ],
    [
      'a word longer than partMax is cut at word boundaries inside it',
      [p('Адрес: https://example.com/очень/длинный/путь конец.')],
      { firstPartMax: 8, partMax: 20 },
      ['Адрес:', 'https://example.com/', 'очень/длинный/путь', 'конец.'],
    ],
    [
      'a word without inner boundaries is cut at code points',
      [p(`Start ${'a'.repeat(25)} end.`)],
      { firstPartMax: 6, partMax: 10 },
      ['Start', 'aaaaaaaaaa', 'aaaaaaaaaa', 'aaaaa end.'],
    ],
    [
      'astral characters are never split',
      [p(`X ${'😀'.repeat(7)}`)],
      { firstPartMax: 1, partMax: 3 },
      ['X', '😀😀😀', '😀😀😀', '😀'],
    ],
    [
      'grapheme clusters stay whole where they fit',
      [p(`${'e\u0301'.repeat(5)}`)],
      { firstPartMax: 3, partMax: 3 },
      ['e\u0301', 'e\u0301', 'e\u0301', 'e\u0301', 'e\u0301'],
    ],
    [
      'partMax above hardMax is lowered to it',
      [p('Раз. Ааа ббб ввв ггг.')],
      { partMax: 100, hardMax: 8 },
      ['Раз.', 'Ааа ббб', 'ввв ггг.'],
    ],
  ])('%s', (_name, blocks, options, texts) => {
    expect(splitIntoParts(blocks, options).map((part) => part.text)).toEqual(texts);
  });

  it('keeps block indices of the input, empty blocks included', () => {
    const parts = splitIntoParts([p(''), t('Заголовок'), p(' '), p('Текст. Ещё.')], { firstPartMax: 5, partMax: 100 });
    expect(parts.flatMap((part) => part.sentences.map((s) => s.block))).toEqual([1, 1, 3, 3]);
  });

  it.each<[string, SplitOptions]>([
    ['zero partMax', { partMax: 0 }],
    ['fractional firstPartMax', { firstPartMax: 1.5 }],
    ['negative contextChars', { contextChars: -1 }],
    ['NaN hardMax', { hardMax: Number.NaN }],
  ])('refuses %s', (_name, options) => {
    expect(() => splitIntoParts([p('Текст.')], options)).toThrow(RangeError);
  });

  it('falls back to Russian rules for an invalid locale', () => {
    expect(splitIntoParts([p('Привет. Как дела?')], { locale: 'not a locale!' }).map((x) => x.text)).toEqual([
      'Привет.',
      'Как дела?',
    ]);
  });
});

describe('splitIntoParts: context', () => {
  const blocks = [t('Заголовок'), p('Один два три. Четыре пять шесть. Семь восемь девять.'), p('Десять одиннадцать.')];

  it.each<[number, string, string]>([
    [0, '', 'Один два три. Четыре пять'],
    [1, 'Заголовок.', 'Десять одиннадцать.'],
    [2, 'шесть. Семь восемь девять.', ''],
  ])('part %i has context %j before and %j after', (index, before, after) => {
    const parts = splitIntoParts(blocks, { partMax: 60, contextChars: 26 });
    expect(parts.map((x) => x.text)).toEqual([
      'Заголовок.',
      'Один два три. Четыре пять шесть. Семь восемь девять.',
      'Десять одиннадцать.',
    ]);
    expect(parts[index]!.previousText).toBe(before);
    expect(parts[index]!.nextText).toBe(after);
  });

  it.each<[number, string, string]>([
    [0, '', ''],
    [3, '', ''],
    [5, '', 'Один'],
    [10, 'Заголовок.', 'Один два'],
    [1000, 'Заголовок.', 'Один два три. Четыре пять шесть. Семь восемь девять.\nДесять одиннадцать.'],
  ])('contextChars %i keeps whole words only', (contextChars, before, after) => {
    const parts = splitIntoParts(blocks, { partMax: 60, contextChars });
    expect(parts[1]!.previousText).toBe(before);
    expect(parts[0]!.nextText).toBe(after);
  });

  it('gives the text around a cut inside a sentence', () => {
    const parts = splitIntoParts([p('Один два три четыре пять шесть семь восемь.')], { firstPartMax: 14, contextChars: 10 });
    expect(parts.map((x) => [x.previousText, x.text, x.nextText])).toEqual([
      ['', 'Один два три', 'четыре'],
      ['два три', 'четыре пять шесть семь восемь.', ''],
    ]);
  });
});

describe('splitIntoParts: nothing lost, nothing repeated', () => {
  const defaults = { firstPartMax: 200, partMax: 2_000, contextChars: 300 };

  it.each<[string, number, number, typeof defaults]>([
    ['a 15,000-character Russian article', 15_000, 1, defaults],
    ['the same article in small parts', 15_000, 1, { firstPartMax: 40, partMax: 150, contextChars: 50 }],
    ['another article, parts barely above the word length', 6_000, 7, { firstPartMax: 12, partMax: 30, contextChars: 20 }],
    ['a 100,000-character article', 100_000, 3, defaults],
  ])('%s', (_name, size, seed, options) => {
    const { blocks, whole, sentenceStarts } = article(size, seed);
    const parts = splitIntoParts(blocks, options);
    const offsets = checkCoverage(parts, whole);
    checkSentences(parts, offsets, sentenceStarts);
    checkLimits(parts, options);
    expect(parts.reduce((n, part) => n + part.chars, 0)).toBe(countChars(whole) - (parts.length - 1) + countGlued(parts, offsets));
  });

  it.each<[string, TextBlock[]]>([
    ['one 30,000-character sentence without punctuation', [p(Array.from({ length: 5_000 }, (_, i) => `слово${i % 10}`).join(' '))]],
    ['one 25,000-character word', [p(`Начало ${'ж'.repeat(25_000)} конец.`)]],
    ['astral text without spaces', [p('😀𝔸'.repeat(6_000))]],
    ['mixed lines', [t('Заголовок'), p('Строка без точки\nещё строка\n\nи ещё одна'), h('Итоги'), p('Всё.')]],
  ])('%s', (_name, blocks) => {
    const options = { firstPartMax: 200, partMax: 2_000, contextChars: 300 };
    const parts = splitIntoParts(blocks, options);
    const whole = parts.map((part) => part.text).join(' ');
    expect(whole.replace(/\s/g, '')).toBe(
      blocks
        .map((b) => b.text)
        .join('')
        .replace(/\s/g, '')
        .replace(/(Заголовок|Итоги)/g, '$1.'),
    );
    checkLimits(parts, options);
  });

  // Speed is measured by `npm run bench`, not asserted here.
  it('splits a 1,000,000-character text completely', () => {
    const { blocks, whole, sentenceStarts } = article(1_000_000, 42);
    const parts = splitIntoParts(blocks);
    const offsets = checkCoverage(parts, whole);
    checkSentences(parts, offsets, sentenceStarts);
    checkLimits(parts, defaults);
    expect(parts.length).toBeGreaterThan(500);
  });

  it('splits a 1,000,000-character single paragraph completely', () => {
    const { whole } = article(1_000_000, 5);
    const parts = splitIntoParts([p(whole.replace(/\n/g, ' '))]);
    checkCoverage(parts, whole.replace(/\n/g, ' '));
  });
});

describe('splitIntoParts: plain prose split without the segmenter', () => {
  // Dutch has Unicode's own sentence rules but is not among the locales split without the segmenter
  // (utils/text/sentences.ts): the same text split both ways must give the same parts.
  it.each<[string, TextBlock[]]>([
    ['a 100,000-character Russian article', article(100_000, 11).blocks],
    [
      'prose with abbreviations, numbers, quotes and dashes',
      [
        t('Глава 1. Начало'),
        p('Он родился в 1890 г. в Москве. Т. е. до войны; потом — «Прощай!» — сказал он. Цена 3.14 руб. за штуку?! Да... а может, нет.'),
        p('Made in the U.S.A. today. Mr. Smith said: "Stop!" (and left.) Then… nothing.'),
        h('Итоги'),
        p('Всё.   Конец  абзаца.'),
      ],
    ],
  ])('%s: the same parts as the segmenter makes', (_name, blocks) => {
    const options = { firstPartMax: 60, partMax: 300, contextChars: 40 };
    expect(splitIntoParts(blocks, { ...options, locale: 'ru' })).toEqual(splitIntoParts(blocks, { ...options, locale: 'nl' }));
  });
});

/** Parts that follow each other with no separator between them (a cut inside a word). */
function countGlued(parts: readonly Part[], offsets: readonly number[]): number {
  return parts.filter((part, i) => i > 0 && offsets[i] === offsets[i - 1]! + parts[i - 1]!.text.length).length;
}

describe('splitIntoParts: the rest of an article read title first (`continues`)', () => {
  const strip = (parts: readonly Part[]) => parts.map(({ text, chars, nextText }) => ({ text, chars, nextText }));

  it.each<[string, number, number]>([
    ['a 15,000-character article', 15_000, 1],
    ['a 6,000-character article', 6_000, 7],
    ['a 100,000-character article', 100_000, 3],
  ])('%s: the title alone, then the rest cut as when read whole', (_name, size, seed) => {
    const { blocks } = article(size, seed);
    const whole = splitIntoParts(blocks);
    const title = splitIntoParts(blocks.slice(0, 1));
    const rest = splitIntoParts(blocks.slice(1), { continues: true });
    expect(title.map((part) => part.text)).toEqual([whole[0]!.text]);
    expect(strip(rest)).toEqual(strip(whole.slice(1)));
    // The sentences' blocks are counted within the batch (the plan adds the title's block).
    expect(rest.flatMap((part) => part.sentences.map((s) => s.block + 1))).toEqual(whole.slice(1).flatMap((part) => part.sentences.map((s) => s.block)));
  });

  it('a first sentence longer than a first part is not cut short when it continues a reading', () => {
    const long = p(`${'Очень длинное предложение о городе и реке '.repeat(10).trim()}.`);
    expect(splitIntoParts([long])).toHaveLength(2);
    expect(splitIntoParts([long], { continues: true }).map((part) => part.text)).toEqual([long.text]);
  });
});
