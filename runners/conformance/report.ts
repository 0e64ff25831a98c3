/**
 * The conformance report, in the exact shape the standard shares across its tools
 * (conformance/README.md of the standard, "The report format", formatVersion 1).
 */
import type { Check } from './types.js';

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
  checks: Check[];
  summary: { pass: number; fail: number; skip: number; total: number };
  /** True exactly when `summary.fail` is zero. */
  ok: boolean;
}

export interface ReportInput {
  tool: string;
  target: string | null;
  startedAt: string;
  finishedAt: string;
  checks: readonly Check[];
}

/** Builds the report; check members are emitted as name, status, detail, with an empty detail omitted. */
export function buildReport(input: ReportInput): ConformanceReport {
  const checks = input.checks.map((c): Check => (c.detail ? { name: c.name, status: c.status, detail: c.detail } : { name: c.name, status: c.status }));
  const count = (s: Check['status']) => checks.filter((c) => c.status === s).length;
  const summary = { pass: count('pass'), fail: count('fail'), skip: count('skip'), total: checks.length };
  return {
    format: 'aep-conformance-report',
    formatVersion: 1,
    aep: '0.1',
    tool: input.tool,
    target: input.target,
    startedAt: input.startedAt,
    finishedAt: input.finishedAt,
    checks,
    summary,
    ok: summary.fail === 0,
  };
}

/** Pretty JSON (two-space indent) with a trailing newline. */
export function renderReport(report: ConformanceReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
