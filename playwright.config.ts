import { defineConfig } from '@playwright/test';

// One browser at a time: the machines have two cores, and audio playback runs in
// real time, so parallel browsers only make timings noisy.
export default defineConfig({
  testDir: 'tests/e2e',
  workers: 1,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: { trace: 'off' },
});
