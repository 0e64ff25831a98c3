// Mutation testing of the pure decision modules (issue 25): `npm run mutate`.
// A part: `npm run mutate -- --mutate impl/core/filter.ts`.
// Score table for the README: `node --experimental-strip-types runners/mutation/summary.ts`
// (reads reports/mutation/mutation.json). See docs/mutation.md.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'stryker/vitest.config.ts' },
  checkers: ['typescript'],
  tsconfigFile: 'stryker/tsconfig.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: 'perTest',
  // The machine's cores are shared: one test runner, one checker.
  concurrency: 1,
  mutate: [
    'impl/core/**/*.ts',
    '!impl/core/**/*.test.ts',
    'impl/adapter-kit/{held-loop,held,held-requests,commands,gate,steering-desk,observed-cards}.ts',
    'impl/relay/{buffer,render,render-link,control,positions}.ts',
    'impl/relay/fleet/{names,ownership}.ts',
    'runners/conformance/{report-totals,certify}.ts',
  ],
  ignorePatterns: ['dist', 'coverage', 'reports', '.stryker-tmp'],
  reporters: ['clear-text', 'json', 'progress'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, reportTests: false },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  timeoutMS: 10_000,
  // Incremental mode: a re-run reuses the results of mutants whose code and covering tests
  // did not change since the last run (kept in the file below).
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
};
