import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['spec/**/*.test.ts', 'impl/**/*.test.ts', 'runners/**/*.test.ts', 'bench/**/*.test.ts'],
    testTimeout: 20_000,
    pool: 'forks',
    coverage: {
      provider: 'v8',
      include: ['impl/core/**/*.ts'],
      exclude: ['**/*.test.ts'],
      reporter: ['text-summary'],
      thresholds: { lines: 90 },
    },
  },
});
