import { parseHTML } from 'linkedom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Readability } from '@mozilla/readability';
import { blocksOf, type CleanupChoices, extractFromPage, isBoilerplate, isJunkLine } from './extract';
import { billedBound, mayBeReadTitleFirst, titleFirst, titleFirstFromHead } from './title-first';
import { pageFacts } from './page-facts';
import { planParts } from '../reading/plan';
import { quickReadability } from './quick-readability';

/** The blocks of an article body as the reader would send them ("kind: text" lines). */
function read(html: string, opts: CleanupChoices = {}) {
  const { document } = parseHTML(`<html><body><div id="root">${html}</div></body></html>`);
  const found = blocksOf(document.getElementById('root') as unknown as Element, undefined, opts);
  return { lines: found.blocks.map((b) => `${b.kind}: ${b.text}`), leftOut: found.leftOutChars };
}

describe('every word of the article, once, in order', () => {
  it.each([
    ['bare text in a div after a heading', '<h5>Начало</h5><div>Первый абзац истории без тега p.</div><p>Второй.</p>', ['heading: Начало', 'paragraph: Первый абзац истории без тега p.', 'paragraph: Второй.']],
    ['text directly inside a list', '<ul>Вступление к списку <li>один</li><li>два</li></ul>', ['paragraph: Вступление к списку', 'paragraph: один', 'paragraph: два']],
    ['a table caption', '<table><caption>Таблица 1. Цены</caption><tr><td>Хлеб</td><td>40</td></tr></table>', ['paragraph: Таблица 1. Цены', 'paragraph: Хлеб', 'paragraph: 40']],
    ['words on both sides of a <br> stay apart', '<p>KEEPALIVE<br>int add(int x)</p>', ['paragraph: KEEPALIVE', 'paragraph: int add(int x)']],
    ['inline markup does not split a sentence', '<p>Сложность <b>алгоритма</b> равна 2n<sup>2</sup>.</p>', ['paragraph: Сложность алгоритма равна 2n2.']],
    ['a documentation link of class "reference" (Sphinx) is read', '<p>See this <a class="reference external" href="/b">guide to bookmarks</a>, especially.</p>', ['paragraph: See this guide to bookmarks, especially.']],
    ['nested blocks are read once', '<blockquote><p>Цитата.</p></blockquote>', ['paragraph: Цитата.']],
    ['a figure caption', '<figure><img src="a.png"><figcaption>Подпись к рисунку.</figcaption></figure>', ['paragraph: Подпись к рисунку.']],
  ])('%s', (_name, html, lines) => {
    expect(read(html).lines).toEqual(lines);
  });

  it('code with highlighting spans keeps its lines; a psql table in the same <pre> goes, the code stays', () => {
    const pre = '<pre><span class="k">SELECT</span> <span class="n">n</span>\n<span class="k">FROM</span> t;\n\n n │ is_anomaly\n───┼───\n 2 │ f</pre>';
    expect(read(pre).lines).toEqual(['paragraph: SELECT n FROM t;']);
  });

  it('preformatted text: wrapped lines are one paragraph, a blank line ends it, hyphenated words are joined', () => {
    const pre = '<pre>This draft describes a protocol by which\n   client-side applications can talk. The Internet-\n   Drafts list.\n\nSecond paragraph.</pre>';
    expect(read(pre).lines).toEqual([
      'paragraph: This draft describes a protocol by which client-side applications can talk. The Internet-Drafts list.',
      'paragraph: Second paragraph.',
    ]);
  });
});

