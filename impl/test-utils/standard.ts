/**
 * Where tests find the AEP standard's checkout and the real vendor captures, one rule for every
 * test (test-only; nothing here is read at run time, and nothing found is ever copied):
 * - the standard: `AEP_STANDARD_DIR` when set, else `../shared/aep-standard` beside the package
 *   root (the directory of this package's package.json, never the working directory), so a test
 *   run from any directory, or from a worktree, reads or skips the same files;
 * - the vendor captures: `AEP_VENDOR_CAPTURES` when set, else `vendor-captures` beside the
 *   standard's directory (`../shared/vendor-captures` by default).
 * A worktree whose parent holds no `shared/` sets `AEP_STANDARD_DIR=/path/to/shared/aep-standard`.
 * Suites guard on what they read with `describeWhenPresent` (suites.ts) and skip when it is absent.
 */
import { dirname, join, resolve } from 'node:path';
import { packageRoot } from '../../runners/conformance/corpus.js';

type Env = Record<string, string | undefined>;

/** The standard's directory (holding spec/, schemas/, conformance/). */
export function standardDir(env: Env = process.env): string {
  const set = env.AEP_STANDARD_DIR;
  return set ? resolve(set) : join(packageRoot(), '..', 'shared', 'aep-standard');
}

/** A path inside the standard, e.g. `standardPath('conformance', 'fixtures', 'golden', 'golden.jsonl')`. */
export function standardPath(...parts: string[]): string {
  return join(standardDir(), ...parts);
}

/** The vendor captures' directory, or a vendor's capture set in it (e.g. `codex-0.171.0`). */
export function vendorCapturesDir(set?: string, env: Env = process.env): string {
  const dir = env.AEP_VENDOR_CAPTURES ? resolve(env.AEP_VENDOR_CAPTURES) : join(dirname(standardDir(env)), 'vendor-captures');
  return set ? join(dir, set) : dir;
}
