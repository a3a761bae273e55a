import { describe, expect, it } from 'vitest';
import { continuesOnNextPage, findGutter, isPageNumber, joinLines, linesOf, pageBlocks, type PdfPageRuns, type PdfRun, runningLines } from './layout';

let span = 0;
const run = (str: string, x: number, y: number, size = 12): PdfRun => ({ str, x, y, w: str.length * size * 0.5, size, span: span++ });

/** An A4 page (595 × 842) with lines of text: [text, x, y, size?]. */
function page(n: number, lines: Array<[string, number, number, number?]>): PdfPageRuns {
  span = 0;
  return { page: n, width: 595, height: 842, runs: lines.map(([s, x, y, size]) => run(s, x, y, size)) };
}

describe('joinLines', () => {
  it.each([
    ['рас-', 'познавание речи', 'распознавание речи'],
    ['hyphen-', 'ation', 'hyphenation'],
    ['северо-', 'Запад', 'северо-Запад'], // a capital: a compound's hyphen, kept
    ['Trace-', 'Monkey', 'Trace-Monkey'],
    ['конец строки', 'начало', 'конец строки начало'],
    ['2019-', '2020', '2019- 2020'], // not a letter before the hyphen
    ['soft\u00AD', 'ware', 'software'],
  ])('%j + %j → %j', (a, b, joined) => {
    expect(joinLines(a, b)).toBe(joined);
  });
});

describe('isPageNumber', () => {
  it.each([
    ['7', true],
    ['- 7 -', true],
    ['Page 7 of 30', true],
    ['Стр. 12', true],
    ['Страница 3 из 10', true],
    ['7 / 30', true],
    ['Глава 7', false],
    ['В 1999 году', false],
  ])('%j → %s', (text, yes) => {
    expect(isPageNumber(text)).toBe(yes);
  });
});

describe('linesOf', () => {
  it.each([
    ['na¨ıve', 'naïve'],
    ['Schr¨odinger', 'Schrödinger'],
    ['caf´e', 'café'],
    ['¨ alone', '¨ alone'],
  ])('TeX accents: %j → %j', (text, want) => {
    span = 0;
    expect(linesOf([run(text, 50, 100)])[0]!.text).toBe(want);
  });

  it('joins runs on one baseline (in any drawing order), spaces where there is a gap, and splits at a gutter', () => {
    span = 0;
    const lines = linesOf([run('мир', 100, 100), run('Привет,', 50, 100.5), run('Правая колонка', 330, 100), run('вторая строка', 50, 115)]);
    expect(lines.map((l) => l.text)).toEqual(['Привет, мир', 'Правая колонка', 'вторая строка']);
    expect(lines[0]!.spans).toEqual([1, 0]);
  });
});

describe('reading order', () => {
  const left = Array.from({ length: 6 }, (_, i): [string, number, number] => [`левая ${i}`, 60, 120 + i * 15]);
  const right = Array.from({ length: 6 }, (_, i): [string, number, number] => [`правая ${i}`, 320, 120 + i * 15]);

  it('finds the gutter of two columns, and none on a one-column page', () => {
    const two = linesOf(page(1, [...left, ...right]).runs);
    const gutter = findGutter(two, 595);
    expect(gutter).toBeGreaterThan(120);
    expect(gutter).toBeLessThan(320);
    const one = linesOf(page(1, Array.from({ length: 8 }, (_, i): [string, number, number] => [`строка номер ${i} во всю ширину страницы без колонок вообще`, 60, 120 + i * 15])).runs);
    expect(findGutter(one, 595)).toBeNull();
  });

  it('reads the left column, then the right; a title across both comes first', () => {
    const p = page(1, [['Заголовок статьи во всю ширину страницы', 60, 90, 18], ...right, ...left]);
    const text = pageBlocks(p, new Set()).blocks.map((b) => b.text);
    expect(text[0]).toBe('Заголовок статьи во всю ширину страницы');
    const body = text.slice(1).join(' ');
    expect(body.indexOf('левая 5')).toBeLessThan(body.indexOf('правая 0'));
  });
});