describe('what a listener does not want is left out, and counted', () => {
  it.each([
    ['a References section, to the next heading of its level', '<h2>History</h2><p>Text.</p><h2>References</h2><ol><li>Smith, 2001. Retrieved 5 May.</li></ol><h3>Sub</h3><p>Still refs.</p><h2>Economy</h2><p>More text.</p>', ['heading: History', 'paragraph: Text.', 'heading: Economy', 'paragraph: More text.']],
    ['Russian «Примечания» and «См. также»', '<p>Текст.</p><h2>Примечания</h2><p>1. Источник.</p><h2>См. также</h2><ul><li>Другая статья</li></ul>', ['paragraph: Текст.']],
    ['an "External links" heading with an [edit] link', '<p>Body.</p><h2>External links<span class="mw-editsection">[edit]</span></h2><ul><li>Site</li></ul>', ['paragraph: Body.']],
    ['Wikipedia citation markers and edit links', '<h2>History<span class="mw-editsection">[<a>edit</a>]</span></h2><p>Founded in 1840.<sup class="reference">[12]</sup> It grew.</p>', ['heading: History', 'paragraph: Founded in 1840. It grew.']],
    ['a reference list by its markup', '<p>Body.</p><div class="reflist"><ol class="references"><li>^ Retrieved 2010.</li></ol></div>', ['paragraph: Body.']],
    ['DPUB-ARIA endnotes', '<p>Body.</p><section role="doc-endnotes"><ol><li>Note.</li></ol></section>', ['paragraph: Body.']],
    ['table-of-contents leaders in a pre', '<pre>1.  Introduction . . . . . . . . . . . . 3\n2.  Terms........................... 4\n\nThe text starts here.</pre>', ['paragraph: The text starts here.']],
    ['a box-drawing table', '<pre>┌───┬───┐\n│ a │ b │\n└───┴───┘\n\nAfter the table.</pre>', ['paragraph: After the table.']],
    ['an ASCII-art rule', '<p>Before.</p><p>+-------+-------+</p><p>After.</p>', ['paragraph: Before.', 'paragraph: After.']],
    ["WordPress's footnotes block and the paragraph that labels it", '<p>Body.</p><p>Notes:</p><ol class="wp-block-footnotes"><li>Gallery, consulted on November 5, 2025. ↩</li></ol>', ['paragraph: Body.']],
    ["the site's own section after the article, to the next heading as high", '<h2>Verdict</h2><p>Buy it.</p><h2>Meet the testers</h2><p>Jane has tested laptops for years.</p><h3>Jane Doe</h3><p>Senior editor.</p><h2>Checking our work.</h2><p>Our team is here to help.</p>', ['heading: Verdict', 'paragraph: Buy it.']],
    ["a box of the site's teasers in the middle of a story: the story goes on after it", '<p>First.</p><div class="related"><h3>More from UK</h3><h4>Prince Andrew: BT abandons ties</h4><p>Teaser.</p></div><p>The story goes on.</p>', ['paragraph: First.', 'paragraph: The story goes on.']],
    ["teaser cards: a heading, then a link that repeats it", '<p>Body.</p><h2>20 Free Sewing Patterns</h2><ul><li><a href="/a">20 Free Sewing Patterns</a></li></ul><h2>Quilt Panels</h2><ul><li><a href="/b">Quilt Panels</a>.</li></ul>', ['paragraph: Body.']],
    ['an author\'s line kept out of search snippets', '<p>Body of the list.</p><div data-nosnippet>Archie is a writer from South London. He studied film.<br><br>Inquiries: archie@example.com</div>', ['paragraph: Body of the list.']],
    [
      "the site's blurb in its own language after the article",
      `${'<p>The conference is one of the largest in the world, and it has been held in the city for more than a decade, with talks on the future of the web.</p>'.repeat(6)}<p>emit digital ist eine Webagentur aus Düsseldorf. Wir konzipieren und entwickeln Web- und Digitallösungen für unsere Kunden aus aller Welt, die mit uns auch in Zukunft arbeiten.</p>`,
      Array(6).fill('paragraph: The conference is one of the largest in the world, and it has been held in the city for more than a decade, with talks on the future of the web.'),
    ],
  ])('%s', (_name, html, lines) => {
    const found = read(html);
    expect(found.lines).toEqual(lines);
    expect(found.leftOut).toBeGreaterThan(0);
  });

  it.each([
    ['a code block (pre > code) is left out by default', '<p>Run it:</p><pre><code>npm ci\nnpm test</code></pre><p>Done.</p>', {}, ['paragraph: Run it:', 'paragraph: Done.']],
    ['a highlighted block (div.highlight > pre) too', '<p>A.</p><div class="highlight"><pre><span class="k">def</span> f(): pass</pre></div>', {}, ['paragraph: A.']],
    ['code blocks read when asked', '<pre><code>npm test</code></pre>', { readCode: true }, ['paragraph: npm test']],
    ['preformatted prose (an RFC) is not code', '<pre>This memo defines a protocol.</pre>', {}, ['paragraph: This memo defines a protocol.']],
    [
      "code with no mark of code (Medium's <pre> of <span> lines and <br>s) is left out",
      '<p>A.</p><pre class="kn ko"><span class="gi">private int addFlag(int flagSet, int flag){<br>    return flagSet|flag;<br>}</span></pre><p>B.</p>',
      {},
      ['paragraph: A.', 'paragraph: B.'],
    ],
    ['markup with no mark of code too', '<pre><span>&lt;resources&gt;<br>  &lt;attr name="drawBorder"&gt;<br>&lt;/resources&gt;</span></pre>', {}, []],
    [
      "an RFC's page in a <pre>, with an HTTP example in it, is read",
      '<pre>   The client sends a request (see Section 4.2) to the server:\n\n     GET /storage/michiel/ HTTP/1.1\n     Host: example.com\n\n   The server answers with the folder\'s listing, as described below.</pre>',
      {},
      ['paragraph: The client sends a request (see Section 4.2) to the server:', 'paragraph: GET /storage/michiel/ HTTP/1.1 Host: example.com', "paragraph: The server answers with the folder's listing, as described below."],
    ],
    ['dialogue in a <pre>, quotes, colons and brackets, is read', '<pre>Он сказал: "Да" (тихо).\nОна ответила: "Нет!" — и ушла (навсегда).</pre>', {}, ['paragraph: Он сказал: "Да" (тихо). Она ответила: "Нет!" — и ушла (навсегда).']],
    ['a poem with quotes and dashes is read', '<pre>"Tell me," she said — "what is it: the sea, or the sky?"\nAnd I said: "Both (and neither)."</pre>', {}, ['paragraph: "Tell me," she said — "what is it: the sea, or the sky?" And I said: "Both (and neither)."']],
    ['inline code in a sentence stays', '<p>Call <code>fetch()</code> first.</p>', {}, ['paragraph: Call fetch() first.']],
    ['captions left out when asked', '<figure><img src="a.png"><figcaption>Рис. 1.</figcaption></figure><p>Текст.</p>', { leaveOutCaptions: true }, ['paragraph: Текст.']],
    [
      'a caption outside <figcaption> that restates the picture\'s alt is left out with captions',
      '<figure><img alt="Buck Cullen with his daughter in his back yard, storing a pair of sperm whale jawbones"></figure><ul><li><p>Buck Cullen with his daughter in his backyard, where he is storing a pair of sperm whale jawbones.</p></li></ul><p>But elders say nobody listens.</p>',
      { leaveOutCaptions: true },
      ['paragraph: But elders say nobody listens.'],
    ],
    [
      'the same block is read when captions are',
      '<figure><img alt="Buck Cullen with his daughter in his back yard"></figure><p>Buck Cullen with his daughter in his backyard.</p>',
      {},
      ['paragraph: Buck Cullen with his daughter in his backyard.'],
    ],
    [
      'a heading that restates the alt is read',
      '<img alt="Making spiced honey pear jam at home"><h2>Making spiced honey pear jam</h2><p>First, the pears.</p>',
      { leaveOutCaptions: true },
      ['heading: Making spiced honey pear jam', 'paragraph: First, the pears.'],
    ],
    ['a caption told by its credit', '<p>Netanyahu at the Western Wall. (Thomas Coex/AFP/Getty Images)</p><p>He won.</p>', { leaveOutCaptions: true }, ['paragraph: He won.']],
    ['the readers\' section after its heading', '<p>Статья.</p><h3>Отзывы</h3><p>Отличная диета, похудела на 5 кг!</p><p>А мне не помогло.</p>', {}, ['paragraph: Статья.']],
    [
      'a section left out ends at the next heading as high, also inside a block that begins in the section (a page builder\'s)',
      '<p>Статья.</p><h3>Comments</h3><p>Great post!</p><div class="block"><p>Me too.</p><div><h2>2. The next item</h2></div></div><p>Its text.</p>',
      {},
      ['paragraph: Статья.', 'heading: 2. The next item', 'paragraph: Its text.'],
    ],
    [
      "a ranked list's items, each with the author's review under a heading \"Review\", are read",
      '<h2>1. Sony WH-1000XM5</h2><h3>Review</h3><p>The fit is fantastic.</p><h2>2. Bose QC45</h2><h3>Review</h3><p>Light and quiet.</p>',
      {},
      ['heading: 1. Sony WH-1000XM5', 'heading: Review', 'paragraph: The fit is fantastic.', 'heading: 2. Bose QC45', 'heading: Review', 'paragraph: Light and quiet.'],
    ],
    [
      'a spec sheet is left out, with the line that names it; a list of prose is read',
      '<p>The board adds ten ports.</p><p>Suptronics X1013 specifications:</p><ul><li>Compatible with Raspberry Pi 5</li><li>Dimensions – 107.5 x 85mm</li></ul><ul><li>Processor: AMD Ryzen 5</li><li>Memory: 16GB DDR5</li><li>Storage: 512GB SSD</li><li>Battery life: 7.5+ hours</li></ul><ul><li>It is quick.</li><li>It is light.</li></ul>',
      {},
      ['paragraph: The board adds ten ports.', 'paragraph: It is quick.', 'paragraph: It is light.'],
    ],
    ['a tooltip inside a sentence', '<p>He threatened Rep. <a href="/p/omar">Ilhan Omar</a><span class="rollover-people-block"><a href="/p/omar">Ilhan Omar</a><a href="/x">Other story</a></span> in a call.</p>', {}, ['paragraph: He threatened Rep. Ilhan Omar in a call.']],
    ["the author's biography at the end", '<p>The story.</p><p>Steven Mufson covers the White House for The Post.</p>', {}, ['paragraph: The story.']],
    ["a reporter's description within the story is kept", '<p>Steven Mufson covers the White House for The Post.</p><p>He said one thing.</p><p>Then another.</p><p>And a third.</p>', {}, ['paragraph: Steven Mufson covers the White House for The Post.', 'paragraph: He said one thing.', 'paragraph: Then another.', 'paragraph: And a third.']],
    ['a number alone is a counter, but not in a table', '<p>6</p><p>Текст.</p><table><tr><td>Kyle Busch</td><td>5</td></tr></table>', {}, ['paragraph: Текст.', 'paragraph: Kyle Busch', 'paragraph: 5']],
    ['tables left out when asked', '<p>До.</p><table><tr><td>Хлеб</td><td>40</td></tr></table><p>После.</p>', { leaveOutTables: true }, ['paragraph: До.', 'paragraph: После.']],
  ] as const)('%s', (_name, html, opts, lines) => {
    const found = read(html, opts);
    expect(found.lines).toEqual(lines);
  });

  describe('a code block whose marks only the page keeps (WordPress WP-Syntax: Readability unwraps its one-cell table)', () => {
    afterEach(() => vi.unstubAllGlobals());
    const para = '<p>Длинный абзац статьи о запросах, в котором довольно много слов, запятых, и смысла, чтобы его взяли.</p>';
    const code = '<div class="wp_syntax"><table><tbody><tr><td class="code"><pre class="javascript">fetch("/data.json").then(function (res) {\n  console.log(res.ok);\n});</pre></td></tr></tbody></table></div>';
    const extracted = (opts: CleanupChoices) => {
      vi.stubGlobal('NodeFilter', { SHOW_ELEMENT: 1, SHOW_TEXT: 4 });
      const { document, Node } = parseHTML(`<html><head><title>Fetch</title></head><body><article><h1>Fetch</h1>${para.repeat(4)}${code}${para.repeat(4)}</article></body></html>`);
      vi.stubGlobal('Node', Node);
      return extractFromPage(document as unknown as Document, { articleOnly: true, ...opts }).text;
    };
    it.each([
      ['left out by default, and counted', {}, false],
      ['read when asked', { readCode: true }, true],
    ] as const)('%s', (_name, opts, read) => {
      const text = extracted(opts);
      expect(text.blocks.some((b) => b.text.includes('console.log'))).toBe(read);
      expect(text.blocks.filter((b) => b.kind === 'paragraph')).toHaveLength(read ? 9 : 8);
      if (!read) expect(text.leftOutChars).toBeGreaterThan(40);
    });
  });

  it('the setting keeps reference sections', () => {
    expect(read('<p>Body.</p><h2>See also</h2><p>Other.</p>', { keepReferences: true }).lines).toEqual(['paragraph: Body.', 'heading: See also', 'paragraph: Other.']);
  });
});

