import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { articleBodyOf, outsideBody } from './json-ld';

const more = 'Its controller is the one that came with the One S, and that is a good thing, because it was already the best one Microsoft ever made for its consoles.';
const body = `The Xbox One X is the ultimate video game system. It sports more horsepower than any system ever. And it plays more titles in native 4K than any other console. ${more} The only problem is the price, which is high for most people who play.`;
const p = (text: string) => ({ text, kind: 'paragraph' });

describe("what the page's articleBody leaves out", () => {
  it.each([
    {
      name: 'a teaser inside the article goes; the standfirst before it and the headings stay',
      blocks: [
        { text: 'Xbox One X review', kind: 'title' },
        p('But only hardcore gamers will appreciate it, says our reviewer.'),
        p('The Xbox One X is the ultimate video game system. It sports more horsepower than any system ever.'),
        { ...p('Read more: the best televisions to buy for your new console this year'), linkShare: 0.8 },
        p('A quoted post the body leaves out.'),
        { text: 'Hardware and what it plays', kind: 'heading' },
        p('And it plays more titles in native 4K than any other console.'),
        p(more),
        p('The only problem is the price, which is high for most people who play.'),
      ],
      out: [3],
    },
    {
      name: 'a body cut to a summary is not trusted',
      blocks: [p('The Xbox One X is the ultimate video game system.'), p('A long paragraph the summary does not hold, about the controller and its new buttons and the way it feels.'), p('Another paragraph the summary does not hold, about the games that came out with it last year.')],
      out: [],
    },
  ])('$name', ({ blocks, out }) => expect([...outsideBody(blocks, body)]).toEqual(out));

  it('reads the longest articleBody of the JSON-LD, in a @graph too, and passes over broken JSON', () => {
    const { document } = parseHTML(
      `<html><head><script type="application/ld+json">{ broken</script><script type="application/ld+json">{"@graph":[{"@type":"WebPage"},{"@type":"NewsArticle","articleBody":"${body}"}]}</script><script type="application/ld+json">[{"articleBody":"Short."}]</script></head><body></body></html>`,
    );
    expect(articleBodyOf(document as unknown as Document)).toBe(body);
  });
});
