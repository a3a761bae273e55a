import { describe, expect, it } from 'vitest';
import { foreignTailLength, latinLanguageOf } from './foreign-tail';

const EN = 'The conference is one of the largest in the world, and it has been held in the city for more than a decade, with talks on the future of the web.';
const DE = 'emit digital ist eine Webagentur aus Düsseldorf. Wir konzipieren und entwickeln Web- und Digitallösungen für unsere Kunden aus aller Welt, die mit uns auch in Zukunft arbeiten.';
const RU = 'Конференция стала одной из крупнейших в мире, и её проводят в городе уже больше десяти лет, с докладами о будущем веба и о том, как он меняется.';

describe("a block's language by its short words", () => {
  it.each([
    [EN, 'en'],
    [DE, 'de'],
    ['Nous avons visité la ville avec nos amis et nous sommes restés dans un hôtel qui est sur la place du marché pour une semaine.', 'fr'],
    // Too short, or not in Latin letters: no answer.
    ['Date: January 6-9, 2026', null],
    [RU, null],
  ])('%s → %s', (text, want) => expect(latinLanguageOf(text)).toBe(want));
});

describe("the site's blurb in another language after the article", () => {
  it.each([
    ['a German blurb and its unclear lines after an English article', [EN, EN, EN, EN, EN, EN, EN, EN, DE, 'Sie suchen: Werbeagentur Düsseldorf / Werbeagentur Berlin'], 2],
    ['an English article alone', [EN, EN, EN], 0],
    // More than a fifth of the page is no blurb: a bilingual page.
    ['half in German', [EN, EN, DE, DE], 0],
    // A quote in another language inside the article is followed by the article's own language.
    ['a German quote in the middle', [EN, EN, EN, DE, EN, EN, EN, EN, EN], 0],
    // A Russian page's English ending is never taken for one: Cyrillic is not weighed.
    ['a Russian article ending in English', [RU, RU, RU, RU, RU, RU, EN], 0],
  ])('%s → %s', (_name, blocks, want) => expect(foreignTailLength(blocks)).toBe(want));
});
