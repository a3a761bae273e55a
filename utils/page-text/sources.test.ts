import { describe, expect, it } from 'vitest';
import { readingOf, type TextSource } from './sources';

describe('readingOf: what a reading started from each source is told', () => {
  it.each<[string, TextSource, number | null, string]>([
    ['the toolbar, a shortcut, the popup: the page’s selection or article', { kind: 'tab', tabId: 3 }, 3, ''],
    ['“Read from here”: the article', { kind: 'tab', tabId: 3, mode: 'from-here' }, 3, 'article'],
    ['the menu on a selection', { kind: 'menu-selection', tabId: 4, text: 'Выделенный текст' }, 4, 'selection'],
    ['the welcome page’s sample', { kind: 'sample', tabId: 5 }, 5, ''],
    ['a queued page: no tab', { kind: 'queued', url: 'https://example.com/a' }, null, 'article'],
  ])('%s', (_name, source, tabId, label) => {
    const req = readingOf(source);
    expect(req.tabId).toBe(tabId);
    expect(req.source).toBe(label);
    expect(typeof req.extract).toBe('function');
  });
});