describe("what looks like the site's but is the author's is read", () => {
  it.each([
    ['a heading repeated by a link with more words after it', '<h2>Quilt Panels</h2><p><a href="/b">Quilt Panels</a> are the quickest way to a finished quilt.</p>', ['heading: Quilt Panels', 'paragraph: Quilt Panels are the quickest way to a finished quilt.']],
    ['a section of the author\'s own', '<h2>More from the interview</h2><p>She laughed.</p>', ['heading: More from the interview', 'paragraph: She laughed.']],
    ['a "Notes:" paragraph before an ordinary list', '<p>Notes:</p><ul><li>Bring water.</li></ul>', ['paragraph: Notes:', 'paragraph: Bring water.']],
  ])('%s', (_name, html, lines) => expect(read(html).lines).toEqual(lines));
});

describe('isBoilerplate: a block that is only a label or button', () => {
  it.each([
    ['Advertisement', true],
    ['Advertisement - story continues below', true],
    ['ADVERTISEMENT — Story continues below', true],
    ['Share this post:', true],
    ['Post navigation', true],
    ['What’s Your Reaction?', true],
    ['• Tweet', true],
    ['Like us on Facebook', true],
    ['Follow us on Twitter & Instagram', true],
    ['Next', true],
    ['HIDE CAPTION', true],
    ['SHOW CAPTION +', true],
    ['Next, the committee met again.', false],
    ['Читайте также:', true],
    ['Поделиться', true],
    ['Нашли ошибку? Выделите её и нажмите Ctrl+Enter', true],
    ['Advertisement revenue fell by half last year.', false],
    ['Share prices rose.', false],
    ['Читайте также статью о том, как читают страницы.', false],
    ['Реклама', true],
    ['Реклама и маркетинг', false],
  ])('%s → %s', (block, expected) => {
    expect(isBoilerplate(block)).toBe(expected);
  });

  it('is left out of an article, and counted', () => {
    const found = read('<p>Первый абзац.</p><div>Advertisement - story continues below</div><p>Второй абзац.</p><p>Share this post:</p>');
    expect(found.lines).toEqual(['paragraph: Первый абзац.', 'paragraph: Второй абзац.']);
    expect(found.leftOut).toBe('Advertisement - story continues below'.length + 'Share this post:'.length);
  });
});

