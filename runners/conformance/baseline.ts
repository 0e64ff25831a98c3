/**
 * The expected-failures baseline: a JSON object `{"<check name>": "<reason>", ...}` (members
 * starting with `$` are comments). A listed check may fail or be skipped; an unlisted failure, an
 * unlisted skip, and a listed check that now passes (a stale excuse) each make the run fail: exit 1
 * for an unexpected failure or skip, exit 3 when stale entries are the only problem. An entry whose
 * family ran (and that the `--case` selection covers) but that names no check of the run is an
 * error (`no such check: …; did you mean …?`); entries of families that did not run are left alone.
 * Pure, but for `readBaseline`.
 */
import { readFileSync } from 'node:fs';
import type { Verdict } from './report.js';
import type { Check } from './types.js';

export type Baseline = ReadonlyMap<string, string>;

/** A baseline file as read: its entries and its `$` comment members, kept when the file is refreshed. */
export interface BaselineFile {
  entries: Baseline;
  comments: Readonly<Record<string, unknown>>;
}

/** Exit code of a run whose only problem is stale expected-failure entries. */
export const EXIT_STALE = 3;

/** Parses a baseline file's text, comments included; throws an Error saying what is wrong and where. */
export function parseBaselineFile(text: string, path: string): BaselineFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`${path}: malformed JSON (${(err as Error).message}); expected {"<check name>": "<reason>", ...}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${path}: expected a JSON object {"<check name>": "<reason>", ...}`);
  const entries = new Map<string, string>();
  const comments: Record<string, unknown> = {};
  for (const [name, reason] of Object.entries(value)) {
    if (name.startsWith('$')) {
      comments[name] = reason;
      continue;
    }
    if (typeof reason !== 'string' || reason.trim() === '') throw new Error(`${path}: "${name}" needs a reason (a non-empty string) saying why it is expected to fail`);
    entries.set(name, reason);
  }
  return { entries, comments };
}

/** Parses a baseline file's text; throws an Error saying what is wrong and where. */
export function parseBaseline(text: string, path: string): Baseline {
  return parseBaselineFile(text, path).entries;
}

export function readBaselineFile(path: string): BaselineFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read the expected-failures file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return parseBaselineFile(text, path);
}

export function readBaseline(path: string): Baseline {
  return readBaselineFile(path).entries;
}

/** Judges a run against a baseline (an empty one when none was given). */
export function judge(checks: readonly Check[], baseline: Baseline = new Map(), file?: string): Verdict {
  const unexpected: string[] = [];
  const stale: string[] = [];
  const unexcusedSkips: string[] = [];
  const expected: string[] = [];
  const reasons: Record<string, string> = {};
  for (const c of checks) {
    const reason = baseline.get(c.name);
    if (c.status === 'pass') {
      if (reason !== undefined) stale.push(c.name);
      continue;
    }
    const excuse = reason ?? (c.status === 'skip' && c.excusedBy !== undefined ? `excused by ${c.excusedBy}` : undefined);
    if (excuse !== undefined) {
      expected.push(c.name);
      reasons[c.name] = excuse;
    } else (c.status === 'fail' ? unexpected : unexcusedSkips).push(c.name);
  }
  const verdict: Verdict = { ok: unexpected.length === 0 && stale.length === 0 && unexcusedSkips.length === 0, unexpected, stale, unexcusedSkips, expected };
  if (expected.length > 0) verdict.reasons = reasons;
  if (file !== undefined) verdict.file = file;
  return verdict;
}

/** 0 when ok; 1 for an unexpected failure or skip; 3 when stale entries are the only problem. */
export function verdictExit(v: Verdict): number {
  if (v.unexpected.length > 0 || v.unexcusedSkips.length > 0) return 1;
  return v.stale.length > 0 ? EXIT_STALE : 0;
}

/** Human lines for a verdict that is not ok (empty when ok). */
export function verdictLines(v: Verdict): string[] {
  const lines: string[] = [];
  for (const n of v.unexpected) lines.push(`unexpected failure: ${n} (not in the expected-failures file)`);
  for (const n of v.stale) lines.push(`stale expected failure: ${n} now passes; remove it from ${v.file ?? 'the expected-failures file'}`);
  for (const n of v.unexcusedSkips) lines.push(`unexcused skip: ${n} (name it in an --expected-failures file with its reason, or implement it)`);
  return lines;
}

/** Which entries a run can judge: the families it ran, every family there is, and the `--case` selection. */
export interface BaselineScope {
  /** Families this run ran (`golden`, `live/mappings`, `vendors`). */
  ran: readonly string[];
  /** Every family name an entry may start with, run or not. */
  known: readonly string[];
  /** The `--case` selection; absent: everything in a ran family is selected. */
  selects?: (name: string) => boolean;
}

