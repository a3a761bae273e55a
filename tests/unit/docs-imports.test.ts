import { describe, expect, it } from 'vitest';
import { folderReached, importTable, specifiersOf } from '../docs/imports';

describe("the folders' imports table: what a module imports, and which folder that is", () => {
  it.each<[string, string, string[]]>([
    ['a named import', "import { a } from '../text/parts';", ['../text/parts']],
    ['a type import, over lines', "import type {\n  A,\n  B,\n} from '@/utils/money/money';", ['@/utils/money/money']],
    ['a re-export', "export { x } from './x';", ['./x']],
    ['a side effect and a dynamic import', "import './style.css';\nconst m = await import('../pdf/reader');", ['./style.css', '../pdf/reader']],
    ['a word in a string is no import', "const s = 'import from nowhere';", []],
  ])('%s', (_name, source, want) => expect(specifiersOf(source).sort()).toEqual(want.sort()));

  it.each<[string, string, string | null]>([
    ['../text/parts', '/p/utils/reading/plan.ts', 'text'],
    ['./machine', '/p/utils/reading/plan.ts', 'reading'],
    ['@/utils/audio/cache', '/p/entrypoints/x.ts', 'audio'],
    ['../log', '/p/utils/reading/plan.ts', null],
    ['../../tests/unit/x', '/p/utils/reading/plan.ts', null],
    ['preact', '/p/utils/reading/plan.ts', null],
  ])('%s from %s: %s', (spec, file, folder) => expect(folderReached(spec, file, '/p/utils')).toBe(folder));

  it('the folders that import fewest first, each with whom it imports and who imports it', () => {
    const table = importTable(new Map([['reading', new Set(['text'])], ['text', new Set<string>()]]));
    expect(table.split('\n').filter((l) => l.startsWith('| `'))).toEqual(['| `text/` | no other folder | `reading` |', '| `reading/` | `text` | no other folder |']);
  });
});
