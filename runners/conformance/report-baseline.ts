/**
 * How the baseline judged one check, in words the report pages print beside it (pure; shared by
 * report.md and index.html): an expected failure or skip with its reason, an unexpected one, an
 * unexcused skip, or a stale entry (a listed check that passed).
 */
import type { ConformanceReport, ReportCheck } from './report.js';

export type Mark = { kind: 'expected'; reason: string } | { kind: 'unexpected' } | { kind: 'unexcused' } | { kind: 'stale' } | { kind: 'none' };

export function baselineMark(c: ReportCheck, report: ConformanceReport): Mark {
  const b = report.baseline;
  if (!b) return { kind: 'none' };
  if (b.stale.includes(c.name)) return { kind: 'stale' };
  if (b.expected.includes(c.name)) return { kind: 'expected', reason: b.reasons?.[c.name] ?? 'listed in the baseline' };
  if (b.unexpected.includes(c.name)) return { kind: 'unexpected' };
  if (b.unexcusedSkips.includes(c.name)) return { kind: 'unexcused' };
  return { kind: 'none' };
}

/** The mark as one phrase: `expected: <reason>`, `UNEXPECTED`, `UNEXCUSED skip`, `STALE: passes, remove the entry`, or ''. */
export function markText(m: Mark): string {
  switch (m.kind) {
    case 'expected':
      return `expected: ${m.reason}`;
    case 'unexpected':
      return 'UNEXPECTED';
    case 'unexcused':
      return 'UNEXCUSED skip';
    case 'stale':
      return 'STALE: passes, remove the entry';
    default:
      return '';
  }
}

/** The baseline verdict in one sentence: `OK`/`FAILED`, the file, and its counts. */
export function verdictSentence(report: ConformanceReport): string | undefined {
  const b = report.baseline;
  if (!b) return undefined;
  const file = b.file ? `baseline \`${b.file}\`` : 'no expected-failures file (every failure and skip is unexpected)';
  return `${b.ok ? 'OK' : 'FAILED'} against ${file}: ${b.expected.length} expected, ${b.unexpected.length} unexpected, ${b.unexcusedSkips.length} unexcused skips, ${b.stale.length} stale.`;
}

/** The checks a page lists: every check that did not pass, and every passing check a stale entry names. */
export function listedChecks(report: ConformanceReport): ReportCheck[] {
  const stale = new Set(report.baseline?.stale ?? []);
  return report.checks.filter((c) => c.status !== 'pass' || stale.has(c.name));
}

/** `rule-id (section)`, when the check names its rule. */
export function ruleText(c: ReportCheck): string {
  return c.rule ? `${c.rule.id} (${c.rule.section})` : '';
}
