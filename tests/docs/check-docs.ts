/**
 * The docs check (`npm run docs`, part of `npm test`):
 * - every relative link in README.md, CONTRIBUTING.md and docs/*.md leads to a file or folder of the
 *   repository, and an `#anchor` to a heading there (GitHub's anchors);
 * - every `data-testid` of the shared contract (../shared/CONTRACT.md) is named in docs/testing.md;
 * - the state table in docs/architecture.md is the one utils/reading/machine.ts makes, and its table of which
 *   folder of utils/ imports which is the one the imports make.
 *
 * `--write-states` (`npm run docs:states`) writes those tables instead of checking them.
 */
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
const problems = write ? staleTables(true) : [...brokenLinks(), ...untestedIds(), ...staleTables(false)];
for (const problem of problems) console.error(problem);
if (problems.length) process.exit(1);
if (!write) console.log(`docs: ${docs.length} files, links, test surface and generated tables checked`);