describe('isJunkLine', () => {
  it.each([
    ['form........13', true],
    ['   3.2.  Requests . . . . . . . . . . . . . . . . 12', true],
    ['───┼───', true],
    ['│', false],
    ['lower_bound │ upper_bound', false], // alone it may be prose; inside <pre> a line with box drawing goes
    ['│ модель │ голос  │', true],
    ['| a | b |', true],
    ['│ a │ b │', true],
    ['[edit]', true],
    ['[править | править код]', true],
    ['A sentence with a dash — and words.', false],
    ['Итого: 1 000 000 рублей.', false],
    ['x = a + b', false],
  ])('%s → %s', (line, junk) => {
    expect(isJunkLine(line)).toBe(junk);
  });

  // The regular expressions it was first written with: the one-pass version must agree on every line.
  const reference = (line: string): boolean => {
    const t = line.trim();
    const visible = t.replace(/\s/g, '');
    const drawing = visible.match(/[\u2500-\u259F|+\-=_~*#<>^]/g)?.length ?? 0;
    const bars = visible.match(/[│┃║|]/g)?.length ?? 0;
    const isDrawing = visible.length >= 3 && (drawing / visible.length >= 0.5 || /[\u2500-\u257F]{3,}/.test(t) || (bars >= 3 && /^[│┃║|]/.test(visible)));
    const leader = /(?:\.\s?){4,}\s*\d+\s*$|(?:\.\s){3,}\.?\s*\d+\s*$/.test(t);
    const edit = /^\[\s*(edit|править|править код|править \| править код|edit source)\s*\]$/i.test(t);
    return t !== '' && (leader || isDrawing || edit);
  };
  it('agrees with its regular-expression form on 20,000 random lines (up to 13 pieces) and 5,000 long ones (up to 80)', () => {
    const alphabet = ['а', 'b', ' ', '\u00a0', '\u3000', '.', '. ', '1', '9', '|', '│', '┃', '║', '─', '┼', '▒', '-', '=', '_', '~', '*', '#', '<', '>', '^', '+', '[', ']', 'edit', 'править', '\t'];
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 25_000; i++) {
      const n = Math.floor(next() * (i < 20_000 ? 14 : 81));
      const line = Array.from({ length: n }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
      expect([line, isJunkLine(line)]).toEqual([line, reference(line)]);
    }
  });
});

describe("Readability's byline test, measured last", () => {
  const prose = Array.from({ length: 12 }, (_, i) => `<p>Абзац номер ${i}, в котором есть запятые, слова и смысл, чтобы статья нашлась.</p>`).join('');
  const bylineOf = (html: string) => {
    const { document } = parseHTML(`<html><head><title>Статья</title></head><body><article>${html}${prose}</article></body></html>`);
    return new Readability(document as unknown as Document).parse()?.byline ?? null;
  };
  it('is in place', () => {
    expect(quickReadability()).toBe(true);
  });
  it.each([
    ['an article of 600 letters', '<p>' + 'слово '.repeat(100) + '</p>', 'threshold'],
    ['an article of 499 letters', '<p>' + 'а'.repeat(499) + '</p>', 'exact'],
    ['600 letters among many spaces', '<p>' + 'а \n  '.repeat(600) + '</p>', 'threshold'],
    ['300 letters among many spaces (599 characters squeezed: too few letters to tell without the text)', '<p>' + 'а \n  '.repeat(300) + '</p>', 'exact'],
    ['200 letters among many spaces (399 squeezed)', '<p>' + 'а \n  '.repeat(200) + '</p>', 'exact'],
  ])("Readability's length check of the article it put together: %s", (_, html, answer) => {
    const { document } = parseHTML(`<html><body></body></html>`);
    const article = document.createElement('div');
    const page = document.createElement('div');
    page.id = 'readability-page-1';
    page.innerHTML = html;
    article.appendChild(page);
    const reader = Object.assign(Object.create(Readability.prototype) as object, { _charThreshold: 500 }) as unknown as { _getInnerText(e: Element, n?: boolean): string; REGEXPS: { normalize: RegExp } };
    const exact = (article.textContent ?? '').trim().replace(reader.REGEXPS.normalize, ' ');
    const got = reader._getInnerText(article as unknown as Element, true);
    // Only compared with the threshold: the same side of it as the text itself, the text when short.
    expect(got.length < 500).toBe(exact.length < 500);
    expect(got).toBe(answer === 'exact' ? exact : ' '.repeat(500));
    // Any other element, or the same without squeezing, gets its text.
    expect(reader._getInnerText(page as unknown as Element, true)).toBe(exact);
    expect(reader._getInnerText(article as unknown as Element, false)).toBe((article.textContent ?? '').trim());
  });
  it.each([
    ['display: none', '<p style="display: none">Скрытый стилем абзац.</p>', false],
    ['visibility: hidden', '<p style="color: red; visibility: hidden">Невидимый абзац.</p>', false],
    ['the hidden attribute', '<p hidden>Скрытый атрибутом абзац.</p>', false],
    ['aria-hidden', '<div aria-hidden="true"><p>Скрытый для чтения абзац.</p></div>', false],
    ['a style that hides nothing', '<p style="color: red">Красный видимый абзац.</p>', true],
    ['aria-hidden="false"', '<p aria-hidden="false">Видимый для чтения абзац.</p>', true],
  ])("Readability's visibility: %s", (_, html, kept) => {
    const { document } = parseHTML(`<html><head><title>Статья</title></head><body><article>${html}${prose}</article></body></html>`);
    const text = new Readability(document as unknown as Document).parse()?.textContent ?? '';
    expect(text).toContain('Абзац номер 3');
    expect(/[Аа]бзац\./.test(text.replace(/Абзац номер \d+/g, ''))).toBe(kept);
  });
  it.each([
    ['style and presentational attributes go, nested in plain elements', '<div><p><span style="color: red" align="left">Абзац со стилем.</span></p></div>', '<div><p><span>Абзац со стилем.</span></p></div>'],
    ['a plain element keeps nothing to remove', '<p>Простой <b>абзац</b>.</p>', '<p>Простой <b>абзац</b>.</p>'],
    ['width and height of a table go, of an image stay', '<table width="500"><tbody><tr><td height="20" bgcolor="red">Ячейка таблицы.</td></tr></tbody></table><img width="10" height="10" src="a.png">', '<table><tbody><tr><td>Ячейка таблицы.</td></tr></tbody></table><img width="10" height="10" src="a.png">'],
    ['a form whose control is named like a method', '<form><input name="hasAttributes"><p style="color: red">Абзац формы.</p></form>', '<form><input name="hasAttributes"><p>Абзац формы.</p></form>'],
    ['an svg is left as it is', '<svg width="10" style="fill: red"><text style="x">Подпись</text></svg>', '<svg width="10" style="fill: red"><text style="x">Подпись</text></svg>'],
  ])("Readability's style clean-up: %s", (_, html, cleaned) => {
    const { document } = parseHTML(`<html><body><div id="x">${html}</div></body></html>`);
    const root = document.getElementById('x')!;
    // As browsers do, a form's control named like a method shadows it (the parser used here does not).
    for (const form of Array.from(root.querySelectorAll('form'))) {
      for (const control of Array.from(form.querySelectorAll('[name]'))) Object.defineProperty(form, control.getAttribute('name')!, { value: control });
    }
    (Readability.prototype as unknown as { _cleanStyles(e: Element): void })._cleanStyles(root as unknown as Element);
    expect(root.innerHTML).toBe(cleaned);
  });
  it.each([
    ['', undefined],
    ['Без запятых.', undefined],
    ['Раз, два,  три,, четыре, ', undefined],
    [',,,', ','],
    ['а; б; в;; г', ';'],
    ['абабаба', 'аба'],
    ['  Пробелы,   схлопнутые ,  как прежде  ', ','],
  ])("Readability's comma count: %j by %j is split's", (text, sep) => {
    const { document } = parseHTML(`<html><body><div id="x">${text}</div></body></html>`);
    const el = document.getElementById('x')! as unknown as Element;
    const reader = Readability.prototype as unknown as { _getCharCount(e: Element, s?: string): number; _getInnerText(e: Element): string; REGEXPS: unknown };
    const inner = reader._getInnerText.call(reader, el);
    expect(reader._getCharCount.call(reader, el, sep)).toBe(inner.split(sep || ',').length - 1);
  });
  it.each([
    ['no link', '<p>Абзац без ссылок, но с текстом.</p>'],
    ['no text at all', '<p> </p>'],
    ['a link', '<p>Текст и <a href="/x">ссылка</a> в нём.</p>'],
    ['a link that is all the text', '<p><a href="/x">Только ссылка</a></p>'],
    ['a link within the page (weighed 0.3)', '<p>Текст и <a href="#note">примечание</a>.</p>'],
    ['an empty link in empty text', '<p><a href="/x"></a></p>'],
  ])("Readability's link density: %s, as it was", (_, html) => {
    const { document } = parseHTML(`<html><body><div id="x">${html}</div></body></html>`);
    const el = document.getElementById('x')! as unknown as Element;
    const reader = Readability.prototype as unknown as { _getLinkDensity(e: Element): number; _getInnerText(e: Element): string; REGEXPS: { hashUrl: RegExp } };
    // Readability 0.6's own: the links' text (a link to a place in the page counts 0.3) over the whole text.
    const textLength = reader._getInnerText.call(reader, el).length;
    const links = Array.from(el.getElementsByTagName('a'));
    const linkLength = links.reduce((n, a) => n + reader._getInnerText.call(reader, a).length * (reader.REGEXPS.hashUrl.test(a.getAttribute('href') ?? '') ? 0.3 : 1), 0);
    expect(reader._getLinkDensity.call(reader, el)).toBe(textLength === 0 ? 0 : linkLength / textLength);
  });
  it.each([
    ['a byline class', '<p class="byline">Иван Петров</p>', 'Иван Петров'],
    ['rel="author"', '<a rel="author" href="/a">Анна Смирнова</a>', 'Анна Смирнова'],
    ['itemprop="author"', '<span itemprop="author">Пётр Иванов</span>', 'Пётр Иванов'],
    ['a byline of 100 characters or more is none', `<p class="author">${'Очень длинная подпись '.repeat(6)}</p>`, null],
    ['an empty byline is none', '<p class="byline"> </p>', null],
    ['no byline', '', null],
  ])('%s', (_, html, byline) => {
    expect(bylineOf(html)).toBe(byline);
  });
});

describe("Readability's article HTML, built for a debug message nobody reads", () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is not made: the article is never serialized, the page reads the same, and the HTML accessor is put back', () => {
    // What a browser page has and Node lacks (linkedom gives the rest).
    vi.stubGlobal('NodeFilter', { SHOW_ELEMENT: 1, SHOW_TEXT: 4 });
    const paragraph = '<p>Длинный абзац статьи, в котором довольно много слов, запятых, и смысла, чтобы его взяли.</p>';
    const { document, Node } = parseHTML(`<html><head><title>Статья</title></head><body><nav><a href="/">Меню</a></nav><article><h1>Статья</h1>${paragraph.repeat(8)}</article></body></html>`);
    vi.stubGlobal('Node', Node);
    let proto = Object.getPrototypeOf(document.createElement('div')) as object;
    while (!Object.prototype.hasOwnProperty.call(proto, 'innerHTML')) proto = Object.getPrototypeOf(proto) as object;
    const original = Object.getOwnPropertyDescriptor(proto, 'innerHTML')!;
    const detachedDivsRead: string[] = [];
    const counting: PropertyDescriptor = {
      ...original,
      get(this: Element) {
        if (this.tagName === 'DIV' && !this.parentNode) detachedDivsRead.push(this.tagName);
        return original.get!.call(this) as string;
      },
    };
    Object.defineProperty(proto, 'innerHTML', counting);
    try {
      const { text } = extractFromPage(document as unknown as Document, { articleOnly: true });
      expect(text.blocks.map((b) => b.kind)).toEqual(['title', ...Array(8).fill('paragraph')]);
      expect(detachedDivsRead).toEqual([]);
      expect(Object.getOwnPropertyDescriptor(proto, 'innerHTML')!.get).toBe(counting.get);
      const div = document.createElement('div');
      div.innerHTML = '<b>x</b>';
      expect(div.innerHTML).toBe('<b>x</b>');
    } finally {
      Object.defineProperty(proto, 'innerHTML', original);
    }
  });
});

