import { defineConfig } from 'vitest/config';

// The tests Stryker runs against each mutant (npm run mutate, stryker.config.mjs).
// Only fast, in-process unit tests of the mutated modules: no test here spawns a
// process, opens a port or talks to NATS, so one mutant costs milliseconds, not seconds.
// A test written to kill mutants goes next to its module as `<module>.mutants.test.ts`
// and is picked up by the globs below.
export default defineConfig({
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
