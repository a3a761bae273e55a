import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type AccountInfo } from '../storage/settings';
import { markOfWord, placeOfBlock, planParts, planReading, ReadingError, timeAtOffset } from './plan';
import { wordsOf } from '../audio/word-measure';
import { splitIntoParts } from '../text/parts';

const account: AccountInfo = { name: '', provider: '', balanceRub: '100.0000', pricePerMillionRub: '1500.0000', maxConcurrency: 2, checkedAt: 0 };
const p = (text: string) => ({ kind: 'paragraph' as const, text });

describe('planParts: no letter, no request', () => {
  it.each([
    ['orphaned CJK punctuation after the words were left out', [p('中文句子。、。（、）'), p('Русский текст.')], 'Русский текст.'],
    ['a run of separators', [p('* * *'), p('Текст.')], 'Текст.'],
    ['box drawing and dots', [p('━━━ ....'), p('Text.')], 'Text.'],
  ])('%s', (_name, blocks, sent) => {
    const planned = planParts(blocks);
    expect(planned.parts.map((x) => x.text).join(' ')).toBe(sent);
    expect(planned.silentChars + planned.skippedWords).toBeGreaterThan(0);
  });

  it('digits alone still say something', () => {
    expect(planParts([p('1945')]).parts.map((x) => x.text)).toEqual(['1945']);
  });

  it.each([
    ['a Chinese paragraph with a few Latin words goes whole', [p('DeepMind新电脑已可利用记忆自学，DNC（可微分神经计算机）AI。'), p('Русский текст.')], 'Русский текст.'],
    ['a Russian paragraph with a Chinese quote stays', [p('Он сказал «你好», что значит привет.')], 'Он сказал, что значит привет.'],
    ['on a Japanese page, counters and dates go too', [p('むかしむかし、あるところに'), p('1 1'), p('366'), p('Mr. 1949 桃太郎の話')], ''],
    ['on a Russian page, a date alone stays', [p('Русский текст.'), p('1945')], 'Русский текст. 1945'],
  ])('%s', (_name, blocks, sent) => {
    expect(planParts(blocks).parts.map((x) => x.text).join(' ')).toBe(sent);
  });

  it('every sentence keeps the index of its block as extracted, even after empty blocks', () => {
    const planned = planParts([p('Первый.'), p('日本語'), p('Третий.')]);
    expect(planned.parts.flatMap((x) => x.sentences.map((s) => s.block))).toEqual([0, 2]);
  });

  it('a page with nothing to say is no-text, before any request', () => {
    expect(() => planReading('r', { blocks: [p('、。 、。（、）'), p('━━━')] }, DEFAULT_SETTINGS, account)).toThrow(ReadingError);
  });

  it('what was left out is shown with what it would have cost', () => {
    const planned = planReading('r', { blocks: [p('Текст.'), p('* * *')], leftOutChars: 995 }, DEFAULT_SETTINGS, account);
    expect(planned.view.savedChars).toBe(1000);
    expect(planned.view.savedRub).toBe('1.5000');
  });
});

describe('markOfWord: the word the player tells, as the page marks it', () => {
  const blocks = [
    { kind: 'paragraph' as const, text: 'Первое предложение. Второе, короткое.' },
    { kind: 'paragraph' as const, text: 'Новый абзац.' },
  ];
  // The first part is kept short: the first sentence; the second holds the rest, across the blocks.
  const parts = planParts(blocks).parts;
  it.each([
    [0, 0, 0, 'Первое предложение.', 'Первое'],
    [0, 1, 0, 'Первое предложение.', 'предложение'],
    [1, 0, 0, 'Второе, короткое.', 'Второе'],
    [1, 1, 0, 'Второе, короткое.', 'короткое'],
    [1, 2, 1, 'Новый абзац.', 'Новый'],
    [1, 3, 1, 'Новый абзац.', 'абзац'],
  ])('part %i word %i: block %i, «%s», «%s»', (k, index, block, sentence, word) => {
    const part = parts[k]!;
    const { mark, sentence: at } = markOfWord(part, wordsOf(part.text), index)!;
    expect(at).toBe(part.sentences.findIndex((s) => part.text.slice(s.start, s.end) === mark.text));
    expect(mark.block).toBe(block);
    expect(mark.text.trim()).toBe(sentence);
    expect(mark.text.slice(mark.word!.start, mark.word!.end)).toBe(word);
  });
  it('a word past the part: none', () => expect(markOfWord(parts[0]!, wordsOf(parts[0]!.text), 99)).toBeNull());
});