/** The family an entry belongs to: the longest known family name it starts with (`<family>/...`). */
function familyOf(name: string, known: readonly string[]): string | undefined {
  return known.filter((f) => name === f || name.startsWith(`${f}/`)).sort((a, b) => b.length - a.length)[0];
}

/** Edit distance (Levenshtein), for "did you mean". */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const here = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = here;
    }
  }
  return row[b.length]!;
}

/** The check name closest to `name`, when close enough to be a likely typo. */
export function nearestCheck(name: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const n of names) {
    if (Math.abs(n.length - name.length) >= bestDistance) continue;
    const d = distance(name, n);
    if (d < bestDistance) [best, bestDistance] = [n, d];
  }
  return best !== undefined && bestDistance <= Math.max(3, Math.floor(name.length / 4)) ? best : undefined;
}

/**
 * One message per entry that names no check: its family ran (and the selection covers it) but no
 * check has its name, or it starts with no family at all. Empty when every entry names a check.
 */
export function unknownEntries(baseline: Baseline, checks: readonly Check[], scope: BaselineScope): string[] {
  const names = new Set(checks.map((c) => c.name));
  const all = [...names];
  const out: string[] = [];
  for (const entry of baseline.keys()) {
    if (names.has(entry)) continue;
    const family = familyOf(entry, scope.known);
    if (family !== undefined && (!scope.ran.includes(family) || (scope.selects && !scope.selects(entry)))) continue;
    const guess = nearestCheck(entry, family === undefined ? all : all.filter((n) => familyOf(n, scope.known) === family));
    const where = family === undefined ? `it starts with no family (${scope.known.filter((f) => !f.includes('/')).join(', ')})` : `no check of the ${family} family has this name`;
    out.push(`no such check: ${entry} (${where}); ${guess ? `did you mean ${guess}?` : "'aep conformance --list' lists every check"}`);
  }
  return out;
}

/** What a written baseline holds, and how it differs from the one it refreshed. */
export interface WrittenBaseline {
  /** The file's text: comments, then the entries by name. */
  text: string;
  /** Entries new in this file (a failure or skip the old file did not list). */
  added: string[];
  /** Entries kept with their old reasons (still failing, or of a family this run did not judge). */
  kept: string[];
  /** Old entries dropped: their check now passes, or no longer exists. */
  removed: string[];
}

const HEADER = 'expected failures of aep conformance, written by --write-expected-failures: each listed check may fail or skip; a new entry\'s reason is the check\'s detail, to be replaced by why it is expected';

/**
 * The baseline of a run: every failure and skip (but those an in-code baseline excuses), each with
 * its reason: the old file's reason when it listed the check, else the check's detail. Old entries
 * outside the run's scope (families not run, checks not selected) are kept as they were.
 */
export function writeBaseline(checks: readonly Check[], previous: BaselineFile | undefined, scope: BaselineScope): WrittenBaseline {
  const old = previous?.entries ?? new Map<string, string>();
  const entries = new Map<string, string>();
  const added: string[] = [];
  const kept: string[] = [];
  for (const c of checks) {
    if (c.status === 'pass' || (c.status === 'skip' && c.excusedBy !== undefined && !old.has(c.name))) continue;
    const reason = old.get(c.name);
    if (reason !== undefined) kept.push(c.name);
    else added.push(c.name);
    entries.set(c.name, reason ?? (c.detail && c.detail.trim() !== '' ? c.detail : `${c.status === 'fail' ? 'fails' : 'skipped'} (the check gave no detail)`));
  }
  const ran = new Set(checks.map((c) => c.name));
  const removed: string[] = [];
  for (const [name, reason] of old) {
    if (entries.has(name)) continue;
    const family = familyOf(name, scope.known);
    const judged = ran.has(name) || (family !== undefined && scope.ran.includes(family) && (!scope.selects || scope.selects(name)));
    if (judged) removed.push(name);
    else {
      entries.set(name, reason);
      kept.push(name);
    }
  }
  const comments = previous && Object.keys(previous.comments).length > 0 ? previous.comments : { $comment: HEADER };
  // fromEntries defines members (a check named __proto__ stays a member).
  const out = Object.fromEntries([...Object.entries(comments), ...[...entries.keys()].sort().map((n) => [n, entries.get(n)] as const)]);
  return { text: `${JSON.stringify(out, null, 2)}\n`, added, kept: kept.sort(), removed: removed.sort() };
}
