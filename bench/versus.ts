/**
 * `npm run bench -- --ab <git ref> --only <rows> [--pairs 5]`: the chosen rows of the bench, run on the
 * build of `<ref>` (A) and of the working tree (B) in turns — A, B, A, B … — in one run on one machine, so
 * the machine's own drift from one hour to the next falls on both. Each row is reported as B's median over
 * A's, the median of the pairs' ratios with their lowest and highest, and the median difference with its
 * spread (the middle half of the pairs' differences). Every change on a hot path says this figure.
 *
 * The ref is checked out beside the working tree (`.cache/ab/<commit>`, a git worktree; its node_modules a
 * link to this tree's when the lockfiles are the same, else installed), and built there: the test builds
 * of both browsers, and the production one when the bundle row is asked for. B is the working tree's builds,
 * as `npm run bench` has just made them, copied aside so nothing rebuilds them during the run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { median, quantile, type Row } from './report.ts';

const ROOT = resolve(import.meta.dirname, '..');
const OUTPUTS = { chromium: 'chrome-mv3-test', firefox: 'firefox-mv2-test', production: 'chrome-mv3' } as const;

interface Side {
  name: 'A' | 'B';
  label: string;
  /** Where each build of this side is. */
  dirs: Record<keyof typeof OUTPUTS, string>;
}

