/**
 * What a listener never wants read, told from a block's text or a `<pre>` alone: code blocks (marked as code,
 * or dense in code's punctuation), table-of-contents leaders, drawn tables, edit links, and the labels and
 * buttons sites put between paragraphs. The extraction walk (`extract.ts`) asks these; so does the corpus oracle.
 * Runs in the content script.
 */

import { isSpaceCode } from './chars';
import { isSiteLine } from './site-lines';

// Node's constant, without needing a DOM global (unit tests run these on a parsed document).
const TEXT_NODE = 3;

/** A class that marks code: syntax highlighters' and documentation generators' (Pygments, highlight.js, Prism, GitHub). */
const CODE_CLASS = /(^|\s)(highlight|highlight-\S+|sourceCode|code|codehilite|hljs|prettyprint|brush:?|language-\S+|lang-\S+|src|src-\S+)(\s|$)/i;

/** A `<pre>` that holds code (left out by default), not preformatted prose (an RFC, a poem). */
export function isCodeBlock(pre: Element): boolean {
  return isMarkedAsCode(pre) || looksLikeCode(pre);
}

/** A `<pre>` its markup calls code: a `<code>` inside, a highlighter's class on it or its parent, a language attribute. */
export function isMarkedAsCode(pre: Element): boolean {
  if (pre.querySelector('code')) return true;
  const cls = `${pre.getAttribute('class') ?? ''} ${pre.parentElement?.getAttribute('class') ?? ''}`;
  return CODE_CLASS.test(cls) || pre.hasAttribute('data-lang') || pre.hasAttribute('data-language');
}

/**
 * Characters code is dense in and prose is not: no quotes or colons, which dialogue is full of ("Он сказал: "Да"").
 * Prose has few of its visible characters among them, an RFC's page in a `<pre>` (prose, HTTP examples) a few more.
 */
const CODE_CHARS = /[{}()[\];=<>\\/*&|$#@`_]/g;
/** A line as code ends (or begins) it: `;`, a bracket, a comma. */
const CODE_LINE = /[;{}([,)]$|^[}\])]/;

/**
 * Code with no mark of code (Medium's `<pre>` of `<span>` lines and `<br>`s): two lines or more, at least 12 % of
 * its visible characters code's punctuation, or 8 % with most of its lines ending as code lines do. Chosen on the
 * saved pages of two corpora (Readability's, Postlight's): the bounds fall between Medium's unmarked code (its
 * lines of Java ending so) and the pages of an RFC (fewer than half of their lines so ended).
 */
function looksLikeCode(pre: Element): boolean {
  const lines: string[] = [''];
  const gather = (node: Node): void => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE) lines.push(...(lines.pop()! + (child as Text).data).split('\n'));
      else if ((child as Element).tagName?.toUpperCase() === 'BR') lines.push('');
      else gather(child);
    }
  };
  gather(pre);
  const filled = lines.map((l) => l.trim()).filter(Boolean);
  if (filled.length < 2) return false;
  const text = filled.join('');
  let visible = 0;
  for (let i = 0; i < text.length; i++) if (!isSpaceCode(text.charCodeAt(i))) visible++;
  if (visible < 20) return false;
  const density = (text.match(CODE_CHARS)?.length ?? 0) / visible;
  if (density >= 0.12) return true;
  return density >= 0.08 && filled.filter((l) => CODE_LINE.test(l)).length * 2 > filled.length;
}

/** "form........13", "1.  Introduction . . . . . 3": table-of-contents leaders. */
const DOT_LEADER = /(?:\.\s?){4,}\s*\d+\s*$|(?:\.\s){3,}\.?\s*\d+\s*$/;
const EDIT_LINK = /^\[\s*(edit|править|править код|править \| править код|edit source)\s*\]$/i;

/** Box drawing (U+2500–U+257F), block elements (to U+259F) and the ASCII-art rules: | + - = _ ~ * # < > ^ */
function isDrawingCode(c: number): boolean {
  return (c >= 0x2500 && c <= 0x259f) || c === 0x7c || c === 0x2b || c === 0x2d || c === 0x3d || c === 0x5f || c === 0x7e || c === 0x2a || c === 0x23 || c === 0x3c || c === 0x3e || c === 0x5e;
}

/** Three box-drawing characters in a row. */
const BOX_RUN = /[\u2500-\u257F]{3}/;

