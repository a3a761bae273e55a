import { describe, expect, it } from 'vitest';
import { fetchArticle } from './article-fetch';

const article = { title: 'T', source: 'article' as const, blocks: [{ text: 'Текст статьи.', kind: 'paragraph' as const }] };

describe('a queued page, fetched', () => {
  it.each([
    ['an HTML page', () => new Response('<p>x</p>', { headers: { 'Content-Type': 'text/html; charset=utf-8' } }), null],
    ['a 404', () => new Response('gone', { status: 404, headers: { 'Content-Type': 'text/html' } }), 'network'],
    ['a 403 (signed out)', () => new Response('no', { status: 403, headers: { 'Content-Type': 'text/html' } }), 'page-refused'],
    ['a PDF', () => new Response('%PDF', { headers: { 'Content-Type': 'application/pdf' } }), 'not-a-page'],
    ['an image', () => new Response('x', { headers: { 'Content-Type': 'image/png' } }), 'not-a-page'],
    ['no connection', () => Promise.reject(new TypeError('Failed to fetch')), 'network'],
  ])('%s', async (_n, answer, code) => {
    const run = fetchArticle('https://example.ru/a', { fetch: async () => answer(), parse: async () => article, choices: async () => ({}), mayReach: async () => true });
    if (code === null) await expect(run).resolves.toEqual(article);
    else await expect(run).rejects.toMatchObject({ code });
  });

  it('a page with nothing to read', async () => {
    const empty = { ...article, blocks: [{ text: '  ', kind: 'paragraph' as const }] };
    const run = fetchArticle('https://example.ru/a', { fetch: async () => new Response('<p></p>', { headers: { 'Content-Type': 'text/html' } }), parse: async () => empty, choices: async () => ({}), mayReach: async () => true });
    await expect(run).rejects.toMatchObject({ code: 'no-text' });
  });

  it('is read against the address it ended at (after redirects), with the clean-up choices', async () => {
    let seen: unknown[] = [];
    const redirected = new Response('<p>x</p>', { headers: { 'Content-Type': 'text/html' } });
    Object.defineProperty(redirected, 'url', { value: 'https://example.ru/final' });
    await fetchArticle('https://example.ru/a', {
      fetch: async () => redirected,
      parse: async (...args) => ((seen = args), article),
      choices: async () => ({ readCode: true }),
      mayReach: async () => true,
    });
    expect(seen.slice(1)).toEqual(['https://example.ru/final', { readCode: true }]);
  });
});
