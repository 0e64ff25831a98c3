/**
 * The expected-failures baseline: a JSON object `{"<check name>": "<reason>", ...}` (members
 * starting with `$` are comments). A listed check may fail or be skipped; an unlisted failure, an
 * unlisted skip, and a listed check that now passes (a stale excuse) each make the run fail.
 * Listed names that did not run (another family or `--case` selection) are ignored.
 */
import { readFileSync } from 'node:fs';
import type { Verdict } from './report.js';
import type { Check } from './types.js';

export type Baseline = ReadonlyMap<string, string>;

/** Parses a baseline file's text; throws an Error saying what is wrong and where. */
export function parseBaseline(text: string, path: string): Baseline {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`${path}: malformed JSON (${(err as Error).message}); expected {"<check name>": "<reason>", ...}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${path}: expected a JSON object {"<check name>": "<reason>", ...}`);
  const out = new Map<string, string>();
  for (const [name, reason] of Object.entries(value)) {
    if (name.startsWith('$')) continue;
    if (typeof reason !== 'string' || reason.trim() === '') throw new Error(`${path}: "${name}" needs a reason (a non-empty string) saying why it is expected to fail`);
    out.set(name, reason);
  }
  return out;
}

export function readBaseline(path: string): Baseline {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read the expected-failures file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return parseBaseline(text, path);
}

/** Judges a run against a baseline (an empty one when none was given). */
export function judge(checks: readonly Check[], baseline: Baseline = new Map(), file?: string): Verdict {
  const unexpected: string[] = [];
  const stale: string[] = [];
  const unexcusedSkips: string[] = [];
  const expected: string[] = [];
  for (const c of checks) {
    const listed = baseline.has(c.name);
    if (c.status === 'pass' && listed) stale.push(c.name);
    else if (c.status === 'fail') (listed ? expected : unexpected).push(c.name);
    else if (c.status === 'skip') (listed || c.excusedBy !== undefined ? expected : unexcusedSkips).push(c.name);
  }
  const verdict: Verdict = { ok: unexpected.length === 0 && stale.length === 0 && unexcusedSkips.length === 0, unexpected, stale, unexcusedSkips, expected };
  if (file !== undefined) verdict.file = file;
  return verdict;
}

/** Human lines for a verdict that is not ok (empty when ok). */
export function verdictLines(v: Verdict): string[] {
  const lines: string[] = [];
  for (const n of v.unexpected) lines.push(`unexpected failure: ${n} (not in the expected-failures file)`);
  for (const n of v.stale) lines.push(`stale expected failure: ${n} now passes; remove it from ${v.file ?? 'the expected-failures file'}`);
  for (const n of v.unexcusedSkips) lines.push(`unexcused skip: ${n} (name it in an --expected-failures file with its reason, or implement it)`);
  return lines;
}
