/**
 * The docs check (`npm run docs`, part of `npm test`):
 * - every relative link in README.md, CONTRIBUTING.md and docs/*.md leads to a file or folder of the
 *   repository, and an `#anchor` to a heading there (GitHub's anchors);
 * - every `data-testid` of the shared contract (../shared/CONTRACT.md) is named in docs/testing.md;
 * - the state table in docs/architecture.md is the one utils/reading/machine.ts makes, and its table of which
 *   folder of utils/ imports which is the one the imports make;
 * - every effect of machine.ts is in the effects' legend of docs/architecture.md;
 * - the shared folder-cycle tool (../shared/tools/folder-cycles.mjs) finds no circle among the folders of utils/.
 *
 * `--write-states` (`npm run docs:states`) writes those tables instead of checking them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { contractTestIds, missingIds } from './contract.ts';
import { type Files, relativeLinksOf, resolveLink } from './markdown.ts';
import { stateTable, withTable } from './states.ts';
import { folderImports, IMPORTS_BEGIN, IMPORTS_END, importTable } from './imports.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const ARCHITECTURE = 'docs/architecture.md';
const TESTING = 'docs/testing.md';
const CONTRACT = resolve(ROOT, '../shared/CONTRACT.md');
const FOLDER_CYCLES = resolve(ROOT, '../shared/tools/folder-cycles.mjs');

const files: Files = {
  kind(path) {
    const full = join(ROOT, path);
    if (!existsSync(full)) return null;
    return statSync(full).isDirectory() ? 'dir' : 'file';
  },
  read: (path) => readFileSync(join(ROOT, path), 'utf8'),
};

const docs = ['README.md', 'CONTRIBUTING.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

function brokenLinks(): string[] {
  const problems: string[] = [];
  for (const doc of docs) {
    if (files.kind(doc) !== 'file') {
      problems.push(`${doc}: missing`);
      continue;
    }
    for (const link of relativeLinksOf(files.read(doc))) {
      const why = resolveLink(doc, link.target, files);
      if (why) problems.push(`${doc}:${link.line}: ${why}`);
    }
  }
  return problems;
}

function untestedIds(): string[] {
  if (!existsSync(CONTRACT)) {
    console.warn(`docs: ${CONTRACT} is not there (the shared documents sit beside this checkout, not in it): the data-testid check is skipped`);
    return [];
  }
  const missing = missingIds(contractTestIds(readFileSync(CONTRACT, 'utf8')), files.read(TESTING));
  return missing.map((id) => `${TESTING}: the contract's data-testid \`${id}\` is not named`);
}

/** Every effect of the reading's table (`Effect` in machine.ts) has its row in the effects' legend of docs/architecture.md. */
function unexplainedEffects(): string[] {
  const machine = files.read('utils/reading/machine.ts');
  // To the `;` that ends the type (its members' comments have their own).
  const union = /export type Effect =([\s\S]*?);\n(?!\s*(?:\||\/\*))/.exec(machine)?.[1] ?? '';
  const effects = [...union.matchAll(/\|\s*'([a-z-]+)'/g)].map((m) => m[1]!);
  const legend = /What the effects do[\s\S]*?\n\n(\|[\s\S]*?)\n\n/.exec(files.read(ARCHITECTURE))?.[1] ?? '';
  if (effects.length === 0) return ['utils/reading/machine.ts: no `Effect` union found for the effects\' legend'];
  return effects.filter((e) => !legend.includes(`\`${e}\``)).map((e) => `${ARCHITECTURE}: the effect \`${e}\` is not in the effects' legend`);
}

/** What the shared folder-cycle tool prints: each circle among the folders of utils/ (nothing when there is none). */
function folderCycles(): string[] {
  if (!existsSync(FOLDER_CYCLES)) {
    console.warn(`docs: ${FOLDER_CYCLES} is not there (the shared documents sit beside this checkout, not in it): the folder-cycle check is skipped`);
    return [];
  }
  // It prints each circle and exits 1 when there is one; anything else it says is a failure of its own.
  const run = spawnSync(process.execPath, [FOLDER_CYCLES], { cwd: ROOT, encoding: 'utf8' });
  const circles = run.stdout
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => `utils/ folders import each other in a circle: ${line.trim()} (docs/architecture.md#which-folder-may-import-which)`);
  if (run.status !== 0 && circles.length === 0) return [`folder-cycles.mjs failed (${run.status}): ${run.stderr.trim()}`];
  return circles;
}

/** The generated tables of docs/architecture.md: what is wrong with them, or (`write`) nothing, once written. */
function staleTables(write: boolean): string[] {
  const tables = [
    { name: 'state table', from: 'utils/reading/machine.ts', markers: undefined, table: stateTable() },
    { name: "table of the folders' imports", from: 'the imports in utils/', markers: [IMPORTS_BEGIN, IMPORTS_END] as const, table: importTable(folderImports(join(ROOT, 'utils'))) },
  ];
  const now = files.read(ARCHITECTURE);
  let wanted = now;
  for (const t of tables) {
    const next = withTable(wanted, t.table, t.markers);
    if (next === null) return [`${ARCHITECTURE}: the markers of the ${t.name} are missing`];
    if (next !== wanted && !write) return [`${ARCHITECTURE}: the ${t.name} is not the one ${t.from} makes: run \`npm run docs:states\` and commit the result`];
    wanted = next;
  }
  if (write && wanted !== now) {
    writeFileSync(join(ROOT, ARCHITECTURE), wanted);
    console.log(`docs: ${ARCHITECTURE}: its tables written from the code`);
  }
  return [];
}

const write = process.argv.includes('--write-states');
const problems = write ? staleTables(true) : [...brokenLinks(), ...untestedIds(), ...staleTables(false), ...unexplainedEffects(), ...folderCycles()];
for (const problem of problems) console.error(problem);
if (problems.length) process.exit(1);
if (!write) console.log(`docs: ${docs.length} files, links, test surface, generated tables and folder cycles checked`);
