import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { COMMENTS_HEADING, pagePartOf, SITE_SECTION_HEADING } from './page-parts';

const el = (html: string) => parseHTML(`<html><body>${html}</body></html>`).document.body.firstElementChild as unknown as Element;

describe('parts of a page that are not the article', () => {
  it.each([
    ['<span role="tooltip">Ilhan Omar: latest stories</span>', 'tooltip'],
    ['<span class="rollover-people-block"><a>Ilhan Omar</a><a>Hillicon Valley: …</a></span>', 'tooltip'],
    ['<div class="share-bar"><a>Facebook</a><a>Twitter</a></div>', 'share'],
    ['<div id="comments"><p>Great article!</p></div>', 'comments'],
    ['<ol class="comment-list"><li>First!</li></ol>', 'comments'],
    ['<div itemprop="comment"><p>I disagree.</p></div>', 'comments'],
    ['<div itemscope itemtype="https://schema.org/Comment"><p>Nice.</p></div>', 'comments'],
    ['<div class="entry-author-description author-bio"><p>Angela first became a professional writer in kindergarten.</p></div>', 'author'],
    ['<div class="about-author"><b>Jane Doe</b><p>Jane writes about gardens.</p></div>', 'author'],
    // Kept: the article's own blocks, whatever their classes say besides.
    ['<div class="comment-body">The article\'s text.</div>', null],
    ['<div class="entry-content">The article.</div>', null],
    // A byline's link to the author's page is not the author's box.
    ['<a class="meta_txt article-author" href="/author/archie-fenn/">Archie Fenn</a>', null],
    ['<div class="social-media-embed"><blockquote class="twitter-tweet"><p>Yes this is real.</p></blockquote></div>', null],
    ['<div class="mv-create-reviews"><h3>Ingredients</h3></div>', null],
    [`<div class="social-story">${'A long story about social media. '.repeat(20)}</div>`, null],
  ])('%s → %s', (html, want) => expect(pagePartOf(el(html))).toBe(want));

  it('a comments block that is most of the article is the article (a review marked up as one)', () => {
    const review = el('<div itemprop="review"><p>The whole review of the film, as written.</p></div>');
    expect(pagePartOf(review, 50)).toBeNull();
    expect(pagePartOf(review, 500)).toBe('comments');
  });

  it("the article's length is counted only for a comments or an author box (counting a long article is slow)", () => {
    let asked = 0;
    const count = () => (asked++, 500);
    expect(pagePartOf(el('<p>Just a paragraph of the article.</p>'), count)).toBeNull();
    expect(pagePartOf(el('<div class="share-bar">Share</div>'), count)).toBe('share');
    expect(asked).toBe(0);
    expect(pagePartOf(el('<div itemprop="review"><p>The whole review of the film, as written.</p></div>'), count)).toBe('comments');
    expect(asked).toBe(1);
  });

  it.each([
    ['Comments', true],
    ['3 Responses', true],
    ['Leave a Reply', true],
    ['Отзывы', true],
    ['Комментарии (5)', true],
    ['Оставить комментарий', true],
    ['Comments on the new law', false],
    ['Отзывы врачей о диете', false],
    ['Reviews (12)', true],
    ['Customer reviews', true],
    ['Write a review', true],
    ['Review', false],
    // "Response" alone heads the author's own section (the Fetch API's Response object, corpus 002).
    ['Response', false],
    ['1 Response', true],
  ])('heading %s opens the readers\' section → %s', (heading, want) => expect(COMMENTS_HEADING.test(heading)).toBe(want));

  it.each([
    ['More from SewCanShe', true],
    ['More Articles You Might Enjoy', true],
    ['Related posts', true],
    ['Meet the testers', true],
    ['Why We’re the Experts', true],
    ['Why trust us', true],
    ['Checking our work.', true],
    ['About the author', true],
    ['Об авторе', true],
    ['Похожие статьи', true],
    // The author's own sections
    ['More from the interview', false],
    ['More about the battery', false],
    ['Related work', false],
    ['Why the experts disagree', false],
    ['Meet the new boss', false],
  ])("heading %s opens the site's own section → %s", (heading, want) => expect(SITE_SECTION_HEADING.test(heading.toLowerCase())).toBe(want));
});