const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): void {
  const done = spawnSync(cmd, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...env } });
  if (done.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd} (${done.status})`);
}

/** The ref checked out and built beside the working tree (done once per commit: kept in `.cache/ab`). */
function buildRef(ref: string, needs: ReadonlySet<keyof typeof OUTPUTS>): Side {
  const commit = git('rev-parse', '--verify', `${ref}^{commit}`);
  const dir = join(ROOT, '.cache', 'ab', commit.slice(0, 12));
  if (!existsSync(join(dir, 'package.json'))) {
    rmSync(dir, { recursive: true, force: true });
    git('worktree', 'prune');
    git('worktree', 'add', '--detach', dir, commit);
  }
  if (!existsSync(join(dir, 'node_modules'))) {
    const same = readFileSync(join(dir, 'package-lock.json'), 'utf8') === readFileSync(join(ROOT, 'package-lock.json'), 'utf8');
    if (same) symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    else run('npm', ['ci', '--ignore-scripts'], dir);
  }
  const built = (name: keyof typeof OUTPUTS) => existsSync(join(dir, '.output', OUTPUTS[name], 'manifest.json'));
  if (needs.has('chromium') && !built('chromium')) run('npx', ['wxt', 'build', '--mode', 'test'], dir);
  if (needs.has('firefox') && !built('firefox')) run('npx', ['wxt', 'build', '-b', 'firefox', '--mode', 'test'], dir);
  if (needs.has('production') && !built('production')) run('npx', ['wxt', 'build'], dir);
  const dirs = Object.fromEntries(Object.entries(OUTPUTS).map(([k, v]) => [k, join(dir, '.output', v)])) as Side['dirs'];
  return { name: 'A', label: `${ref} (${commit.slice(0, 7)})`, dirs };
}

/** The working tree's builds, copied aside. */
function workingTree(): Side {
  const dir = join(ROOT, '.cache', 'ab', 'working-tree');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const dirs = {} as Side['dirs'];
  for (const [k, v] of Object.entries(OUTPUTS) as Array<[keyof typeof OUTPUTS, string]>) {
    const from = join(ROOT, '.output', v);
    if (existsSync(from)) cpSync(from, join(dir, v), { recursive: true });
    dirs[k] = join(dir, v);
  }
  const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
  return { name: 'B', label: `working tree (${git('rev-parse', '--short', 'HEAD')}${dirty ? ', changed' : ''})`, dirs };
}

/** A row's figure: its `num`, else the first number its value gives (the median, in the bench's own wording). */
export function figureOf(row: Row): number | null {
  if (typeof row.num === 'number') return row.num;
  const m = /-?\d[\d,]*(?:\.\d+)?/.exec(row.value.replace(/median\s+/, ''));
  return m ? Number(m[0].replace(/,/g, '')) : null;
}

/** One bench run of `only` on `side`'s builds: its rows. */
function benchOnce(side: Side, only: string, passOn: string[]): Row[] {
  const out = join(ROOT, '.cache', 'ab', `rows-${side.name}.json`);
  run('npx', ['tsx', 'bench/run.ts', '--only', only, '--out', out, ...passOn], ROOT, {
    TRYSASHA_EXTENSION_DIR: side.dirs.chromium,
    TRYSASHA_FIREFOX_EXTENSION_DIR: side.dirs.firefox,
    TRYSASHA_PRODUCTION_EXTENSION_DIR: side.dirs.production,
  });
  return (JSON.parse(readFileSync(out, 'utf8')) as { table: Row[] }).table;
}

export interface Compared {
  measure: string;
  a: number;
  b: number;
  /** B over A: the median of the pairs' ratios, and the lowest and highest. */
  ratio: number;
  ratioLow: number;
  ratioHigh: number;
  /** B − A: the median of the pairs' differences, and the middle half of them. */
  diff: number;
  diffLow: number;
  diffHigh: number;
  pairs: number;
}

/** Pure: each row's figures, paired run by run, compared. Rows without a figure in every run are left out. */
export function compare(runsA: Row[][], runsB: Row[][]): Compared[] {
  const measures = runsA[0]?.map((r) => r.measure) ?? [];
  const out: Compared[] = [];
  for (const measure of measures) {
    const pick = (runs: Row[][]) => runs.map((rows) => rows.find((r) => r.measure === measure)).map((r) => (r ? figureOf(r) : null));
    const a = pick(runsA);
    const b = pick(runsB);
    const n = Math.min(a.length, b.length);
    if (n === 0 || [...a.slice(0, n), ...b.slice(0, n)].some((x) => x === null)) continue;
    const pairs = Array.from({ length: n }, (_, i) => [a[i]!, b[i]!] as const);
    const ratios = pairs.filter(([x]) => x !== 0).map(([x, y]) => y / x);
    const diffs = pairs.map(([x, y]) => y - x);
    out.push({
      measure,
      a: median(pairs.map(([x]) => x)),
      b: median(pairs.map(([, y]) => y)),
      ratio: ratios.length ? median(ratios) : NaN,
      ratioLow: ratios.length ? Math.min(...ratios) : NaN,
      ratioHigh: ratios.length ? Math.max(...ratios) : NaN,
      diff: median(diffs),
      diffLow: quantile(diffs, 0.25),
      diffHigh: quantile(diffs, 0.75),
      pairs: n,
    });
  }
  return out;
}

const f = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : '—');

export async function versus(ref: string, only: string, pairs: number, passOn: string[]): Promise<void> {
  const rows = only.split(',');
  const needs = new Set<keyof typeof OUTPUTS>();
  for (const r of rows) needs.add(r === 'bundle' ? 'production' : r.startsWith('firefox') ? 'firefox' : 'chromium');
  const b = workingTree();
  const a = buildRef(ref, needs);
  const runsA: Row[][] = [];
  const runsB: Row[][] = [];
  for (let i = 0; i < pairs; i++) {
    process.stderr.write(`ab: pair ${i + 1} of ${pairs}: A (${a.label}), then B\n`);
    runsA.push(benchOnce(a, only, passOn));
    runsB.push(benchOnce(b, only, passOn));
  }
  const compared = compare(runsA, runsB);
  const width = Math.max(7, ...compared.map((c) => c.measure.length));
  console.log(`A: ${a.label}\nB: ${b.label}\n${pairs} pairs, run A, B, A, B …\n`);
  console.log(`${'measure'.padEnd(width)} | A median | B median | B/A (lowest–highest) | B−A (middle half)`);
  console.log('-'.repeat(width + 70));
  for (const c of compared) {
    console.log(`${c.measure.padEnd(width)} | ${f(c.a).padStart(8)} | ${f(c.b).padStart(8)} | ${f(c.ratio, 2)} (${f(c.ratioLow, 2)}–${f(c.ratioHigh, 2)})`.padEnd(width + 48) + ` | ${f(c.diff)} (${f(c.diffLow)} … ${f(c.diffHigh)})`);
  }
  writeFileSync(join(ROOT, 'bench', 'ab-results.json'), JSON.stringify({ date: new Date().toISOString(), a: a.label, b: b.label, pairs, only, compared, runsA, runsB }, null, 2) + '\n');
}
