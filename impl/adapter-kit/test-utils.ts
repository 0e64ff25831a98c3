/**
 * Moved to `test-utils/daemon-harness.ts` (issue 35). This re-export stays only for the console's
 * tests (`impl/console/`, owned by a concurrent change) and goes once they import the new path.
 * `impl/floors.test.ts` names it as its one pending exception.
 */
export * from './test-utils/daemon-harness.js';
