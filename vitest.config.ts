import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The hook shim is CommonJS TypeScript (.cts, for a lean start): transform it like .ts.
  oxc: { include: /\.(m?ts|cts|[jt]sx)$/ },
  test: {
    include: ['spec/**/*.test.ts', 'impl/**/*.test.ts', 'runners/**/*.test.ts', 'bench/**/*.test.ts'],
    testTimeout: 20_000,
    pool: 'forks',
    // After the suite: no process it started is still alive (impl/test-utils/leftover-processes.ts).
    globalSetup: ['./impl/test-utils/leftover-processes.ts'],
    // The default output, then every skipped test counted by the reason its title names (impl/test-utils/skip-reporter.ts).
    reporters: ['default', './impl/test-utils/skip-reporter.ts'],
    coverage: {
      provider: 'v8',
      include: ['impl/core/**/*.ts'],
      exclude: ['**/*.test.ts'],
      reporter: ['text-summary'],
      thresholds: { lines: 90 },
    },
  },
});
