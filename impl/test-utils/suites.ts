/**
 * Test-only helpers for suites that depend on files which may be absent, such as the standard's
 * corpus in ../shared (the project must pass its own tests on a fresh clone without it).
 */
import { existsSync } from 'node:fs';
import { describe, it } from 'vitest';

/**
 * Declares the suite only when every path exists. vitest runs a skipped suite's body to collect
 * its tests, so `describe.skipIf` cannot guard a body that reads the files at collection time;
 * this never runs the body of an absent suite, and reports one skipped test naming what is missing.
 */
export function describeWhenPresent(paths: string | readonly string[], name: string, body: () => void): void {
  const missing = (typeof paths === 'string' ? [paths] : paths).filter((p) => !existsSync(p));
  if (missing.length === 0) describe(name, body);
  else describe.skip(name, () => it(`needs ${missing.join(', ')}`, () => undefined));
}
