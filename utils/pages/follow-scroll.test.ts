import { describe, expect, it } from 'vitest';
import { isInView, scrollTopToShow, type Span } from './follow-scroll';

const box: Span = { top: 100, bottom: 280 };

describe('isInView', () => {
  it.each([
    ['inside', { top: 120, bottom: 140 }, true],
    ['cut at the top', { top: 90, bottom: 110 }, true],
    ['cut at the bottom', { top: 270, bottom: 290 }, true],
    ['just above', { top: 80, bottom: 100 }, false],
    ['just below', { top: 280, bottom: 300 }, false],
    ['far below', { top: 9000, bottom: 9020 }, false],
  ])('%s', (_, item, shown) => expect(isInView(box, item)).toBe(shown));
});

describe('scrollTopToShow', () => {
  it.each([
    ['already shown whole', { top: 120, bottom: 140 }, 500, null],
    ['above: its top goes to the top', { top: 60, bottom: 80 }, 500, 460],
    ['cut at the top', { top: 90, bottom: 110 }, 500, 490],
    ['below: its bottom goes to the bottom', { top: 300, bottom: 320 }, 500, 540],
    ['cut at the bottom', { top: 270, bottom: 290 }, 500, 510],
    ['taller than the box: its top goes to the top', { top: 300, bottom: 600 }, 0, 200],
  ])('%s', (_, item, scrollTop, expected) => expect(scrollTopToShow(box, item, scrollTop)).toBe(expected));
});
