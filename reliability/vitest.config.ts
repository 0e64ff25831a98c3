import { defineConfig } from 'vitest/config';

// `npm run test:reliability`: the reliability suite (issue 14). AEP_RELIABILITY=ci runs the
// bounded version CI uses (fewer generated cases, a 10 s soak); the default is the full run.
export default defineConfig({
  // The hook shim is CommonJS TypeScript (.cts, for a lean start): transform it like .ts (as vitest.config.ts does).
  oxc: { include: /\.(m?ts|cts|[jt]sx)$/ },
  test: {
    include: ['reliability/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 30_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
