import { defineConfig } from '@playwright/test';

// The Firefox suite: the Playwright runner, with puppeteer-core driving firefox-esr
// over WebDriver BiDi (tests/e2e-firefox/firefox.ts). Run after the Chromium suite,
// never beside it: one browser at a time on two cores.
export default defineConfig({
  testDir: 'tests/e2e-firefox',
  // One clear failure, before any test, on a Firefox without a mock audio output.
  globalSetup: './tests/e2e-firefox/global-setup.ts',
  // One Firefox at a time: with two, a keystroke was lost under load in two of four full runs.
  workers: 1,
  fullyParallel: false,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  retries: 0,
  reporter: [['list']],
});
