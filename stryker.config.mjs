// Mutation testing of the pure decision modules (issue 25) and the I/O modules a user sees
// break first (issue 37): `npm run mutate`.
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
    // Where the I/O is (issue 37): the relay's ingest, SSE writer and subscription, the sink
    // writer, the sidecars' retry (the sink's retry decision and Retry-After reading). Their
    // tests open loopback ports and write temporary files, so run them one module at a time.
    'impl/relay/{ingest,sse,subscription}.ts',
    'impl/operator/sink-writer.ts',
    'impl/bridges/ce/sink.ts',
    // The console's answer path (what a clicked button sends) and its model, the hook wiring
    // and `aep setup hooks` / `unhooks` (issue 37: the two escapes were there).
    'impl/console/web/{answers,commands,model}.ts',
    'impl/operator/hook-wiring/*.ts',
    '!impl/operator/hook-wiring/*.test.ts',
    'impl/cli/setup-hooks.ts',
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
