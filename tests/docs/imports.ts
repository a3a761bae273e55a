/**
 * Which folder of `utils/` imports which, as docs/architecture.md shows it: read from the product modules'
 * imports (type imports included, tests left out). `npm run docs:states` writes it between its markers; the
 * docs check compares it with what is there. Whether the folders make a circle is the folder-cycle tool's.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

export const IMPORTS_BEGIN = '<!-- imports:begin (written by `npm run docs:states` from the imports in utils/; do not edit by hand) -->';
export const IMPORTS_END = '<!-- imports:end -->';

const SPECIFIER = /(?:^|[;\s])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|[;\s])import\s*['"]([^'"]+)['"]/g;

/** The module specifiers `source` imports from. */
export function specifiersOf(source: string): string[] {
  return [...source.matchAll(SPECIFIER)].map((m) => m[1] ?? m[2] ?? m[3]!).filter(Boolean);
}

/** The folder of `utils/` a specifier written in `file` reaches (null: none, or a file beside the folders). */
export function folderReached(specifier: string, file: string, utilsDir: string): string | null {
  let target: string;
  if (specifier.startsWith('.')) target = resolve(dirname(file), specifier);
  else if (specifier.startsWith('@/utils/')) target = join(utilsDir, specifier.slice('@/utils/'.length));
  else return null;
  const inside = relative(utilsDir, target);
  if (inside.startsWith('..') || !inside.includes(sep)) return null;
  return inside.split(sep)[0]!;
}

function modulesOf(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return modulesOf(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Each folder of `utilsDir` and the other folders its product modules import. */
export function folderImports(utilsDir: string): Map<string, Set<string>> {
  const folders = readdirSync(utilsDir).filter((name) => statSync(join(utilsDir, name)).isDirectory()).sort();
  const graph = new Map(folders.map((f) => [f, new Set<string>()]));
  for (const folder of folders) {
    for (const file of modulesOf(join(utilsDir, folder))) {
      for (const spec of specifiersOf(readFileSync(file, 'utf8'))) {
        const to = folderReached(spec, file, utilsDir);
        if (to !== null && to !== folder && graph.has(to)) graph.get(folder)!.add(to);
      }
    }
  }
  return graph;
}

/** The table, markers included: the folders that import fewest first. */
export function importTable(graph: Map<string, Set<string>>): string {
  const list = (names: Iterable<string>, none: string) => {
    const sorted = [...names].sort();
    return sorted.length ? sorted.map((n) => `\`${n}\``).join(', ') : none;
  };
  const order = [...graph.keys()].sort((a, b) => graph.get(a)!.size - graph.get(b)!.size || a.localeCompare(b));
  const rows = order.map((f) => {
    const importedBy = order.filter((g) => graph.get(g)!.has(f));
    return `| \`${f}/\` | ${list(graph.get(f)!, 'no other folder')} | ${list(importedBy, 'no other folder')} |`;
  });
  return [IMPORTS_BEGIN, '', '| folder | imports | imported by |', '|---|---|---|', ...rows, '', IMPORTS_END].join('\n');
}
