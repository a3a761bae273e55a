/**
 * Rails of links inside an article ("More stories", a column of teasers, a list of other headlines that
 * Readability took for part of the story): runs of short blocks that are links and nothing else. Pure over the
 * blocks' lengths and the share of each that is link text; `blocksOf` (extract.ts) leaves the runs out.
 */

/** A block this much link text (or more) is a link, not a sentence with one. */
export const RAIL_LINK_SHARE = 0.9;
/** A teaser is short: a headline, perhaps with its rubric. */
export const RAIL_BLOCK_CHARS = 160;
/** This many such blocks in a row make a rail (one or two are a sentence's links, a "read also"). */
export const RAIL_RUN = 3;

export interface RailFacts {
  chars: number;
  linkChars: number;
  kind: 'title' | 'heading' | 'paragraph';
}

const isTeaser = (b: RailFacts) => b.kind !== 'title' && b.chars > 0 && b.chars <= RAIL_BLOCK_CHARS && b.linkChars >= RAIL_LINK_SHARE * b.chars;

/** A paragraph of prose: the summary a teaser's headline goes with (a section front's "headline, then its summary"). */
const isProse = (b: RailFacts | undefined) => !!b && b.kind === 'paragraph' && b.chars > 60 && b.linkChars < 0.5 * b.chars;

/**
 * The indexes of the blocks that are part of a rail: `RAIL_RUN` or more teasers in a row. The last of a run
 * that prose follows is kept: it is the headline of that prose (a page of teasers, each a headline and its
 * summary, read as summaries without their headlines otherwise).
 */
export function railBlocks(blocks: readonly RailFacts[]): Set<number> {
  const out = new Set<number>();
  let start = 0;
  for (let i = 0; i <= blocks.length; i++) {
    if (i < blocks.length && isTeaser(blocks[i]!)) continue;
    const end = isProse(blocks[i]) ? i - 1 : i;
    if (i - start >= RAIL_RUN) for (let k = start; k < end; k++) out.add(k);
    start = i + 1;
  }
  return out;
}
