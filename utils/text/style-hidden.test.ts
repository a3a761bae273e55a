import { DOMParser, parseHTML } from 'linkedom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hiddenByStyle, MAX_CHECKS, MAX_SELECTORS, MAX_STYLE_CHARS } from './style-hidden';
import { extractFromPage } from './extract';
import { parseArticle } from './parse-article';

const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html') as unknown as Document;

/** The words of a page (`head`: its head's markup, `body`: its body's) as a parse with no layout sees them: hidden, or shown. */
function sorted(head: string, body: string) {
  const doc = parse(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`);
  const hidden = hiddenByStyle(doc);
  const out = { hidden: [] as string[], shown: [] as string[] };
  const walk = (el: Element, inHidden: boolean) => {
    const here = inHidden || hidden.has(el);
    for (let node = el.firstChild; node; node = node.nextSibling) {
      if (node.nodeType === 1) walk(node as Element, here);
      else if (node.nodeType === 3 && node.textContent!.trim()) (here ? out.hidden : out.shown).push(node.textContent!.trim());
    }
  };
  walk(doc.body, false);
  return out;
}

describe('hiddenByStyle: what a page hides, told with no layout', () => {
  it.each<[string, string, string[]]>([
    ['display:none', '<p>Shown</p><p style="display:none">Gone</p>', ['Gone']],
    ['spaces and case', '<p style="  DISPLAY :  None ; color: red">Gone</p><p>Shown</p>', ['Gone']],
    ['!important', '<p style="display: none !important">Gone</p><p>Shown</p>', ['Gone']],
    ['!important without spaces, in capitals', '<p style="display:none!IMPORTANT">Gone</p><p>Shown</p>', ['Gone']],
    ['with a comment in it', '<p style="display:/* not yet */none">Gone</p><p>Shown</p>', ['Gone']],
    ['after another declaration, with no last semicolon', '<p style="color:red;display:none">Gone</p><p>Shown</p>', ['Gone']],
    ['visibility:hidden, and all it holds', '<div style="visibility:hidden"><p>Gone</p><p><b>Gone too</b></p></div><p>Shown</p>', ['Gone', 'Gone too']],
    ['visibility: collapse', '<table><tr style="visibility: collapse"><td>Gone</td></tr><tr><td>Shown</td></tr></table>', ['Gone']],
    ['a later display wins', '<p style="display:none; display:block">Shown</p>', []],
    ['an earlier !important wins', '<p style="display:none !important; display:block">Gone</p><p>Shown</p>', ['Gone']],
    ['display other than none', '<p style="display:inline-block">Shown</p><p style="visibility:visible">Shown too</p>', []],
    ['a value that only starts with none', '<p style="display:nonesuch">Shown</p>', []],
    ['the hidden attribute', '<p hidden>Gone</p><p hidden="hidden">Gone too</p><p>Shown</p>', ['Gone', 'Gone too']],
    ['hidden="until-found": shown (found by search or a link, part of the text)', '<div hidden="until-found"><p>Shown</p></div>', []],
    ['aria-hidden="true"', '<p aria-hidden="true">Gone</p><p aria-hidden="TRUE">Gone too</p><p aria-hidden="false">Shown</p>', ['Gone', 'Gone too']],
    ['<body> is never hidden (an anti-clickjacking style its scripts lift)', '<p>Shown</p>', []],
  ])('inline and attributes: %s', (_name, body, hidden) => {
    const found = sorted('', body);
    expect(found.hidden).toEqual(hidden);
    expect(found.shown.every((t) => t.startsWith('Shown'))).toBe(true);
  });

  // How the rules are read (at-rules, comments, selectors skipped or dropped, the reader's caps): css-rules.test.ts.
  // Here, how they apply to a page: the cascade, inline styles, which `<style>` elements count.
  it.each<[string, string, string, string[]]>([
    ['a class rule', '<style>.hidden { display: none }</style>', '<p class="hidden">Gone</p><p class="shown">Shown</p>', ['Gone']],
    ['an id rule, visibility', '<style>#gone{visibility:hidden}</style>', '<p id="gone">Gone</p><p id="x">Shown</p>', ['Gone']],
    ['a tag and class', '<style>p.note{display:none}</style>', '<p class="note">Gone</p><div class="note">Shown</div>', ['Gone']],
    ['a descendant and a child combinator', '<style>.box .inner, main > .ad { DISPLAY: NONE !important }</style>', '<div class="box"><p class="inner">Gone</p></div><p class="inner">Shown</p><main><p class="ad">Gone too</p></main>', ['Gone', 'Gone too']],
    ['an attribute selector', '<style>[data-hide="yes"]{display:none}</style>', '<p data-hide="yes">Gone</p><p data-hide="no">Shown</p>', ['Gone']],
    ['an escaped class (Tailwind)', '<style>.max-md\\:hidden{display:none}</style>', '<p class="max-md:hidden">Gone</p><p>Shown</p>', ['Gone']],
    ['a structural pseudo-class', '<style>.collapse:not(.show){display:none} li:nth-child(2n){display:none}</style>', '<div class="collapse">Gone</div><div class="collapse show">Shown</div><ul><li>Shown 1</li><li>Gone 2</li></ul>', ['Gone', 'Gone 2']],
    ['<style media="print"> is not read', '<style media="print">.x{display:none}</style>', '<p class="x">Shown</p>', []],
    ['@media with a condition does not hide', '<style>@media (max-width: 600px) { .m { display: none } } @media screen and (min-width: 1px) { .n { display: none } }</style>', '<p class="m">Shown</p><p class="n">Shown too</p>', []],
    ['Tailwind: hidden on small screens, shown from md on (a rule that may show wins)', '<style>.hidden{display:none} @media (min-width:768px){.md\\:block{display:block}}</style>', '<div class="hidden md:block">Shown</div><div class="hidden">Gone</div>', ['Gone']],
    ['Tailwind: "flex hidden", the later rule hides', '<style>.flex{display:flex}.hidden{display:none}</style>', '<div class="flex hidden">Gone</div><div class="flex">Shown</div>', ['Gone']],
    ['tabs: the active one shown by a later rule as specific', '<style>.tabs > .pane { display: none } .tabs > .active { display: block }</style>', '<div class="tabs"><div class="pane active">Shown</div><div class="pane">Gone</div></div>', ['Gone']],
    ['!important hides over a later rule that shows', '<style>.d-none{display:none!important} @media (min-width:768px){.d-md-block{display:block}}</style>', '<p class="d-none d-md-block">Gone</p><p>Shown</p>', ['Gone']],
    ['an inline style shows what a rule hides', '<style>.modal{display:none}</style>', '<div class="modal" style="display:block">Shown</div><div class="modal">Gone</div>', ['Gone']],
    ['an !important rule shows what an inline style hides', '<style>.forced{display:block!important}</style>', '<p class="forced" style="display:none">Shown</p><p style="display:none">Gone</p>', ['Gone']],
    ['a selector that throws drops its rule (as a browser does); the next rule applies', '<style>.a, [data-x=a b] { display: none } .next { display: none }</style>', '<p class="a">Shown</p><p class="next">Gone</p>', ['Gone']],
    ['a <style> in <noscript> is not read (the tab runs scripts)', '<noscript><style>.js{display:none}</style></noscript>', '<p class="js">Shown</p>', []],
    ['a <style> of another language is not read', '<style type="text/less">.x{display:none}</style>', '<p class="x">Shown</p>', []],
    ['<html> and <body> are never hidden', '<style>body{display:none!important} html{visibility:hidden}</style>', '<p>Shown</p>', []],
  ])('<style> rules: %s', (_name, head, body, hidden) => {
    const found = sorted(head, body);
    expect(found.hidden).toEqual(hidden);
    expect(found.shown.every((t) => t.startsWith('Shown'))).toBe(true);
  });

  it.each<[string, () => string, string, string[]]>([
    // Each returns, and the page's attributes and inline styles still hide: only the style sheets are left unread.
    ['a style text past MAX_STYLE_CHARS (5 MB): its rules are not read', () => `<style>.gone{display:none}${'.x{color:red}'.repeat(Math.ceil(5_000_000 / 13))}</style>`, '<p class="gone">Shown</p><p style="display:none">Gone</p>', ['Gone']],
    ['100,000 selectors: past MAX_SELECTORS, not applied', () => `<style>${Array.from({ length: 100_000 }, (_, i) => `.c${i}`).join(',')}{display:none}</style>`, '<p class="c1">Shown</p><p hidden>Gone</p>', ['Gone']],
    [
      'selectors to try on more elements than MAX_CHECKS: not applied',
      () => `<style>${Array.from({ length: Math.ceil(MAX_CHECKS / 2_000) + 1 }, (_, i) => `.x.k${i}{display:none}`).join('')}.k0{display:none}</style>`,
      `${'<i class="x">Shown</i>'.repeat(2_000)}<p class="x k0">Shown too</p><p aria-hidden="true">Gone</p>`,
      ['Gone'],
    ],
  ])(
    'the caps hold: %s',
    (_name, head, body, hidden) => {
      const found = sorted(head(), body);
      expect(found.hidden).toEqual(hidden);
    },
    // linkedom's `matches` is slow (MAX_CHECKS of them take a second or two here); a browser's is not.
    20_000,
  );

  it('the caps are what the tests assume', () => {
    expect(MAX_STYLE_CHARS).toBeLessThan(5_000_000);
    expect(MAX_SELECTORS).toBeLessThan(100_000);
  });
});

describe('a page fetched for the queue (parseArticle): what its style hides is not read, nor billed', () => {
  afterEach(() => vi.unstubAllGlobals());
  const paragraph = (n: number) => `<p>Абзац номер ${n} длинной статьи, в котором довольно много слов, запятых, и смысла, чтобы его взяли.</p>`;
  const html = `<html><head><title>Статья</title><style>.later { display: none } @media print { .onpaper { display: none } }</style></head><body><article><h1>Статья</h1>
    ${paragraph(1)}${paragraph(2)}<p class="later">Скрытое предложение подписки, которого не видно.</p>${paragraph(3)}<p aria-hidden="true">Скрытая подпись.</p>
    ${paragraph(4)}<p class="onpaper">Видимый абзац, скрытый только при печати.</p>${paragraph(5)}${paragraph(6)}</article></body></html>`;
  const stubs = () => {
    vi.stubGlobal('NodeFilter', { SHOW_ELEMENT: 1, SHOW_TEXT: 4 });
    vi.stubGlobal('DOMParser', DOMParser);
    vi.stubGlobal('Node', parseHTML('<html></html>').Node);
  };

  it('the hidden paragraphs are left out (and counted), the visible ones read', () => {
    stubs();
    const text = parseArticle(html, 'https://example.com/a', {});
    const words = text.blocks.map((b) => b.text).join('\n');
    expect(words).not.toContain('Скрытое предложение');
    expect(words).not.toContain('Скрытая подпись');
    expect(words).toContain('Видимый абзац, скрытый только при печати.');
    for (let n = 1; n <= 6; n++) expect(words).toContain(`Абзац номер ${n} `);
    expect(text.leftOutChars).toBeGreaterThanOrEqual('Скрытое предложение подписки, которого не видно.'.length);
    expect(text).toMatchObject({ url: 'https://example.com/a', site: 'example.com' });
  });

  it('a page read without the style read (a live page: its CSS is asked instead) keeps the class-hidden paragraph', () => {
    stubs();
    const { text } = extractFromPage(parse(html), { articleOnly: true });
    expect(text.blocks.map((b) => b.text).join('\n')).toContain('Скрытое предложение');
  });
});
