import { defineConfig } from '@playwright/test';

// Two test files at a time, each test with its own Chromium: the machines have two cores, and the
// tests wait on states, not on time. Measured on this machine: the suite takes 4.4–4.5 min with two
// workers (82 of 82, twice over) against 7.0 min with one. `--workers=1` for a quiet run.
export default defineConfig({
  testDir: 'tests/e2e',
  workers: 2,
  // Every test on whichever worker is free, not a file to a worker: each test has its own browser, service and
  // pages already, and a long file no longer runs alone at the end (issue 58's CI budget).
  fullyParallel: true,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: { trace: 'off' },
});
