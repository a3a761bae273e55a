/**
 * The docs check (`npm run docs`, part of `npm test`):
 * - every relative link in README.md, CONTRIBUTING.md and docs/*.md leads to a file or folder of the
 *   repository, and an `#anchor` to a heading there (GitHub's anchors);
 * - every `data-testid` of the shared contract (../shared/CONTRACT.md) is named in docs/testing.md;
 * - the state table in docs/architecture.md is the one utils/reading/machine.ts makes.
 *
 * `--write-states` (`npm run docs:states`) writes that table instead of checking it.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { contractTestIds, missingIds } from './contract.ts';
import { type Files, relativeLinksOf, resolveLink } from './markdown.ts';
import { stateTable, withTable } from './states.ts';

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

function staleStates(write: boolean): string[] {
  const now = files.read(ARCHITECTURE);
  const wanted = withTable(now, stateTable());
  if (wanted === null) return [`${ARCHITECTURE}: the state table's markers (<!-- states:begin … --> and <!-- states:end -->) are missing`];
  if (wanted === now) return [];
  if (write) {
    writeFileSync(join(ROOT, ARCHITECTURE), wanted);
    console.log(`docs: ${ARCHITECTURE}: the state table written from utils/reading/machine.ts`);
    return [];
  }
  return [`${ARCHITECTURE}: the state table is not the one utils/reading/machine.ts makes: run \`npm run docs:states\` and commit the result`];
}

const write = process.argv.includes('--write-states');
const problems = write ? staleStates(true) : [...brokenLinks(), ...untestedIds(), ...staleStates(false)];
for (const problem of problems) console.error(problem);
if (problems.length) process.exit(1);
if (!write) console.log(`docs: ${docs.length} files, links, test surface and state table checked`);
