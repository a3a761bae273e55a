import { parseHTML } from 'linkedom';
import { Readability } from '@mozilla/readability';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { denseProse } from './dense-prose';
import { extractFromPage } from './extract';

const P = (i: number) => `<p>Paragraph ${i} of the guide to choosing a mattress, with enough words, commas, and sense in it to count as prose.</p>`;
const post = (n: number, cls = 'post-body') => `<div class="${cls}">${Array.from({ length: n }, (_, i) => P(i)).join('')}</div>`;
const HERO = '<div class="hero"><p>Get 30% off your first order today, with free delivery.</p></div>';

const proseOn = (body: string, extracted: number) => {
  const { document } = parseHTML(`<html><body>${body}</body></html>`);
  return denseProse(document as unknown as Document, extracted)?.getAttribute('class') ?? null;
};

describe("the page's densest prose, when Readability's pick is too small to be the article", () => {
  it.each([
    ['a post of 20 paragraphs beside a 56-character pick', `${HERO}${post(20)}`, 56, 'post-body'],
    // Readability found an article: nothing is looked for.
    ['a pick of 600 characters', `${HERO}${post(20)}`, 600, null],
    // Not four times what was picked, or under 1,500 characters: the pick stands.
    ['prose of 5 paragraphs', `${HERO}${post(5)}`, 56, null],
    // Readers' comments are never the article.
    ['the most prose in the comments', `${HERO}${post(20, 'comments')}`, 56, null],
    ['the most prose in the comments, the post second', `${HERO}${post(30, 'comment-list')}${post(20)}`, 56, 'post-body'],
  ])('%s', (_name, body, extracted, want) => expect(proseOn(body, extracted)).toBe(want));
});

describe("a page whose Readability pick is the site's header", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('reads the post, not the call to action', () => {
    vi.stubGlobal('NodeFilter', { SHOW_ELEMENT: 1, SHOW_TEXT: 4 });
    const { document, Node } = parseHTML(`<html><head><title>Choosing a mattress</title></head><body><h1>Choosing a mattress</h1>${HERO}${post(20)}</body></html>`);
    vi.stubGlobal('Node', Node);
    // As Readability does on such a page: its pick is the hero block.
    vi.spyOn(Readability.prototype, 'parse').mockImplementation(function (this: unknown) {
      const doc = (this as { _doc: Document })._doc;
      return { title: 'Choosing a mattress', content: doc.querySelector('.hero') as unknown as string } as ReturnType<Readability['parse']>;
    });
    const { text } = extractFromPage(document as unknown as Document, { articleOnly: true });
    const body = text.blocks.filter((b) => b.kind === 'paragraph').map((b) => b.text);
    expect(body).toHaveLength(20);
    expect(body[0]).toMatch(/^Paragraph 0 /);
    expect(body.join(' ')).not.toContain('30% off');
  });
});
