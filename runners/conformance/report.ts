/**
 * The conformance report, in the exact shape the standard shares across its tools
 * (conformance/README.md of the standard, "The report format", formatVersion 1), plus optional
 * extra keys: per check `family`, `integration`, `class`, `spec` (and `fixtureHash`, `basis`, `rule`
 * when the family set them); at the top `run` (what was run) and `baseline` (how the
 * expected-failures file judged the run).
 */
import { checkMeta, type ConformanceClass } from './check-meta.js';
import type { Check, CheckBasis, CheckRule } from './types.js';

/** One check as reported: the standard's members, then the optional annotations. */
export interface ReportCheck extends Check {
  family?: string;
  /** The adapter or bridge (descriptor name) the check exercises, or `core` (check-meta.ts). */
  integration?: string;
  class?: ConformanceClass;
  spec?: string[];
  basis?: CheckBasis;
  rule?: CheckRule;
}

/** Which checks a run held the target to (`--target`): the standard's (`must` and `pin`) or, with `--reference-parity`, this project's too. */
export type Profile = 'standard' | 'reference-parity';

/** What was run, recorded so a published report can be reproduced. */
export interface RunInfo {
  /** The corpus root: relative to the package root when inside it, else absolute. */
  corpus: string;
  /** `sha256:<hex>` over every fixture file's relative path and bytes, in path order. */
  revision: string;
  /** The package, its version, and the git commit its build came from (`unknown` when the build recorded none: build-info.ts). */
  tool: { name: string; version: string; commit?: string };
  node: string;
  /** `<adapter>=<url or command>` of an external daemon under `--target`, else null. */
  target: string | null;
  families: string[];
  /** The `--case` selection, when one was given. */
  cases?: string[];
  /** Under `--target`: the profile that ran and the bases it held the target to. */
  profile?: Profile;
  /** Under `--target --deviations FILE`: the declared deviations (pin member → reason). */
  deviations?: Record<string, string>;
  /** Under `--target`: what was run per agent (the URL or the command as given). */
  targets?: { agent: string; run: string }[];
  /** Under `--target`: each target's hello as the relay received it, by agent. */
  hellos?: Record<string, Record<string, unknown>>;
}

/** The expected-failures judgement (see baseline.ts). */
export interface Verdict {
  ok: boolean;
  /** Failed checks the baseline does not list. */
  unexpected: string[];
  /** Listed checks that passed: the excuse is stale and must be removed. */
  stale: string[];
  /** Skipped checks no baseline names (an unimplemented corpus source). */
  unexcusedSkips: string[];
  /** Listed checks that failed or were skipped, as expected. */
  expected: string[];
  /** The reason of each expected check: the baseline's words, or where an in-code baseline excuses it. */
  reasons?: Record<string, string>;
  /** The baseline file, when one was given. */
  file?: string;
}

export interface ConformanceReport {
  format: 'aep-conformance-report';
  formatVersion: 1;
  aep: '0.1';
  /** `run-ts` for this runner. */
  tool: string;
  /** The checked base URL for live checkers; `null` for fixture runners. */
  target: string | null;
  startedAt: string;
  finishedAt: string;
  checks: ReportCheck[];
  summary: { pass: number; fail: number; skip: number; total: number };
  /** True when nothing failed; with a verdict, the verdict's `ok`. */
  ok: boolean;
  run?: RunInfo;
  baseline?: Verdict;
}

export interface ReportInput {
  tool: string;
  target: string | null;
  startedAt: string;
  finishedAt: string;
  checks: readonly Check[];
  /** Add `family`, `integration`, `class`, `spec` to every check (check-meta.ts). Default false. */
  annotate?: boolean;
  run?: RunInfo;
  verdict?: Verdict;
}

function reportCheck(c: Check, annotate: boolean): ReportCheck {
  const base: ReportCheck = c.detail ? { name: c.name, status: c.status, detail: c.detail } : { name: c.name, status: c.status };
  const out: ReportCheck = c.excusedBy !== undefined ? { ...base, excusedBy: c.excusedBy } : base;
  if (!annotate) return { ...out, ...(c.basis ? { basis: c.basis } : {}), ...(c.rule ? { rule: { ...c.rule } } : {}) };
  return { ...out, ...checkMeta(c), ...(c.fixtureHash !== undefined ? { fixtureHash: c.fixtureHash } : {}) };
}

/** Builds the report; check members are emitted as name, status, detail, with an empty detail omitted. */
export function buildReport(input: ReportInput): ConformanceReport {
  const checks = input.checks.map((c) => reportCheck(c, input.annotate === true));
  const count = (s: Check['status']) => checks.filter((c) => c.status === s).length;
  const summary = { pass: count('pass'), fail: count('fail'), skip: count('skip'), total: checks.length };
  const report: ConformanceReport = {
    format: 'aep-conformance-report',
    formatVersion: 1,
    aep: '0.1',
    tool: input.tool,
    target: input.target,
    startedAt: input.startedAt,
    finishedAt: input.finishedAt,
    checks,
    summary,
    ok: input.verdict ? input.verdict.ok : summary.fail === 0,
  };
  if (input.run) report.run = input.run;
  if (input.verdict) report.baseline = input.verdict;
  return report;
}

/** The report as a committed folder keeps it: without the wall-clock members (`startedAt`, `finishedAt`). */
export type StableReport = Omit<ConformanceReport, 'startedAt' | 'finishedAt'>;

/** The report without the build's commit (`run.tool.commit`): what the pages of a committed folder show. */
export function withoutCommit(report: ConformanceReport): ConformanceReport {
  if (!report.run?.tool.commit) return report;
  const { commit: _commit, ...tool } = report.run.tool;
  return { ...report, run: { ...report.run, tool } };
}

/**
 * The report without its wall-clock members and the build's commit, so that a committed `--report
 * DIR` changes only when a result, the corpus or the tool's version does. `--json` keeps them
 * (the standard's full shape, and the commit a CI run came from).
 */
export function stableReport(report: ConformanceReport): StableReport {
  const { startedAt: _started, finishedAt: _finished, ...rest } = withoutCommit(report);
  return rest;
}

/** Pretty JSON (two-space indent) with a trailing newline. */
export function renderReport(report: ConformanceReport | StableReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
