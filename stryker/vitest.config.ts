import { defineConfig } from 'vitest/config';

// The tests Stryker runs against each mutant (npm run mutate, stryker.config.mjs).
// The pure modules' tests are fast, in-process unit tests: one mutant costs milliseconds.
// The I/O modules (issue 37: ingest, SSE, subscription, sink writer, the sidecar's sink) are
// held by their own tests, which open loopback ports and write temporary files (never a
// child process or NATS): a mutant there costs up to a few seconds, and per-test coverage
// runs only the tests that reach it.
// A test written to kill mutants goes next to its module as `<module>.mutants.test.ts`
// and is picked up by the globs below.
export default defineConfig({
  // Some of the I/O modules' tests reach the hook shim, CommonJS TypeScript (.cts): transform it like .ts.
  oxc: { include: /\.(m?ts|cts|[jt]sx)$/ },
  test: {
    include: [
      // The core's unit tests.
      'impl/core/**/*.test.ts',
      // Report totals and certification.
      'runners/conformance/{certify,report,report-totals}.test.ts',
      'runners/conformance/*.mutants.test.ts',
      // The kit's held loop, commands, gates, attention desk and observed cards.
      'impl/adapter-kit/{held-loop,commands,gate,observed-cards}.test.ts',
      'impl/adapter-kit/*.mutants.test.ts',
      // The relay's buffer, render, control and positions.
      'impl/relay/{buffer,buffer.dedupe,control,positions,sse-bytes,sse-bytes.memo,capture-audit}.test.ts',
      'impl/relay/*.mutants.test.ts',
      // The fleet's names and ownership (their pure parts).
      'impl/relay/fleet/*.mutants.test.ts',
      // Where the I/O is: the relay's ingest, SSE writer and subscription.
      'impl/relay/{http,limits,sse,backpressure,subscription,replay,hub}.test.ts',
      // The sink writer.
      'impl/operator/{sink-files,sink-writer.property}.test.ts',
      'impl/operator/*.mutants.test.ts',
      // The sidecars' retry (bridge-ce's sink and the sidecar loop around it).
      'impl/bridges/ce/{retry-status,pure,sidecar}.test.ts',
      'impl/bridges/ce/*.mutants.test.ts',
      // The console's answers, commands and model (pure: no DOM, no socket).
      'impl/console/web/*.test.ts',
      // The hook wiring (pure) and `aep setup hooks` / `unhooks` (in-process, temporary files).
      'impl/operator/hook-wiring/*.test.ts',
      'impl/cli/{setup-hooks,setup-backups}.test.ts',
      'impl/cli/setup-hooks*.mutants.test.ts',
    ],
    exclude: [
      // Property tests (fast-check, thousands of generated runs each) and the 100,000-deep
      // hostile inputs take seconds per run: too slow to repeat for every mutant on shared
      // cores. The example tests must hold each behaviour on their own.
      '**/*.fast.test.ts',
      'impl/core/hostile.test.ts',
    ],
    testTimeout: 20_000,
  },
});
