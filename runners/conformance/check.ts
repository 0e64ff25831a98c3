/** Helpers that turn one case into one Check, so no family can forget the throw path. */
import { createHash } from 'node:crypto';
import type { Check, PlannedCase, SyncCase } from './types.js';

/** JSON text with every object's members in code-unit order: two equal cases hash alike however their files order members. */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : sortedJson(v))).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedJson(obj[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** `sha256:<hex>` of one fixture case (member order ignored): what `Check.fixtureHash` carries. */
export function fixtureHash(fixture: unknown): string {
  return `sha256:${createHash('sha256').update(sortedJson(fixture)).digest('hex')}`;
}

/** The check with the hash of the fixture case it read. */
export function withFixture(check: Check, fixture: unknown): Check {
  return { ...check, fixtureHash: fixtureHash(fixture) };
}

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
 * `fixture`: the case as read from its file, hashed into `fixtureHash`.
 */
export function attempt(name: string, body: () => string | null, fixture?: unknown): Check {
  const check = run(name, body);
  return fixture === undefined ? check : withFixture(check, fixture);
}

function run(name: string, body: () => string | null): Check {
  try {
    const problem = body();
    return problem === null ? pass(name) : fail(name, problem);
  } catch (err) {
    return fail(name, describeThrown(err));
  }
}

/** {@link attempt}, named now and judged when the run calls `judge()` (`--list` never does). */
export function later(name: string, body: () => string | null, fixture?: unknown): SyncCase {
  return { name, judge: () => attempt(name, body, fixture) };
}

/** A case whose verdict the fixtures alone decide (a stray pin, a file with no adapter here): no judging to defer. */
export function known(check: Check): SyncCase {
  return { name: check.name, judge: () => check };
}

/** The same cases, each judged check attributed to `integration` (types.ts `Check.integration`). */
export function attributeCases(cases: readonly SyncCase[], integration: string): SyncCase[] {
  return cases.map((c) => ({ name: c.name, judge: () => ({ ...c.judge(), integration }) }));
}

/** Every case judged now, in order. */
export function judgeNow(cases: readonly SyncCase[]): Check[] {
  return cases.map((c) => c.judge());
}

/** Every case judged in order, each awaited before the next starts. */
export async function judgeInOrder(cases: readonly PlannedCase[]): Promise<Check[]> {
  const out: Check[] = [];
  for (const c of cases) out.push(await c.judge());
  return out;
}
