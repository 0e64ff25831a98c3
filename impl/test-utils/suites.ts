/**
 * Test-only helpers for suites that depend on files which may be absent, such as the standard's
 * corpus in ../shared (the project must pass its own tests on a fresh clone without it).
 *
 * `STANDARD_DIR` is found the way ci.sh finds it: `AEP_STANDARD_DIR` when set (relative to the
 * package root, where ci.sh runs), else `../shared/aep-standard` beside the checkout. An absent
 * suite is never silent: it is reported as a skipped test naming the missing path and the
 * variable, and a warning goes to stderr; with `AEP_REQUIRE_SHARED=1` (CI with the standard
 * checked out) an absent path is a failing test instead of a skip.
 */
import { existsSync } from 'node:fs';
import { standardDir, standardPath } from './standard.js';
import { describe, it } from 'vitest';

/** The standard's checkout, by the one rule of standard.ts (`AEP_STANDARD_DIR`, else `../shared/aep-standard` beside the package root). */
export const STANDARD_DIR = standardDir();

/** The standard's conformance corpus. */
export const STANDARD_CORPUS = standardPath('conformance', 'fixtures');

/** Whether a missing shared path fails the run (`AEP_REQUIRE_SHARED=1`) instead of skipping. */
const REQUIRED = process.env.AEP_REQUIRE_SHARED === '1';

/**
 * Declares the suite only when every path exists. vitest runs a skipped suite's body to collect
 * its tests, so `describe.skipIf` cannot guard a body that reads the files at collection time;
 * this never runs the body of an absent suite, and reports one skipped test naming what is
 * missing (a failing one under `AEP_REQUIRE_SHARED=1`), with a warning on stderr.
 */
export function describeWhenPresent(paths: string | readonly string[], name: string, body: () => void): void {
  const missing = (typeof paths === 'string' ? [paths] : paths).filter((p) => !existsSync(p));
  if (missing.length === 0) {
    describe(name, body);
    return;
  }
  const why = `needs ${missing.join(', ')} (set AEP_STANDARD_DIR to the standard's checkout; default ../shared/aep-standard)`;
  if (REQUIRED) {
    describe(name, () =>
      it(why, () => {
        throw new Error(`AEP_REQUIRE_SHARED=1 and ${missing.join(', ')} is absent`);
      }),
    );
    return;
  }
  process.stderr.write(`SKIPPED suite "${name}": ${why}\n`);
  describe.skip(name, () => it(why, () => undefined));
}
