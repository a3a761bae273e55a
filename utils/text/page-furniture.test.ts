import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { blocksOf } from './extract';
import { furnitureKey, furnitureLines, repeatedEdges } from './page-furniture';

/** A three-page Internet-Draft as a plain-text page has it: 72 columns, a form feed between pages. */
const PAGE_1 = [
  'Network Working Group                                        M. Dejong',
  'Internet-Draft                                               IndieHosters',
  'Intended status: Informational                        December 15, 2014',
  'Expires: June 18, 2015',
  '',
  '',
  '                            remoteStorage',
  '',
  'Abstract',
  '',
  '   This draft describes a protocol by which client-side applications',
  '   can talk to a per-user storage server.',
  '',
  '',
  'Dejong                    Expires June 18, 2015                [Page 1]',
];
const PAGE_2 = [
  '\fInternet-Draft              remoteStorage                  December 2014',
  '',
  '',
  '1.  Introduction',
  '',
  '   Many services for data storage are available over the internet.',
  '',
  '',
  'Dejong                    Expires June 18, 2015                [Page 2]',
];
const PAGE_3 = [
  '\fInternet-Draft              remoteStorage                  December 2014',
  '',
  '',
  '2.  Terminology',
  '',
  '   The key words "MUST" and "SHOULD" are to be interpreted as described.',
  '',
  '',
  'Dejong                    Expires June 18, 2015                [Page 3]',
];
const RFC = [...PAGE_1, ...PAGE_2, ...PAGE_3];
const HEAD = 'Internet-Draft              remoteStorage                  December 2014';

const POEM = [
  'Белеет парус одинокой',
  'В тумане моря голубом!..',
  'Что ищет он в стране далекой?',
  'Что кинул он в краю родном?..',
  '',
  'Играют волны — ветер свищет,',
  'И мачта гнется и скрыпит…',
  'Увы! он счастия не ищет',
  'И не от счастия бежит!',
  '',
  'Увы! он счастия не ищет',
  'И не от счастия бежит!',
];

describe('furnitureLines: the running heads and feet of preformatted prose', () => {
  const at = (lines: readonly string[], found: Set<number>) => [...found].sort((a, b) => a - b).map((i) => lines[i]!.replace('\f', '').trim());

  it.each<[string, readonly string[], ReadonlySet<string>, string[]]>([
    [
      "three pages with form feeds: each foot, and the head of pages 2 and 3 (not page 1's front matter)",
      RFC,
      new Set(),
      ['Dejong                    Expires June 18, 2015                [Page 1]', HEAD, 'Dejong                    Expires June 18, 2015                [Page 2]', HEAD, 'Dejong                    Expires June 18, 2015                [Page 3]'],
    ],
    ['the form feed on a line of its own', [...PAGE_1, '\f', ...PAGE_2.map((l) => l.replace('\f', '')), '\f', ...PAGE_3.map((l) => l.replace('\f', ''))], new Set(), [PAGE_1.at(-1)!, HEAD, PAGE_2.at(-1)!, HEAD, PAGE_3.at(-1)!]],
    ['no form feeds (stripped): a foot, and the head after it', [...PAGE_1, ...PAGE_2, ...PAGE_3].map((l) => l.replace('\f', '')), new Set(), [PAGE_1.at(-1)!, HEAD, PAGE_2.at(-1)!, HEAD, PAGE_3.at(-1)!]],
    ["one page of a `<pre>` a page: its head, known from the other pages", PAGE_2.map((l) => l.replace('\f', '')), new Set([furnitureKey(HEAD)]), [HEAD, PAGE_2.at(-1)!]],
    ['a foot alone, "[Page 7]" only', ['   Text.', '', '[Page 7]'], new Set(), ['[Page 7]']],
    ['a poem with a refrain: nothing', POEM, new Set(), []],
    ['prose that mentions a page: nothing', ['   The table is on the next sheet [Page 3]', '   and continues.'], new Set(), []],
    ["a head on one page only (page 1's front matter) stays", PAGE_1.slice(0, -1), new Set(), []],
    ['lines in columns in the body, not at a page break, stay', ['Intro.', '', '   Name      Value      Meaning', '   a         1          one', '', 'Outro.'], new Set(), []],
  ])('%s', (_name, lines, repeated, expected) => {
    expect(at(lines, furnitureLines(lines, repeated))).toEqual(expected.map((l) => l.trim()));
  });

  it("furnitureKey: a page's numbers and spacing aside", () => {
    expect(furnitureKey('\fRFC 2616     HTTP/1.1     June 1999')).toBe(furnitureKey('RFC 2616 HTTP/1.1 June 1999'));
    expect(furnitureKey('Dejong   [Page 3]')).toBe(furnitureKey('Dejong      [Page 14]'));
  });

  it("repeatedEdges: a `<pre>` a page (tools.ietf.org): the lines in columns opening or closing more than one", () => {
    const pres = [PAGE_1, PAGE_2, PAGE_3].map((page) => page.join('\n').replace('\f', ''));
    expect(repeatedEdges(pres)).toEqual(new Set([furnitureKey(HEAD), furnitureKey(PAGE_1.at(-1)!)]));
    expect(repeatedEdges([POEM.join('\n'), POEM.join('\n')])).toEqual(new Set());
  });
});

describe('an RFC read from a <pre>: its running heads and feet are left out, and counted', () => {
  const read = (body: string) => {
    const { document } = parseHTML(`<html><body><div id="root">${body}</div></body></html>`);
    const found = blocksOf(document.getElementById('root') as unknown as Element);
    return { lines: found.blocks.map((b) => b.text), leftOut: found.leftOutChars };
  };
  const text = [
    'Network Working Group M. Dejong Internet-Draft IndieHosters Intended status: Informational December 15, 2014 Expires: June 18, 2015',
    'remoteStorage',
    'Abstract',
    'This draft describes a protocol by which client-side applications can talk to a per-user storage server.',
    '1. Introduction',
    'Many services for data storage are available over the internet.',
    '2. Terminology',
    'The key words "MUST" and "SHOULD" are to be interpreted as described.',
  ];

  it.each([
    ['a plain-text page (one <pre>, form feeds)', `<pre>${RFC.join('\n')}</pre>`],
    ["tools.ietf.org's pages (a <pre> a page)", [PAGE_1, PAGE_2, PAGE_3].map((page) => `<pre class="newpage">${page.join('\n').replace('\f', '')}</pre>`).join('<hr class="noprint">')],
  ])('%s', (_name, body) => {
    const found = read(body);
    expect(found.lines).toEqual(text);
    expect(found.lines.join(' ')).not.toMatch(/\[Page \d\]|December 2014$/);
    // Three feet and two heads, as read (single spaces).
    expect(found.leftOut).toBe(3 * 'Dejong Expires June 18, 2015 [Page 1]'.length + 2 * 'Internet-Draft remoteStorage December 2014'.length);
  });

  it('a poem in a <pre> loses nothing', () => {
    const found = read(`<pre>${POEM.join('\n')}</pre>`);
    expect(found.lines).toEqual([POEM.slice(0, 4).join(' '), POEM.slice(5, 9).join(' '), POEM.slice(10).join(' ')]);
    expect(found.leftOut).toBe(0);
  });
});
