import { parseHTML } from 'linkedom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { headlineElement, otherArticles, unmarkProseWidgets } from './container';

afterEach(() => vi.unstubAllGlobals());

/** A live page and Readability's copy of its `<body>` (the copy's text nodes paired with the live ones, as extract.ts pairs them). */
function pageAndCopy(body: string) {
  vi.stubGlobal('NodeFilter', { SHOW_ELEMENT: 1, SHOW_TEXT: 4 });
  const live = parseHTML(`<html><body>${body}</body></html>`).document as unknown as Document;
  const copy = live.body.cloneNode(true) as Element;
  const pairs = new Map<Text, Text>();
  const a = live.createTreeWalker(live.body, NodeFilter.SHOW_TEXT);
  const b = live.createTreeWalker(copy, NodeFilter.SHOW_TEXT);
  for (let x = a.nextNode(), y = b.nextNode(); x && y; x = a.nextNode(), y = b.nextNode()) pairs.set(y as Text, x as Text);
  return { live, copy, twin: (n: Text) => pairs.get(n) };
}

const STORY = '<p>' + 'The story itself, told in full by its author over several long paragraphs. '.repeat(4) + '</p>';
const TEASER = (n: number) => `<article><h2><a href="/other-${n}">Another story ${n}</a></h2><p>Its first lines, to tempt the reader.</p></article>`;

describe("otherArticles: the articles beside the headline's in Readability's container, left out", () => {
  // [name, the page's body, the headline's text, the texts of the articles left out]
  it.each<[string, string, string, string[]]>([
    ['a story and its related posts (mensagensreflexao.com.br)', `<div><article><h1>Só quem se Ama</h1>${STORY}</article><article><h3>Você pode gostar...</h3>${TEASER(1)}${TEASER(2)}</article></div>`, 'Só quem se Ama', ['Você pode gostar...']],
    ['a story and a feed of teasers, its headline an h2 (digg.com)', `<div><article><h2>Stadia reviews</h2>${STORY}</article><section>${TEASER(1)}${TEASER(2)}${TEASER(3)}</section></div>`, 'Stadia reviews', ['Another story 1', 'Another story 2', 'Another story 3']],
    ['one article: nothing', `<div><article><h1>Only one</h1>${STORY}</article><p>More.</p></div>`, 'Only one', []],
    ["the headline in no article (the page's own h1 above them): nothing", `<div><h1>Live: the summit</h1>${TEASER(1)}${TEASER(2)}</div>`, 'Live: the summit', []],
    ["the headline's article only its header (the body outside it): nothing", `<div><article><h1>Header only</h1><p>Short.</p></article>${TEASER(1)}<div>${STORY}</div></div>`, 'Header only', []],
    ['articles nested in the story are its own (embedded posts)', `<div><article><h1>With embeds</h1>${STORY}${TEASER(1)}${TEASER(2)}</article></div>`, 'With embeds', []],
  ])('%s', (_name, body, headline, leftOut) => {
    const { live, copy, twin } = pageAndCopy(body);
    const found = otherArticles(copy, headlineElement(live, headline, undefined), twin);
    expect(found.map((a) => a.querySelector('h1,h2,h3')?.textContent)).toEqual(leftOut);
  });

  it('no headline on the page: nothing', () => {
    const { copy, twin } = pageAndCopy(`<div><article>${STORY}</article>${TEASER(1)}</div>`);
    expect(otherArticles(copy, null, twin)).toEqual([]);
  });
});

describe('headlineElement: where the headline read is on the page', () => {
  it.each<[string, string, string, string | null]>([
    ['its h1', '<h1>Заголовок статьи</h1>', 'Заголовок статьи', 'H1'],
    ['an itemprop=headline h2, words compared loosely', '<h2 itemprop="headline"> The Early Reviews — Not Great </h2>', 'The early reviews: not great', 'H2'],
    ['none with its words', '<h2>Something else</h2>', 'Заголовок', null],
  ])('%s', (_name, body, text, tag) => {
    const { live } = pageAndCopy(body);
    expect(headlineElement(live, text, undefined)?.tagName ?? null).toBe(tag);
  });
});

describe('unmarkProseWidgets: a "widget" that holds prose is not counted against by Readability', () => {
  const para = '<p>The new laptop sports delicate lines on the lid, all the ports you could need, and a battery that lasts.</p>';
  it.each<[string, string, string]>([
    ['a product card with the author\'s paragraphs', `<div class="c-product-widget" id="widget-1">${para}${para}</div>`, 'c-product-card card-1'],
    ['a widget of one paragraph', `<div class="c-product-widget" id="widget-1">${para}</div>`, 'c-product-widget widget-1'],
    ['a widget of links and short lines', '<div class="share-widget"><p><a href="/a">Share</a></p><p>Tweet</p><p>Email</p></div>', 'share-widget '],
  ])('%s', (_name, body, classAndId) => {
    const { document } = parseHTML(`<html><body>${body}</body></html>`);
    unmarkProseWidgets(document as unknown as Document);
    const el = document.body.firstElementChild!;
    expect(`${el.getAttribute('class')} ${el.getAttribute('id') ?? ''}`).toBe(classAndId);
  });
});