/** Any drawing character (`isDrawingCode`): a line with none is not drawing, and is not scanned. */
const DRAWING_CHAR = /[\u2500-\u259f|+\-=_~*#<>^]/;

/** A column bar: │ ┃ ║ | */
const isBarCode = (c: number) => c === 0x2502 || c === 0x2503 || c === 0x2551 || c === 0x7c;

/**
 * A line of a drawn table: mostly box drawing or rules, or a row between three or more column bars.
 * One pass over the line's characters (it runs on every block of an article: a regular expression's
 * matches, collected in arrays, were slow on a long page).
 */
function isDrawing(line: string): boolean {
  // Most prose has no drawing character at all (a native scan, quicker on a long page).
  if (!DRAWING_CHAR.test(line)) return false;
  let visible = 0;
  let drawing = 0;
  let bars = 0;
  let boxRun = 0;
  let longBoxRun = false;
  let firstVisible = -1;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    boxRun = c >= 0x2500 && c <= 0x257f ? boxRun + 1 : 0;
    if (boxRun >= 3) longBoxRun = true;
    if (isSpaceCode(c)) continue;
    visible++;
    if (firstVisible < 0) firstVisible = c;
    if (isDrawingCode(c)) drawing++;
    if (isBarCode(c)) bars++;
    // Prose: once the rest of the line, all drawing, could not make half of it, and it does not start
    // with a bar, only a run of box drawing is left to look for (a paragraph is scanned halfway, not whole).
    else if (!isBarCode(firstVisible) && visible - drawing > drawing + line.length - 1 - i) return longBoxRun || BOX_RUN.test(line);
  }
  if (visible < 3) return false;
  return drawing / visible >= 0.5 || longBoxRun || (bars >= 3 && isBarCode(firstVisible));
}

/** Text a listener never wants read: leaders, drawing, edit links. Lines with other words are kept whole. */
export function isJunkLine(line: string): boolean {
  const t = line.trim();
  if (t === '') return false;
  // A leader ends in a page number, an edit link in "]": most lines are neither, and skip those tests.
  const last = t.charCodeAt(t.length - 1);
  return (last >= 0x30 && last <= 0x39 && DOT_LEADER.test(t)) || isDrawing(t) || (last === 0x5d && EDIT_LINK.test(t));
}

/**
 * Whole blocks that are a site's labels and buttons, never its article (Readability keeps them): said between
 * two paragraphs they interrupt, and cost. Lower case, without end punctuation; dashes as " - ", ’ as '.
 */
const BOILERPLATE = new Set([
  'advertisement', 'advert', 'sponsored content', 'skip advertisement', 'advertisement - story continues below', 'story continues below advertisement',
  'story continues below', 'article continues below', 'article continues below advertisement', 'continue reading below', 'continue reading the main story',
  'share', 'share this', 'share this post', 'share this article', 'share this story', 'share on facebook', 'share on twitter', 'tweet', 'tweet this', 'pin it',
  'follow us', 'follow us on twitter', 'follow us on facebook', 'follow us on instagram', 'follow us on twitter & instagram', 'follow us on twitter and instagram',
  'follow us on social media', 'like us on facebook', 'share this video', 'video tools', 'previous', 'next', 'view comments', 'show comments', 'toggle caption', 'hide caption', 'show caption',
  "what's your reaction", 'most popular', 'recommended for you', 'related articles', 'related stories', 'related content', 'read more',
  'реклама', 'поделиться', 'поделитесь', 'поделиться в соцсетях', 'поделиться ссылкой', 'читайте также', 'читать далее', 'читать полностью',
  'материалы по теме', 'показать комментарии', 'самое читаемое', 'новости партнёров', 'новости партнеров', 'подписывайтесь на нас',
  'caption', 'close', 'close gallery', 'sign in', 'log in', 'skip to content', 'skip to main content', 'this slideshow requires javascript', "don't miss",
  'tell us what you think', 'leave a comment', 'leave a reply', 'add a comment', 'post a comment', 'load more', 'show more', 'see more', 'more stories',
  'you might also like', 'you may also like', 'trending now', 'recommended', 'related', 'more from', 'up next', 'watch next', 'most read', 'popular',
  'оставить комментарий', 'оставьте комментарий', 'добавить комментарий', 'написать комментарий', 'комментарии', 'отзывы', 'закрыть', 'войти',
  'показать ещё', 'показать еще', 'загрузить ещё', 'загрузить еще', 'по теме', 'популярное', 'рекомендуем', 'вам может быть интересно', 'другие новости',
  'by', 'reuters', 'associated press', 'the associated press', 'breaking news', 'order reprints', 'print article', 'print', 'text size', 'email', 'save', 'subscribe',
  'tags', 'see more photos', 'more photos', 'post navigation', 'navigation', 'автор', 'теги', 'метки',
  'нашли ошибку? выделите её и нажмите ctrl+enter', 'нашли опечатку? выделите её и нажмите ctrl+enter',
]);

/**
 * A block that is only a site's label or button ("Advertisement", "Share this post:", «Читайте также:»), or
 * one of its own lines (a "read also" teaser, a print-edition note, a credit, a lone date: `site-lines.ts`).
 */
export function isBoilerplate(block: string): boolean {
  return isLabel(block) || isSiteLine(block);
}

function isLabel(block: string): boolean {
  if (block.length > 60) return false;
  const key = block
    .toLowerCase()
    .replace(/\s*[-‐‑‒–—―]\s*/gu, ' - ')
    .replace(/[’ʼ]/gu, "'")
    .replace(/^[\s•·|>-]+|[\s:.…!?|•·>+-]+$/gu, '')
    .replace(/\s+/g, ' ');
  return BOILERPLATE.has(key);
}
