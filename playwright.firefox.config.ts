import { defineConfig } from '@playwright/test';

// The Firefox suite: the Playwright runner, with puppeteer-core driving firefox-esr
// over WebDriver BiDi (tests/e2e-firefox/firefox.ts). Run after the Chromium suite,
// never beside it: one browser at a time on two cores.
export default defineConfig({
  testDir: 'tests/e2e-firefox',
  // One clear failure, before any test, on a Firefox without a mock audio output.
  globalSetup: './tests/e2e-firefox/global-setup.ts',
  // Two Firefoxes, one spec file each (36 tests: 5.5 min on one worker, 3.5 on two). A keystroke once
  // lost under that load is now checked and typed again (`fill` in fixtures.ts); two runs of the whole
  // suite on two workers were green.
  workers: 2,
  // Every test on whichever worker is free (each has its own Firefox, service and pages): no file runs alone at the end.
  fullyParallel: true,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  retries: 0,
  reporter: [['list']],
});
