import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { planParts } from '../reading/plan';
import { mostCharsFrom } from './most-chars';
import { sectionBlocks } from './section-blocks';

describe('mostCharsFrom: the most a book can bill from a section on, from its sections’ sizes', () => {
  it.each([
    ['from the first section, every section counts', [{ size: 100 }, { size: 50 }], 0, 300],
    ['from a later section, those before it do not', [{ size: 100 }, { size: 50 }], 1, 100],
    ['a section out of the reading order is passed over, as the reader passes it', [{ size: 100 }, { size: 40, linear: 'no' }, { size: 10 }], 0, 220],
    ['past the last section: nothing', [{ size: 100 }], 1, 0],
    ['a size the book does not know (not a number): it cannot tell', [{ size: 100 }, { size: Number.NaN }], 0, undefined],
    ['a negative size: it cannot tell', [{ size: -1 }], 0, undefined],
  ])('%s', (_name, sections, from, expected) => {
    expect(mostCharsFrom(sections, from)).toBe(expected);
  });
});

/** A small random generator with a seed, so a failure can be run again. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

describe('the bound holds for what is billed: sections of text that bills the most a byte', () => {
  // Pieces that bill much for their bytes: folding letters (ß → ss, ﬃ → ffi, ї → йи, џ → дж), one-letter
  // sentences with no space after their end, headings (a full stop put after them), entities, short lines.
  const pieces = ['ß', 'ﬃ', 'ї', 'џ', 'a', 'Б', '.', 'A.B.', ' ', '&amp;', '&#xDF;', '1', '…', '!', '?', 'Ё'];
  const element = ['p', 'h1', 'h2', 'li', 'blockquote', 'div'];

  it('in 300 random sections, the parts planned from their blocks never bill more than the bound of their markup', () => {
    const next = random(20261203);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
    for (let n = 0; n < 300; n++) {
      const body = Array.from({ length: 1 + Math.floor(next() * 12) }, () => {
        const tag = pick(element);
        const text = Array.from({ length: 1 + Math.floor(next() * 20) }, () => pick(pieces)).join('');
        return `<${tag}>${text}</${tag}>`;
      }).join(next() < 0.5 ? '' : '<br/>');
      const markup = `<html><body>${body}</body></html>`;
      const doc = parseHTML(markup).document as unknown as Document;
      const billed = planParts(sectionBlocks(doc).blocks).parts.reduce((sum, p) => sum + p.chars, 0);
      expect(billed, markup).toBeLessThanOrEqual(mostCharsFrom([{ size: new TextEncoder().encode(markup).length }], 0)!);
    }
  });
});