describe('placeOfBlock: where a clicked paragraph begins among the parts already cut', () => {
  const blocks = [
    { kind: 'paragraph' as const, text: 'Первое предложение. Второе, короткое.' },
    { kind: 'paragraph' as const, text: 'Новый абзац.' },
    { kind: 'paragraph' as const, text: 'Третий абзац, последний.' },
  ];
  // The first part: the first sentence; the second: the rest, across the blocks.
  const parts = planParts(blocks).parts;
  it.each([
    [0, 0, 'Первое предложение.'],
    [1, 1, 'Новый абзац.'],
    [2, 1, 'Третий абзац, последний.'],
  ])('block %i: part %i, from «%s»', (block, part, from) => {
    const at = placeOfBlock(parts, block)!;
    expect(at.part).toBe(part);
    expect(parts[part]!.text.slice(at.offset).trim().startsWith(from)).toBe(true);
  });
  it('a block no part holds (not counted yet): none', () => expect(placeOfBlock(parts, 3)).toBeNull());
  it('a block whose text was all silent (no part holds it): none', () => expect(placeOfBlock(planParts([{ kind: 'paragraph' as const, text: 'Да.' }, { kind: 'paragraph' as const, text: '—' }]).parts, 1)).toBeNull());
});

describe('timeAtOffset: the second a place in a part is said, by its share of the characters', () => {
  const text = 'Раз два три четыре. Пять шесть семь восемь.';
  const part = { index: 0, text, previousText: '', nextText: '', chars: text.length, sentences: [] };
  it.each([
    [0, 10, 0],
    [part.text.length / 2, 10, 5],
    [part.text.length, 10, 10],
    [part.text.length * 2, 10, 10],
    [5, 0, 0],
  ])('offset %d of a %d-s part: %d s', (offset, seconds, want) => expect(timeAtOffset(part, offset, seconds)).toBeCloseTo(want, 6));
});

describe("planParts: a book's chapters begin parts of their own", () => {
  const ch = (text: string) => ({ kind: 'heading' as const, text, chapter: true as const });
  const long = (n: number) => Array.from({ length: n }, (_, i) => `Предложение ${i + 1} о том, как шла глава дальше.`).join(' ');

  it('a chapter begun mid-text starts a part, flagged; the parts are numbered in order and each sentence keeps its block', () => {
    const blocks = [ch('Глава 1'), p(long(3)), ch('Глава 2'), p(long(3)), p('Конец.')];
    const { parts } = planParts(blocks);
    expect(parts.map((x) => x.index)).toEqual(parts.map((_, i) => i));
    const starts = parts.filter((x) => x.chapter).map((x) => x.text.split('.')[0]);
    expect(starts).toEqual(['Глава 1', 'Глава 2']);
    // No part holds both chapters.
    for (const part of parts) expect(part.text.includes('Глава 1') && part.text.includes('Глава 2')).toBe(false);
    const second = parts.findIndex((x) => x.text.startsWith('Глава 2'));
    expect(parts[second]!.sentences[0]!.block).toBe(2);
    expect(parts[second]!.previousText.length).toBeGreaterThan(0);
    expect(parts.at(-1)!.sentences.at(-1)!.block).toBe(4);
  });

  it('the same text with no chapters is cut as before (nothing flagged)', () => {
    const blocks = [p('Глава 1'), p(long(3)), p('Глава 2'), p(long(3))];
    const plain = planParts(blocks).parts;
    expect(plain.some((x) => x.chapter)).toBe(false);
    expect(plain.map((x) => x.text)).toEqual(splitIntoParts(blocks).map((x) => x.text));
  });

  it("a book's reading says so in its figures (the popup offers the chapter's end)", () => {
    expect(planReading('r', { blocks: [ch('Глава 1'), p('Текст.')], chapters: true }, DEFAULT_SETTINGS, account).view.chapters).toBe(true);
    expect(planReading('r', { blocks: [p('Текст.')] }, DEFAULT_SETTINGS, account).view.chapters).toBe(false);
  });
});
