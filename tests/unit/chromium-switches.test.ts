import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DISABLED_FEATURES } from '../e2e/chromium.ts';

/**
 * Chromium takes the last `--disable-features` it is given: the tests' launch (tests/e2e/chromium.ts)
 * repeats the features Playwright turns off before its own. This fails when a Playwright upgrade
 * changes its list, so that the copy follows it.
 */
describe("the tests' Chromium switches", () => {
  it("turn off every feature Playwright's own switches turn off", () => {
    const root = dirname(createRequire(import.meta.url).resolve('playwright-core/package.json'));
    const bundle = readFileSync(join(root, 'lib/coreBundle.js'), 'utf8');
    const list = /\bdisabledFeatures = \[([\s\S]*?)\]\.filter\(Boolean\)/.exec(bundle)?.[1];
    expect(list, "Playwright's list of disabled features was not found in playwright-core/lib/coreBundle.js").toBeDefined();
    const features = [...list!.replace(/\/\/.*$/gm, '').matchAll(/"([A-Za-z0-9]+)"/g)].map((m) => m[1]!);
    // Edge-only and macOS-only features need not be repeated.
    const needed = features.filter((f) => !f.startsWith('ms'));
    expect(needed.length).toBeGreaterThan(5);
    expect(needed.filter((f) => !DISABLED_FEATURES.includes(f))).toEqual([]);
  });
});
