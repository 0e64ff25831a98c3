/** Helpers that turn one case into one Check, so no family can forget the throw path. */
import type { Check } from './types.js';

export function pass(name: string): Check {
  return { name, status: 'pass' };
}

export function fail(name: string, detail: string): Check {
  return { name, status: 'fail', detail };
}

/** A case this implementation does not run; `detail` says why (`skipped: ...`). */
export function skip(name: string, detail: string): Check {
  return { name, status: 'skip', detail };
}

/** The same checks, each attributed to `integration` (types.ts `Check.integration`). */
export function attribute(checks: readonly Check[], integration: string): Check[] {
  return checks.map((c) => ({ ...c, integration }));
}

/** Describes anything thrown, for a detail line: `threw TypeError: x is not a function`. */
export function describeThrown(err: unknown): string {
  if (err instanceof Error) return `threw ${err.name}: ${err.message}`;
  return `threw ${typeof err === 'string' ? err : JSON.stringify(err) ?? String(err)}`;
}

/**
 * Runs one case. `body` returns `null` on success or the failure detail; an exception
 * (from the implementation under test or from a malformed case) is a failure, never a crash.
 */
export function attempt(name: string, body: () => string | null): Check {
  try {
    const problem = body();
    return problem === null ? pass(name) : fail(name, problem);
  } catch (err) {
    return fail(name, describeThrown(err));
  }
}
