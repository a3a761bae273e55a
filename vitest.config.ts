import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';

export default defineConfig({
  plugins: [WxtVitest()],
  test: {
    include: ['utils/**/*.test.ts', 'tests/unit/**/*.test.ts', 'tests/fake-service/**/*.test.ts'],
    environment: 'node',
  },
});
