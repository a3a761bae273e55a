import { describe, expect, it } from 'vitest';
import { readUrls } from './urls';

describe('readUrls', () => {
  it.each([
    ['a URL becomes its domain', 'См. https://www.example.com/a/b?c=1 для деталей.', 'domain', 'См. example.com для деталей.'],
    ['closing punctuation stays out of it', 'Source: https://lwn.net/Articles/123/.', 'domain', 'Source: lwn.net.'],
    ['www. without a scheme', 'Visit www.kernel.org/doc today', 'domain', 'Visit kernel.org today'],
    ['left out', 'Ссылка: https://example.com/x, и всё.', 'out', 'Ссылка: , и всё.'],
    ['read as written', 'https://example.com/x', 'read', 'https://example.com/x'],
    ['a domain in prose is not a URL', 'Сайт example.com работает.', 'domain', 'Сайт example.com работает.'],
  ] as const)('%s', (_name, text, how, expected) => {
    expect(readUrls(text, how)).toBe(expected);
  });
});