describe("Readability's copy of the page's HTML, kept in case it looks again", () => {
  afterEach(() => vi.unstubAllGlobals());
  const paragraph = '<p>Длинный абзац статьи, в котором довольно много слов, запятых, и смысла, чтобы его взяли.</p>';

  /** Extracts from `html` counting the reads of a `<body>`'s HTML. */
  function extractCounting(html: string) {
    vi.stubGlobal('NodeFilter', { SHOW_ELEMENT: 1, SHOW_TEXT: 4 });
    const { document, Node } = parseHTML(html);
    vi.stubGlobal('Node', Node);
    let proto = Object.getPrototypeOf(document.createElement('div')) as object;
    while (!Object.prototype.hasOwnProperty.call(proto, 'innerHTML')) proto = Object.getPrototypeOf(proto) as object;
    const original = Object.getOwnPropertyDescriptor(proto, 'innerHTML')!;
    let bodyReads = 0;
    Object.defineProperty(proto, 'innerHTML', {
      ...original,
      get(this: Element) {
        if (this.tagName === 'BODY') bodyReads++;
        return original.get!.call(this) as string;
      },
    });
    try {
      return { document: document as unknown as Document, ...extractFromPage(document as unknown as Document, { articleOnly: true }), bodyReads };
    } finally {
      Object.defineProperty(proto, 'innerHTML', original);
    }
  }

  it('is never made: a page whose article is found at once, and one found on a second look', () => {
    expect(extractCounting(`<html><head><title>Статья</title></head><body><article>${paragraph.repeat(8)}</article></body></html>`).bodyReads).toBe(0);
    expect(extractCounting(`<html><head><title>Статья</title></head><body><div class="sidebar">${paragraph.repeat(8)}</div></body></html>`).bodyReads).toBe(0);
  });

  it('an article found on a second look (in a "sidebar", left out on the first) is read whole, its words found on the live page', () => {
    const { document, text, segments } = extractCounting(
      `<html><head><title>Статья</title></head><body><div class="sidebar"><h2>Раздел</h2>${paragraph.repeat(8)}</div></body></html>`,
    );
    expect(text.blocks.map((b) => b.kind)).toEqual(['title', 'heading', ...Array(8).fill('paragraph')]);
    // Each paragraph is highlighted where it is: its text nodes are the live page's, not a copy's.
    for (const blockSegments of segments.slice(1)) {
      expect(blockSegments.length).toBeGreaterThan(0);
      for (const segment of blockSegments) expect(segment.node.ownerDocument).toBe(document);
    }
  });

  it('a page with too little text for an article reads what Readability found', () => {
    const { text } = extractCounting(`<html><head><title>Короткая</title></head><body><div class="comment"><p>Совсем короткий текст.</p></div><p>Ещё абзац.</p></body></html>`);
    expect(text.blocks.map((b) => b.text)).toEqual(['Короткая', 'Совсем короткий текст.', 'Ещё абзац.']);
  });
});

