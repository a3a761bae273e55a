import { parseHTML } from 'linkedom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { h1Place, headlineOf, isHomeLink } from './headline';
import { pageFacts } from './page-facts';

afterEach(() => vi.unstubAllGlobals());

function page(head: string, body: string): Document {
  vi.stubGlobal('NodeFilter', { SHOW_ELEMENT: 1, SHOW_TEXT: 4 });
  const { document, Node } = parseHTML(`<html><head>${head}</head><body>${body}</body></html>`);
  vi.stubGlobal('Node', Node);
  return document as unknown as Document;
}

const LUKASHENKO = 'Лукашенко тайно вступил в должность — «Вести Приозерья», городской портал';
const OG = '<meta property="og:site_name" content="Вести Приозерья">';
const H1 = 'Лукашенко тайно вступил в должность президента';
const LOGO = '<header><h1><a href="/">Вести Приозерья</a></h1></header>';
const TEXT = '<p>Текст статьи.</p>';

describe("headlineOf: the headline a listener expects, the page's or its title without the site", () => {
  // [name, the page's title (as Readability found it), <head>, <body>, the headline read, the index of its h1 (−1: only the title; "h2": the h2 showing it)]
  it.each<[string, string, string, string, string, number | 'h2']>([
    ['an h1 other than the title, in the article', LUKASHENKO, OG, `${LOGO}<article><h1>${H1}</h1>${TEXT}</article>`, H1, 1],
    ['the same, no og:site_name', LUKASHENKO, '', `<article><h1>${H1}</h1>${TEXT}</article>`, H1, 0],
    ['no h1: the title without its site', LUKASHENKO, OG, `<article>${TEXT}</article>`, 'Лукашенко тайно вступил в должность', -1],
    ["only the site's logo (a link home) in an h1: never the headline", LUKASHENKO, '', `${LOGO}<article>${TEXT}</article>`, 'Лукашенко тайно вступил в должность', -1],
    ["an h1 that is the og:site_name, no link", LUKASHENKO, OG, `<div><h1>Вести Приозерья</h1></div>${TEXT}`, 'Лукашенко тайно вступил в должность', -1],
    ['an h1 of one word (a section)', LUKASHENKO, '', `<h1>Политика</h1>${TEXT}`, 'Лукашенко тайно вступил в должность', -1],
    ["the article's h1, sharing no word with the title", LUKASHENKO, OG, `${LOGO}<article><h1>Инаугурация прошла без гостей и без объявления</h1>${TEXT}</article>`, 'Инаугурация прошла без гостей и без объявления', 1],
    ["an h1 outside the article sharing no word with the title (a section's name)", 'Babies Who Eat Peanuts Early May Avoid Allergy', '', `<div><h1>Allergies Health Center</h1></div>${TEXT}`, 'Babies Who Eat Peanuts Early May Avoid Allergy', -1],
    ["the page's banner's h1 only when no other", LUKASHENKO, '', `<nav><h1>Лукашенко: все новости о президенте</h1></nav><div><h1>${H1}</h1></div>`, H1, 1],
    ["the page's banner's h1 when there is no other", LUKASHENKO, '', `<header><h1>${H1}</h1></header>${TEXT}`, H1, 0],
    ["an article's own header is not the page's banner", LUKASHENKO, '', `<div><h1>Лукашенко и оппозиция: хроника</h1></div><article><header><h1>${H1}</h1></header>${TEXT}</article>`, H1, 1],
    ["any h1 when the title is only the site's name", 'Вести Приозерья', OG, `${LOGO}<main><h1>Мост через реку откроют весной</h1>${TEXT}</main>`, 'Мост через реку откроют весной', 1],
    ["a logo the title holds is not the title's h1", 'Outside the web: standalone WebAssembly binaries using Emscripten · V8', '', '<header><h1><a href="/">V8</a></h1></header><article><h1>Outside the web: standalone WebAssembly binaries using Emscripten</h1></article>', 'Outside the web: standalone WebAssembly binaries using Emscripten', 1],
    ["a logo the title holds, with no other h1", 'Статья о реке и мосте — Газета', '', '<header><h1>Газета</h1></header><div><p>Текст.</p></div>', 'Статья о реке и мосте', -1],
    ['an h1 linking to the article itself is not a logo', LUKASHENKO, '', `<h1><a href="/news/2024/lukashenko.html">${H1}</a></h1>${TEXT}`, H1, 0],
    ["a link to a locale's home is a logo", "Nintendo's first iPhone game will launch in December for $10", '', '<header role="banner"><h1><a href="/en-us">msn back to msn home news</a></h1></header><header><h1>Nintendo’s first iPhone game will launch in December for $10</h1></header>', 'Nintendo’s first iPhone game will launch in December for $10', 1],
    ["a heading's permalink is no part of it", 'Evolve: Shared Mutable History — evolve extension for Mercurial', '', '<div><h1><a href="index.html">evolve extension for Mercurial</a></h1></div><div><h1>Evolve: Shared Mutable History<a class="headerlink" href="#id4">¶</a></h1></div>', 'Evolve: Shared Mutable History', 1],
    [
      "the h1 that is the page's <title> when Readability's title (its metadata) differs; a caption set as an h1 is no headline",
      'Yahoo News - Latest News & Headlines',
      '<title>Russia: Space ship malfunctions, breaks up over Siberia</title>',
      `<header><h1>Russia: Space ship malfunctions, breaks up over Siberia</h1></header><article><h1>${'In this photo dated Tuesday the rocket booster is installed on a launch pad. '.repeat(3)}</h1></article>`,
      'Russia: Space ship malfunctions, breaks up over Siberia',
      0,
    ],
    ['an h1 too long to be a headline', LUKASHENKO, '', `<article><h1>${'Очень длинная подпись к фотографии на странице. '.repeat(5)}</h1>${TEXT}</article>`, 'Лукашенко тайно вступил в должность', -1],
    // As before: the h1 that is the title, or holds it, or is held by it.
    ['the h1 the title holds with its site', 'Статья о реке и мосте — Газета', '', '<article><h1>Статья о реке и мосте</h1></article>', 'Статья о реке и мосте', 0],
    ['the h1 that is the title, in the banner', 'These are the 8 coolest PlayStation VR games', '', '<header><h1>These are the 8 coolest PlayStation VR games</h1></header>', 'These are the 8 coolest PlayStation VR games', 0],
    ['no h1, a title with a colon and a site', 'Brexit: What happens next? - BBC News', '', TEXT, 'Brexit: What happens next?', -1],
    ['no h1, a title with no separator', 'Заметка о погоде на завтра', '', TEXT, 'Заметка о погоде на завтра', -1],
    // The story's headline an h2, the page's one h1 a teaser's in the rail beside it (digg.com): the h2 is read.
    [
      "the title shown as an h2 over an h1 of other words (a teaser's)",
      "The Early Reviews For Google's Stadia Gaming Platform Are Here — And They're Not Great - Digg",
      '',
      `<article><h2>The Early Reviews For Google's Stadia Gaming Platform Are Here — And They're Not Great</h2>${TEXT}</article><article><h1>Why Don't You Go Fight For The Reindeer?</h1></article>`,
      "The Early Reviews For Google's Stadia Gaming Platform Are Here — And They're Not Great",
      'h2',
    ],
    ['an h2 holding a title of two words is not taken for it', 'Новости дня — Газета', '', `<article><h1>${H1}</h1><h2>Новости дня и недели</h2>${TEXT}</article>`, H1, 0],
  ])('%s', (_name, title, head, body, text, h1) => {
    const doc = page(head, body);
    const found = headlineOf(doc, title);
    expect(found.text).toBe(text);
    // Where the title is marked while it is read: its h1, the h2 that shows it, or nowhere.
    const shown = h1 === 'h2' ? doc.getElementsByTagName('h2')[0]!.textContent : h1 >= 0 ? doc.getElementsByTagName('h1')[h1]!.textContent : '';
    expect(found.segments.map((s) => s.node.data).join('')).toBe(shown);
    // The injected function reads the same of each h1 (its own copy of `h1Place`).
    const read = pageFacts(Number.MAX_SAFE_INTEGER, doc)!.head!;
    expect(read.h1.map(({ banner, main, home }) => ({ banner, main, home }))).toEqual(Array.from(doc.getElementsByTagName('h1'), h1Place));
  });
});

describe('isHomeLink: a link to a site home, as a logo is', () => {
  it.each<[string | null, boolean]>([
    ['/', true],
    ['./', true],
    ['index.html', true],
    ['/index.php', true],
    ['https://kinja.com', true],
    ['https://siliconexposed.blogspot.tw/', true],
    ['/en-US/', true],
    ['/en-us', true],
    ['/ru', true],
    ['/?ref=logo', true],
    ['#', false],
    ['#top', false],
    ['', false],
    [null, false],
    ['/news/2024/lukashenko.html', false],
    ['/blog', false],
    ['https://kotaku.com/the-spectacular-story-of-metroid-1284029577', false],
    ['javascript:void(0)', false],
  ])('%j: %s', (href, home) => {
    expect(isHomeLink(href)).toBe(home);
  });
});
