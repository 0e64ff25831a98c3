/**
 * The standard's conformance report (conformance/README.md "The report format", formatVersion 1),
 * built and rendered as pure functions.
 */

export type CheckStatus = 'pass' | 'fail' | 'skip';

/** One check's verdict. `detail` is omitted when there is nothing to say. */
export interface CheckResult {
  name: string;
  status: CheckStatus;
  detail?: string;
}

export interface ConformanceReport {
  format: 'aep-conformance-report';
  formatVersion: 1;
  aep: '0.1';
  tool: 'live';
  target: string;
  startedAt: string;
  finishedAt: string;
  checks: CheckResult[];
  summary: { pass: number; fail: number; skip: number; total: number };
  ok: boolean;
}

export function buildReport(target: string, startedAt: Date, finishedAt: Date, checks: CheckResult[]): ConformanceReport {
  const count = (s: CheckStatus): number => checks.filter((c) => c.status === s).length;
  const summary = { pass: count('pass'), fail: count('fail'), skip: count('skip'), total: checks.length };
  return {
    format: 'aep-conformance-report',
    formatVersion: 1,
    aep: '0.1',
    tool: 'live',
    target,
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    checks: checks.map((c) => (c.detail === undefined || c.detail === '' ? { name: c.name, status: c.status } : { ...c })),
    summary,
    ok: summary.fail === 0,
  };
}

/** The JSON form: one pretty-printed object and a trailing newline. */
export function renderReportJson(report: ConformanceReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

const MARK: Record<CheckStatus, string> = { pass: 'pass', fail: 'FAIL', skip: 'skip' };

/** One human line per check. */
export function renderCheckLine(result: CheckResult): string {
  const tail = result.detail ? `  ${result.detail}` : '';
  return `  ${MARK[result.status]}  ${result.name}${tail}\n`;
}

export function renderHeader(target: string): string {
  return `aep check-live ${target}\n`;
}

export function renderFooter(report: ConformanceReport): string {
  const { pass, fail, skip, total } = report.summary;
  return `${report.ok ? 'ok' : 'FAILED'}: ${pass} passed, ${fail} failed, ${skip} skipped (${total} checks)\n`;
}
