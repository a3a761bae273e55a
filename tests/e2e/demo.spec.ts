import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';

// The README's first command ends in `npm run demo`; its --check mode reads the
// sample's first part with real (espeak-ng) speech in headless Chromium.
test('npm run demo -- --check reads the sample article and audio plays', async () => {
  test.setTimeout(120_000);
  const root = resolve(import.meta.dirname, '../..');
  const child = spawn(process.execPath, [resolve(root, 'node_modules/tsx/dist/cli.mjs'), 'scripts/demo.ts', '--check'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const code = await new Promise<number | null>((ok) => child.on('exit', ok));
  expect(code, out).toBe(0);
  const result = JSON.parse(out.trim().split('\n').filter((l) => l.startsWith('{')).at(-1)!);
  expect(result.ok).toBe(true);
  expect(result.firstPartText).toContain('Как устроен голос');
});
