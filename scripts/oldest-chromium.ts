/**
 * `npm run test:e2e:oldest`: the Chromium specs that lean on the engine most (the PDF page, where 150 once
 * failed; the welcome page and its sample, extension pages in tabs) on the oldest Chromium the extension supports
 * (`minimum_chrome_version` in wxt.config.ts), as well as on the newest the main suite runs on.
 *
 * The browser: `CHROMIUM_OLDEST_PATH`, else `.cache/chromium-oldest/usr/lib/chromium/chromium` (where `.ci/run`
 * unpacks Debian's main-suite package). Without one it says so and passes: a developer's machine may not
 * have it; CI always does. It must be the supported version, not a newer one: checked before running.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { MINIMUM_CHROME_VERSION } from '../wxt.config.ts';

const SPECS = ['tests/e2e/pdf.spec.ts', 'tests/e2e/welcome.spec.ts'];
const path = process.env.CHROMIUM_OLDEST_PATH ?? resolve(import.meta.dirname, '../.cache/chromium-oldest/usr/lib/chromium/chromium');

if (!existsSync(path)) {
  console.log(`test:e2e:oldest skipped: no Chromium ${MINIMUM_CHROME_VERSION} at ${path} (.ci/run puts Debian's there; or set CHROMIUM_OLDEST_PATH)`);
  process.exit(0);
}
const version = execFileSync(path, ['--version'], { encoding: 'utf8' }).trim();
const major = Number(/(\d+)\./.exec(version)?.[1] ?? 0);
if (major !== Number(MINIMUM_CHROME_VERSION)) {
  console.error(`test:e2e:oldest: ${path} is ${version}, not the supported minimum ${MINIMUM_CHROME_VERSION}`);
  process.exit(1);
}
console.log(`test:e2e:oldest: ${version}`);
const run = spawnSync('npx', ['playwright', 'test', ...SPECS], { stdio: 'inherit', env: { ...process.env, CHROMIUM_PATH: path } });
process.exit(run.status ?? 1);
