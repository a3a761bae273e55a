/**
 * The site's own blurb after an article, in the site's home language and not the article's: an English post on a
 * Düsseldorf agency's site that ends with "emit digital ist eine Webagentur …" in German (pure; `blocks.ts` asks it
 * of the article's last blocks). Languages are told apart by their commonest short words, among the languages
 * written in Latin letters only: a Russian page's English quote, or an English page's Russian one, is never taken
 * for a blurb. Runs in the content script.
 */

const FUNCTION_WORDS: Record<string, ReadonlySet<string>> = {
  en: new Set('the and of to in is are was were that this with for from by on at it as be have has not or which'.split(' ')),
  de: new Set('der die das und ist sind nicht mit für von zu auf dem den des ein eine einen als auch sich wir ihr sie bei oder'.split(' ')),
  fr: new Set('le la les et est sont des du une un pour dans avec sur par pas que qui nous vous au aux ce cette'.split(' ')),
  es: new Set('el la los las y es son del una un para con por que en se no su sus al lo como más'.split(' ')),
  it: new Set('il lo la gli le e è sono del della dei una un per con che di non si al nel sul come più'.split(' ')),
  nl: new Set('de het een en is zijn van voor met op niet dat die wij ons ook bij als aan te naar'.split(' ')),
  pt: new Set('o a os as e é são do da dos das um uma para com por que não se ao no na como mais'.split(' ')),
};

/** A block's language by its short words, when they say so clearly (at least 4, twice as many as the runner-up's). */
export function latinLanguageOf(text: string): string | null {
  // A block in another script is told at a glance, before its words are counted.
  if (!/[a-z]{2}/i.test(text.slice(0, 200))) return null;
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  if (words.length < 12) return null;
  // Mostly not Latin letters (Cyrillic, Greek, …): none of these.
  const latin = words.filter((w) => /^[a-zà-ÿß]+$/u.test(w)).length;
  if (latin * 2 < words.length) return null;
  const counts = Object.entries(FUNCTION_WORDS)
    .map(([lang, set]) => [lang, words.filter((w) => set.has(w)).length] as const)
    .sort((a, b) => b[1] - a[1]);
  const [best, second] = counts;
  return best![1] >= 4 && best![1] >= 2 * second![1] ? best![0] : null;
}

/** Blocks looked at, at the article's start and at its end: a long page costs no more than a short one. */
const LOOKED_AT = 40;

/** The article's language: the one most of its first clear blocks are in (up to 3,000 characters of them are weighed). */
function mainLanguage(blocks: readonly string[]): string | undefined {
  const chars = new Map<string, number>();
  let weighed = 0;
  for (const block of blocks.slice(0, LOOKED_AT)) {
    const lang = latinLanguageOf(block);
    if (!lang) continue;
    chars.set(lang, (chars.get(lang) ?? 0) + block.length);
    if ((weighed += block.length) >= 3000) break;
  }
  return [...chars].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/**
 * How many of the last blocks are in another language than the article's: 0 unless they hold at least 150
 * characters and at most a fifth of the article. A block whose language is unclear (a short line, a name) after
 * them goes with them; the first block from the end in the article's language ends the tail. Only the article's
 * first blocks and its last are weighed.
 */
export function foreignTailLength(blocks: readonly string[]): number {
  const main = mainLanguage(blocks);
  if (!main) return 0;
  let n = 0;
  let foreign = 0;
  let foreignChars = 0;
  for (let k = blocks.length - 1; k >= Math.max(0, blocks.length - LOOKED_AT); k--) {
    const lang = latinLanguageOf(blocks[k]!);
    if (lang === main) break;
    n++;
    // Unclear blocks between the article's last and the tail's first stay with the article.
    if (lang) foreign = n;
  }
  for (let k = blocks.length - foreign; k < blocks.length; k++) foreignChars += blocks[k]!.length;
  const total = blocks.reduce((sum, b) => sum + b.length, 0);
  return foreign > 0 && foreignChars >= 150 && foreignChars * 5 <= total ? foreign : 0;
}