describe('running heads and page numbers', () => {
  const pageWith = (n: number, head: string) =>
    page(n, [
      [head, 200, 40, 9],
      [`Глава ${n}`, 60, 80, 18],
      [`Текст страницы ${n} начинается здесь и идёт дальше.`, 60, 120],
      [`${n}`, 290, 810, 9],
    ]);

  it('a line repeated in the margins of most pages is left out; a larger heading at the top is not', () => {
    const pages = [1, 2, 3, 4].map((n) => pageWith(n, 'Журнал испытаний · выпуск 7'));
    const running = runningLines(pages.map((p) => ({ page: p, lines: linesOf(p.runs) })));
    const { blocks, leftOutChars } = pageBlocks(pages[1]!, running);
    expect(blocks.map((b) => b.text)).toEqual(['Глава 2', 'Текст страницы 2 начинается здесь и идёт дальше.']);
    expect(blocks[0]!.kind).toBe('heading');
    expect(leftOutChars).toBe('Журнал испытаний · выпуск 7'.length + 1);
  });

  it('a page number alone is left out even in a one-page document; a margin line seen once is read', () => {
    const p = pageWith(1, 'Единственный колонтитул');
    const { blocks } = pageBlocks(p, runningLines([{ page: p, lines: linesOf(p.runs) }]));
    expect(blocks.map((b) => b.text)).toEqual(['Единственный колонтитул', 'Глава 1', 'Текст страницы 1 начинается здесь и идёт дальше.']);
  });
});

describe('paragraphs', () => {
  it('lines close together are one paragraph (hyphenated words joined); a gap or an indent starts the next', () => {
    const p = page(1, [
      ['Первый абзац начинается и распо-', 60, 100],
      ['знавание работает на второй строке.', 60, 114],
      ['Второй абзац после пустой строки.', 60, 150],
      ['Третий абзац с красной строки идёт', 80, 164],
      ['дальше без отступа.', 60, 178],
    ]);
    expect(pageBlocks(p, new Set()).blocks.map((b) => b.text)).toEqual([
      'Первый абзац начинается и распознавание работает на второй строке.',
      'Второй абзац после пустой строки.',
      'Третий абзац с красной строки идёт дальше без отступа.',
    ]);
  });

  it('a paragraph continues on the next page when it stops mid-sentence and the next starts in lower case', () => {
    const a = { text: 'Предложение обрывается на', kind: 'paragraph' as const, page: 1, slices: [] };
    expect(continuesOnNextPage(a, { ...a, text: 'следующей странице.', page: 2 })).toBe(true);
    expect(continuesOnNextPage({ ...a, text: 'Законченная мысль.' }, { ...a, text: 'следующей странице.', page: 2 })).toBe(false);
    expect(continuesOnNextPage(a, { ...a, text: 'Новый абзац.', page: 2 })).toBe(false);
  });
});

describe('superscripts', () => {
  it('a footnote mark raised above its line is not read and does not break the paragraph; a raised word joins its line', () => {
    const p = page(1, [
      ['The quick brown fox jumps over the lazy', 60, 100],
      ['12', 296, 95, 8],
      ['dog and runs into the forest where it', 306, 100],
      ['sleeps until the morning comes again.', 60, 114],
      ['Water is H', 60, 150],
      ['2', 120, 153, 8],
      ['O in any weather.', 128, 150],
    ]);
    expect(pageBlocks(p, new Set()).blocks.map((b) => b.text)).toEqual([
      'The quick brown fox jumps over the lazy dog and runs into the forest where it sleeps until the morning comes again.',
      'Water is H2 O in any weather.',
    ]);
  });
});

describe('running heads on left and right pages', () => {
  it('a head set only on even pages is found for an even page', () => {
    const pages = [1, 2, 3, 4, 5, 6, 7].map((n) =>
      page(n, [
        [n % 2 ? 'Глава третья. Дорога' : 'Книга испытаний', 200, 40, 9],
        [`Текст страницы ${n} начинается здесь и идёт дальше.`, 60, 120],
      ]),
    );
    const withLines = pages.map((p) => ({ page: p, lines: linesOf(p.runs) }));
    expect(runningLines(withLines, 4)).toEqual(new Set(['книга испытаний', 'глава третья. дорога']));
    // Without knowing the side, the even pages' head (3 of 7) is not enough.
    expect(runningLines(withLines)).toEqual(new Set(['глава третья. дорога']));
  });
});
