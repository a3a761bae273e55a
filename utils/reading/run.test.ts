import { describe, expect, it } from 'vitest';
import { parseRub } from '../money/money';
import type { ReadingPlan } from './plan';
import { ReadingRun } from './run';

describe('ReadingRun.adopt: the site the media controls and the floating player show', () => {
  const plan: ReadingPlan = { id: 'r1', parts: [], voice: 'v', format: 'mp3', priceRub: '1', maxConcurrency: 1 };
  it.each([
    ['a Unicode name as people write it, not as the browser keeps it', 'xn--c1aapkosapc.xn--p1ai', 'госуслуги.рф'],
    ['an ASCII host as it is', 'www.theguardian.com', 'www.theguardian.com'],
    ["a PDF's file name as it is", 'отчёт-2026.pdf', 'отчёт-2026.pdf'],
    ['none', undefined, ''],
  ])('%s', (_name, site, expected) => {
    const run = new ReadingRun('r1');
    run.adopt({ title: 'Статья', source: 'article', blocks: [], site }, { plan: { ...plan }, price: parseRub('1')! }, false);
    expect(run.site).toBe(expected);
  });
});
