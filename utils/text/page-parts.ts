/**
 * Parts of a page inside an article's container that are not the article, told by their markup (pure; the
 * extraction walk asks it of every element): readers' comments and reviews, tooltips and hover cards, share
 * and follow bars, the author's box. Signals are ARIA roles, schema.org microdata and the words sites' class names are made of,
 * never a site's name. Each is bounded so the article itself is never taken for one (a share bar is short; a
 * comments block is a whole element whose class says so exactly). Runs in the content script.
 */

/** Class or id tokens, split at spaces, `-` and `_` ("comment-list" → comment, list). */
function tokensOf(el: Element): string[] {
  return `${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`.toLowerCase().split(/[\s_-]+/).filter(Boolean);
}

/** Readers' comments and reviews: a block whose class or id names them (whole tokens), or microdata that says so. */
const COMMENT_TOKENS = new Set(['comments', 'comment', 'commentlist', 'disqus', 'responses', 'replies', 'otzyvy', 'otzivy', 'otzyv', 'kommentarii', 'talkback']);
/** Tokens that, beside a comment token, say the block is not readers' comments ("comment-count" badges stay short and go anyway; "review-body" of a review article is the article). */
const NOT_COMMENTS = new Set(['body', 'content', 'text', 'article', 'entry', 'post', 'main', 'count', 'link', 'icon', 'enabled']);
const TOOLTIP_TOKENS = new Set(['tooltip', 'tooltips', 'tooltiptext', 'rollover', 'popover', 'hovercard', 'popup', 'hover']);
const SHARE_TOKENS = new Set(['share', 'sharing', 'shares', 'sharebar', 'social', 'socials', 'follow', 'sharethis', 'addthis', 'shareaholic']);

/** The author's box: "author-bio", "entry-author-profile", "about-author" (a byline's "article-author" link is not one). */
const AUTHOR_BOX_TOKENS = new Set(['bio', 'biography', 'box', 'description', 'profile', 'about', 'card']);

export type PagePart = 'comments' | 'tooltip' | 'share' | 'author';

/**
 * What part of the page `el` is, when it is not the article's; null for the article's own elements. `articleChars`:
 * the length of the whole article's text; readers' comments are never most of it (a review marked up as a
 * schema.org Review is the article).
 */
export function pagePartOf(el: Element, articleChars: number | (() => number) = Infinity): PagePart | null {
  const part = partOf(el);
  // The article's length is asked for only then (counting a long article's text is not quick).
  return (part === 'comments' || part === 'author') && textLength(el) * 2 > (typeof articleChars === 'function' ? articleChars() : articleChars) ? null : part;
}

function partOf(el: Element): PagePart | null {
  const role = el.getAttribute('role');
  if (role === 'tooltip') return 'tooltip';
  const itemprop = el.getAttribute('itemprop') ?? '';
  const itemtype = el.getAttribute('itemtype') ?? '';
  if (/(^|\s)(comment|review)s?(\s|$)/i.test(itemprop) || /schema\.org\/(Comment|Review|UserComments)$/i.test(itemtype)) return 'comments';
  const tokens = tokensOf(el);
  if (tokens.length === 0) return null;
  if (tokens.some((t) => TOOLTIP_TOKENS.has(t)) && textLength(el) <= 1500) return 'tooltip';
  if (tokens.some((t) => COMMENT_TOKENS.has(t)) && !tokens.some((t) => NOT_COMMENTS.has(t))) return 'comments';
  // The author's box under (or over) the article: a picture, a name, a few lines about them.
  if (tokens.includes('author') && tokens.some((t) => AUTHOR_BOX_TOKENS.has(t)) && textLength(el) <= 1200) return 'author';
  // A share or follow bar is a row of buttons and handles: short.
  // Not an embedded post ("social-media-embed": a quoted tweet is the author's quote).
  if (tokens.some((t) => SHARE_TOKENS.has(t)) && !tokens.some((t) => t.startsWith('embed')) && !el.querySelector('blockquote') && textLength(el) <= 200) return 'share';
  return null;
}

const textLength = (el: Element) => (el.textContent ?? '').replace(/\s+/g, ' ').trim().length;

/**
 * A heading that opens the readers' section: «Отзывы», "Comments (12)", "3 Responses", "Leave a Reply",
 * «Комментарии (5)». What follows it, to the next heading as high, is theirs. "Review" and "Response" alone are
 * not: they head the author's own review of an item in a buying guide, or a section on an API's Response object.
 */
export const COMMENTS_HEADING =
  /^(?:\d+\s+)?(?:comments?|reviews|(?:customer|user|reader)s?'? reviews|(?:write|leave) a review|responses|(?<=\d\s+)response|replies|reader comments|join the (?:conversation|discussion)|leave a (?:reply|comment)|add a comment|post a comment|what do you think\??|отзывы|отзывов|комментарии|комментариев|комментарий|\d+\s+комментари[йяев]+|оставить (?:комментарий|отзыв)|оставьте (?:комментарий|отзыв)|добавить (?:комментарий|отзыв)|написать (?:комментарий|отзыв)|обсуждение)(?:\s*\(\d+\))?(?:\s*:)?$/i;

/**
 * A heading that opens the site's own section after an article, not the author's: "More from SewCanShe:", "More
 * Articles You Might Enjoy", "Related posts", "Meet the testers", "Why We’re the Experts", "Why trust us", "Checking
 * our work", "About the author", «Об авторе», «Похожие статьи». What follows it, to the next heading as high, is
 * left out (and counted).
 */
export const SITE_SECTION_HEADING =
  /^(?:more from (?!(?:the|this|that|our|my|his|her|their|its) )[\p{L}\d .&'’-]{2,40}|more (?:articles|stories|posts|reviews|guides) (?:you (?:might|may) (?:enjoy|like)|like this|to read)|(?:you (?:might|may) )?also (?:like|enjoy)|related (?:posts|articles|stories|reading|content|guides|reviews)|meet the (?:testers?|experts?|team|authors?|reviewers?)|why (?:we['’]re|we are) the experts?|why (?:you should )?trust (?:us|our [\p{L} ]{2,30})|checking our work\.?|about (?:the )?authors?|об авторе|об авторах|похожие (?:статьи|материалы|записи|публикации)|читайте также|другие материалы)(?:\s*:)?$/iu;