describe('an article read title first: its title before Readability runs, then the rest', () => {
  afterEach(() => vi.unstubAllGlobals());
  const paragraph = '<p>Длинный абзац статьи, в котором довольно много слов, запятых, и смысла, чтобы его взяли.</p>';
  const page = (head: string, body: string) => {
    vi.stubGlobal('NodeFilter', { SHOW_ELEMENT: 1, SHOW_TEXT: 4 });
    const { document, Node } = parseHTML(`<html><head>${head}</head><body>${body}</body></html>`);
    vi.stubGlobal('Node', Node);
    return document as unknown as Document;
  };

  it.each<[string, string, string, string, boolean]>([
    ['the headline on the page', '<title>Статья о реке и мосте — Газета</title>', `<nav><a href="/">Меню</a></nav><article><h1>Статья о реке и мосте</h1>${paragraph.repeat(8)}</article>`, 'Статья о реке и мосте', true],
    ['a headline that is the title letter for letter', '<title>Статья о реке и мосте</title>', `<article><h1>Статья  о реке и мосте</h1>${paragraph.repeat(8)}</article>`, 'Статья о реке и мосте', true],
    ["a headline in other case and stops: the page's own words", '<title>Статья о реке и мосте</title>', `<article><h1>СТАТЬЯ о реке, и мосте!</h1>${paragraph.repeat(8)}</article>`, 'СТАТЬЯ о реке, и мосте!', true],
    ["the site's name in an h1 before the headline", '<title>Статья о реке и мосте</title>', `<header><h1>Газета</h1></header><article><h1>Статья о реке и мосте</h1>${paragraph.repeat(8)}</article>`, 'Статья о реке и мосте', true],
    ["the page's metadata (og:title) over its <title>", '<title>Газета</title><meta property="og:title" content="Новый мост через реку">', `<article>${paragraph.repeat(8)}</article>`, 'Новый мост через реку', false],
    ['only <title>', '<title>Заметка о погоде на завтра</title>', `<div>${paragraph.repeat(8)}</div>`, 'Заметка о погоде на завтра', false],
    [
      "the page's JSON-LD headline (the first that parses) over its metas",
      '<title>Газета</title><meta property="og:title" content="Заголовок из меты"><script type="application/ld+json">{ broken</script><script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"Мост через реку откроют весной"}</script>',
      `<article><h1>Мост через реку откроют весной</h1>${paragraph.repeat(8)}</article>`,
      'Мост через реку откроют весной',
      true,
    ],
    ['a <title> with a colon that an h2 holds whole', '<title>Мосты: как их строят зимой в Сибири</title>', `<article><h2>Мосты: как их строят зимой в Сибири</h2>${paragraph.repeat(8)}</article>`, 'Мосты: как их строят зимой в Сибири', true],
    ['a short <title>, one h1: the h1', '<title>Итоги</title>', `<article><h1>Как строят мосты через реки</h1>${paragraph.repeat(8)}</article>`, 'Как строят мосты через реки', true],
  ])('%s: the title first, then the rest, are the article read whole', (_name, head, body, title, onPage) => {
    const whole = extractFromPage(page(head, body), { articleOnly: true });
    const doc = page(head, body);
    const early = titleFirst(doc, 100_000)!;
    expect(early.text).toMatchObject({ title, blocks: [{ text: title, kind: 'title' }], more: true });
    // The background finds the same from what the injected function read of the page.
    const read = pageFacts(100_000, doc)!;
    expect(titleFirstFromHead(read.head!, read.title, 100_000)).toEqual(early.text);
    // Marked on the page where it is there (the text of its h1, or of the heading that shows it).
    expect(early.segments[0]!.length > 0).toBe(onPage);
    const rest = extractFromPage(doc, { articleOnly: true, headline: { text: early.text.title, segments: early.segments[0]! } });
    expect(whole.text.blocks[0]).toEqual({ text: title, kind: 'title' });
    expect(rest.text.blocks).toEqual(whole.text.blocks);
    // The page's text bounds what is read.
    expect(early.text.bound).toBeGreaterThanOrEqual(whole.text.blocks.reduce((n, b) => n + b.text.length, 0));
  });

  it.each<[string, string, string, number]>([
    ['too little text to surely hold an article', '<title>Коротко</title>', '<p>Два слова.</p>', 100_000],
    ['more text than may be read without asking first', '<title>Статья</title>', `<article>${paragraph.repeat(8)}</article>`, 300],
    ['a title too long to be the first part alone', `<title>${'Очень длинный заголовок '.repeat(8)}</title>`, `<article>${paragraph.repeat(8)}</article>`, 100_000],
    ['no title at all', '', `<article>${paragraph.repeat(8)}</article>`, 100_000],
    ['a title too short to play while the rest is fetched', '<title>Итоги года</title>', `<article>${paragraph.repeat(8)}</article>`, 100_000],
    ['a title of two sentences (read whole, the second goes with the first words)', '<title>Кто виноват? Разбираемся в деталях</title>', `<article>${paragraph.repeat(8)}</article>`, 100_000],
    ['a title mostly in a script the service does not read', '<title>Ελληνικός τίτλος του άρθρου</title>', `<article>${paragraph.repeat(8)}</article>`, 100_000],
  ])('not read title first: %s', (_name, head, body, most) => {
    expect(titleFirst(page(head, body), most)).toBeNull();
    const read = pageFacts(most, page(head, body));
    expect(read?.head ? titleFirstFromHead(read.head, read.title, most) : null).toBeNull();
  });
});

