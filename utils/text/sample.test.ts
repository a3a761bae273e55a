import { describe, expect, it } from 'vitest';
import { costOf, formatRubPlain } from '../money/money';
import { sampleChars, sampleFor, SAMPLES, sampleText } from './sample';

describe('the sample "Try it" reads', () => {
  it.each([
    ['ru-RU', SAMPLES.ru],
    ['ru', SAMPLES.ru],
    ['en-US', SAMPLES.en],
    ['de-DE', SAMPLES.en],
  ])('%s gets its language', (locale, want) => expect(sampleFor(locale)).toBe(want));

  it.each([
    [SAMPLES.en, 1_500_0000n],
    [SAMPLES.ru, 1_500_0000n],
  ])('its cost is its characters at the price, exact', (sample, price) => {
    const chars = sampleChars(sample);
    expect(chars).toBe([sample.title, ...sample.paragraphs].join('').length);
    // 1500 ₽ per million characters: 15 ten-thousandths of a ruble a character.
    expect(formatRubPlain(costOf(sampleChars(sample), price))).toBe(formatRubPlain(BigInt(chars) * 15n));
  });

  it('is read as its title, then its paragraphs', () => {
    const text = sampleText(SAMPLES.ru, 'moz-extension://x/sample.html');
    expect(text.blocks.map((b) => b.kind)).toEqual(['title', 'paragraph', 'paragraph']);
    expect(text.blocks[0]!.text).toBe(SAMPLES.ru.title);
  });
});
