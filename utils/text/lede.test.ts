import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { ledeBetween } from './lede';

const LEDE = 'Власти города объявили, что новая линия метро откроется в декабре, на полгода раньше, чем обещали.';

/** The lede `ledeBetween` finds on a page whose article (Readability's pick) is `#body`: its text, or null. */
function ledeOn(html: string): string | null {
  const { document } = parseHTML(`<html><body>${html}</body></html>`);
  const h1 = document.querySelector('h1') as unknown as Element;
  const body = document.getElementById('body')!;
  const start = Array.from(body.childNodes).find((n) => n.nodeType === 3) ?? body.firstElementChild!.firstChild!;
  return ledeBetween(h1, start as unknown as Text)?.textContent?.trim() ?? null;
}

describe('the lede set apart between the headline and the body', () => {
  it.each([
    ['a lead block after the headline', `<h1>Метро</h1><div class="article__lead">${LEDE}</div><div id="body"><p>Второй абзац.</p></div>`, LEDE],
    ['a standfirst inside the header', `<header><h1>Metro</h1><p class="standfirst">The city says the new line opens in December, six months early.</p></header><div id="body"><p>Body.</p></div>`, 'The city says the new line opens in December, six months early.'],
    ['a camel-cased class', `<h1>Метро</h1><div class="textLead">${LEDE}</div><div id="body"><p>Второй абзац.</p></div>`, LEDE],
    // Not a lede
    ['a lead picture', `<h1>Метро</h1><div class="lead-image"><figcaption>${LEDE}</figcaption></div><div id="body"><p>Второй абзац.</p></div>`, null],
    ['a summary of links', `<h1>Метро</h1><div class="summary"><a href="/a">${LEDE}</a></div><div id="body"><p>Второй абзац.</p></div>`, null],
    ['a lede after the body starts (Readability kept it)', `<h1>Метро</h1><div id="body"><p>Первый.</p><div class="lead">${LEDE}</div></div>`, null],
    ['a block with no lede in its name', `<h1>Метро</h1><div class="byline">${LEDE}</div><div id="body"><p>Второй абзац.</p></div>`, null],
    ['too short', `<h1>Метро</h1><div class="lead">Метро скоро.</div><div id="body"><p>Второй абзац.</p></div>`, null],
  ])('%s', (_name, html, want) => expect(ledeOn(html)).toBe(want));
});
