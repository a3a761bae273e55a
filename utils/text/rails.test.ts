import { describe, expect, it } from 'vitest';
import { type RailFacts, railBlocks } from './rails';

const p = (chars: number, linkChars = 0): RailFacts => ({ chars, linkChars, kind: 'paragraph' });
const teaser = p(60, 60);

describe('rails of links inside an article', () => {
  it.each<[string, RailFacts[], number[]]>([
    ['prose only', [p(400), p(300, 20), p(500)], []],
    ['three teasers in a row, then a heading', [p(400), teaser, teaser, teaser, { chars: 20, linkChars: 0, kind: 'heading' }], [1, 2, 3]],
    ['three teasers, the last one the headline of the prose after it (a section front)', [p(400), teaser, teaser, teaser, p(300)], [1, 2]],
    ['two teasers are a "read also", kept', [p(400), teaser, teaser, p(300)], []],
    ['a long linked paragraph is not a teaser', [p(400, 400), p(400, 400), p(400, 400)], []],
    ['a sentence with a link in it is not a teaser', [p(80, 30), p(80, 30), p(80, 30)], []],
    ['runs split by prose', [teaser, teaser, teaser, p(300), teaser, teaser], [0, 1]],
    ['the title is never part of one', [{ chars: 60, linkChars: 60, kind: 'title' }, teaser, teaser], []],
    ['a rail at the very end', [p(300), teaser, teaser, teaser, teaser], [1, 2, 3, 4]],
    ['headings of teasers count too', [{ chars: 50, linkChars: 50, kind: 'heading' }, teaser, teaser], [0, 1, 2]],
    ['a short paragraph after a run is not its summary', [teaser, teaser, teaser, p(40)], [0, 1, 2]],
  ])('%s', (_n, blocks, rail) => expect([...railBlocks(blocks)].sort((a, b) => a - b)).toEqual(rail));
});
