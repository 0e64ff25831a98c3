/**
 * `aep check-live`'s results in the annotated report shape the report pages and the JUnit writer
 * read (report.ts): each check with family `check-live`, its conformance class (`Control-capable`
 * for the control checks, `Collector/relay` for the others) and its spec sections, the run judged
 * against an expected-failures file when one was given. Pure.
 */
import { judge, nearestCheck, type Baseline } from './baseline.js';
import type { ConformanceClass } from './check-meta.js';
import { buildReport, type ConformanceReport, type ReportCheck, type RunInfo } from './report.js';
import type { Check, CheckStatus } from './types.js';

export const LIVE_FAMILY = 'check-live';

/** `AEP-0004 §3, §4.2` → `['AEP-0004 §3', 'AEP-0004 §4.2']`: a bare section takes the document before it. */
export function splitSections(text: string): string[] {
  const out: string[] = [];
  let doc = '';
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^(AEP-\d{4})\b/.exec(part);
    if (m) {
      doc = m[1]!;
      out.push(part);
    } else out.push(doc ? `${doc} ${part}` : part);
  }
  return out;
}

export function liveClass(name: string): ConformanceClass {
  return name.startsWith('control-') ? 'Control-capable' : 'Collector/relay';
}

export interface LiveResult {
  name: string;
  status: CheckStatus;
  detail?: string;
}

export interface LiveReportInput {
  target: string;
  startedAt: string;
  finishedAt: string;
  results: readonly LiveResult[];
  /** Check name → its `section` (impl/check-live/checks). */
  sections: Readonly<Record<string, string>>;
  baseline?: Baseline;
  baselineFile?: string;
  /** With `--fail-on-skip`, an unlisted skip fails the run; without it a skip is only a skip. */
  failOnSkip: boolean;
  run?: RunInfo;
}

/** Entries of an expected-failures file that name no live check: `no such check: …; did you mean …?`. */
export function unknownLiveEntries(baseline: Baseline, known: readonly string[]): string[] {
  return [...baseline.keys()]
    .filter((n) => !known.includes(n))
    .map((n) => {
      const guess = nearestCheck(n, known);
      return `no such check: ${n}; ${guess ? `did you mean ${guess}?` : `the live checks are ${known.join(', ')}`}`;
    });
}

export function liveReport(input: LiveReportInput): ConformanceReport {
  const checks: Check[] = input.results.map((r) => (r.detail ? { name: r.name, status: r.status, detail: r.detail } : { name: r.name, status: r.status }));
  const full = judge(checks, input.baseline, input.baselineFile);
  const verdict = input.failOnSkip ? full : { ...full, unexcusedSkips: [], ok: full.unexpected.length === 0 && full.stale.length === 0 };
  const report = buildReport({ tool: 'live', target: input.target, startedAt: input.startedAt, finishedAt: input.finishedAt, checks, verdict, ...(input.run ? { run: input.run } : {}) });
  report.checks = report.checks.map((c): ReportCheck => {
    const section = input.sections[c.name];
    return { ...c, family: LIVE_FAMILY, class: liveClass(c.name), ...(section ? { spec: splitSections(section) } : {}) };
  });
  return report;
}