describe("whether a page may be read title first, from its tab's title alone (its script put in at once if not)", () => {
  it.each<[string, string | undefined, boolean]>([
    ['a headline and its site', 'Статья о реке и мосте — Газета', true],
    ['a headline in English', 'How the bridge over the river was built', true],
    ['20 characters: the shortest title read first', 'Мост через реку Оку.', true],
    ['19 characters', 'Mozilla - Wikipedia', false],
    ['a word', 'Document', false],
    ['empty', '', false],
    ['spaces around a short one', '   Мост через реку   ', false],
    ['mostly in letters the service does not read', '宇航员在太空中喝酒会怎么样？后果很严重 _探索者 _光明网', false],
    ['half in them', 'Новости 東京都の天気予報です', false],
    ['not known (no title in the tab)', undefined, true],
  ])('%s', (_, title, may) => {
    expect(mayBeReadTitleFirst(title)).toBe(may);
  });
});

describe("an article's bound: never less than what its reading bills (before the listener's rules)", () => {
  afterEach(() => vi.unstubAllGlobals());
  const page = (body: string) => {
    vi.stubGlobal('NodeFilter', { SHOW_ELEMENT: 1, SHOW_TEXT: 4 });
    const { document, Node } = parseHTML(`<html><head><title>Статья о том, как читают страницы</title></head><body><article><h1>Статья о том, как читают страницы</h1>${body}</article></body></html>`);
    vi.stubGlobal('Node', Node);
    return document as unknown as Document;
  };
  const words = 'Обычный абзац статьи с запятыми, словами и смыслом, чтобы его взяли в статью.';

  it.each<[string, string]>([
    ['plain Russian prose', `<p>${words}</p>`.repeat(12)],
    ['ligatures and letters folding writes as two or three (ﬃ → ffi, ß → ss, ї → йи)', `<p>${words} ﬃﬃﬃ ßß її Æther.</p>`.repeat(12)],
    ['bare addresses of non-ASCII domains, read as their site as written', `<p>${words} Сайты www.я.я.я.рф и http://пример.рф и www.例え.jp.</p>`.repeat(12)],
    ['addresses with non-ASCII paths, and one with a user before its non-ASCII host', `<p>${words} Ссылки https://example.com/страница, http://user:пароль@я.я.рф/путь и www.例え.jp/パス.</p>`.repeat(12)],
    ['many tiny blocks (each gets a line break; headings a full stop)', `<p>${words}</p>`.repeat(6) + '<h3>а</h3><p>б</p>'.repeat(80)],
  ])('%s', (_name, body) => {
    const whole = extractFromPage(page(body), { articleOnly: true });
    const early = titleFirst(page(body), Number.MAX_SAFE_INTEGER)!;
    expect(early).not.toBeNull();
    const billed = planParts(whole.text.blocks, { urls: 'domain' }).estimateChars;
    expect(billed).toBeGreaterThan(0);
    expect(early.text.bound).toBeGreaterThanOrEqual(billed);
  });

  it.each<[string, string, string, number]>([
    ['plain text: one for each character', 'Простой текст, plain text.', 'Заголовок', 26 + 27],
    ['three for a character folding may write as three', 'ﬃ и é', 'Заголовок', 5 + 4 + 27],
    ['Russian letters at the alphabet’s ends (А, Я, а, я, Ё, ё) one each; a character of two code units three for each', 'Ёжик ёлка АЯая 😀', 'Заголовок', 17 + 4 + 27],
    ['a bare address of a Cyrillic domain: its site as written is no longer', 'см. www.я.рф', 'Заголовок', 12 + 27],
    ['an ASCII address is read no longer than written', 'см. https://example.com/a', 'Заголовок', 25 + 27],
    ['an ASCII host with a non-ASCII path: its domain is ASCII', 'см. https://example.com/я', 'Заголовок', 25 + 27],
    ['a non-ASCII host after user and password', 'см. https://user:pw@я.рф/', 'Заголовок', 25 + 27],
    ["a script's text: an address, then a quote (where a bare address ends) and words", 'f("https://example.com/s.js",a);b("What’s")', 'Заголовок', 43 + 2 + 27],
  ])('billedBound: %s', (_name, text, title, bound) => {
    // The page's text as the injected function reads it (its counts), a body of that text alone.
    const { document } = parseHTML('<html><body></body></html>');
    document.body.textContent = text;
    const head = pageFacts(Number.MAX_SAFE_INTEGER, document as unknown as Document)?.head;
    expect(head).toMatchObject({ textLength: text.length, elements: 0 });
    expect(billedBound(head!, title)).toBe(bound);
  });
});
