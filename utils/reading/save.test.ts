import { describe, expect, it } from 'vitest';
import { chapterRange } from './save';

/** Parts as a string: "C" a part a chapter begins with, "." any other. */
const parts = (s: string) => [...s].map((c) => (c === 'C' ? { chapter: true as const } : {}));

describe("chapterRange: the parts of the chapter being read (Save this chapter as MP3)", () => {
  it.each<[string, string, number, boolean, { from: number; upTo: number | null }]>([
    ['in the first of three chapters', 'C..C.C..', 1, false, { from: 0, upTo: 3 }],
    ['on a chapter\'s first part', 'C..C.C..', 3, false, { from: 3, upTo: 5 }],
    ['in the last chapter: to the end', 'C..C.C..', 7, false, { from: 5, upTo: 8 }],
    ['in the last chapter planned while the book is still counted: its end is not known', 'C..C.C..', 6, true, { from: 5, upTo: null }],
    ['a chapter whose next one is planned, the book still counted', 'C..C.C..', 4, true, { from: 3, upTo: 5 }],
    ['a reading begun inside a chapter (a paragraph clicked): from its first part', '...C..', 1, false, { from: 0, upTo: 3 }],
    ['a one-part chapter', 'CCC', 1, false, { from: 1, upTo: 2 }],
  ])('%s', (_name, s, part, growing, expected) => {
    expect(chapterRange(parts(s), part, growing)).toEqual(expected);
  });
});
