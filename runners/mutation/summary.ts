/**
 * The per-module mutation score table (issue 25) from Stryker's JSON report
 * (`reports/mutation/mutation.json`, the mutation-testing-report-schema shape). Pure: the CLI is
 * summary-main.ts.
 *
 * Score = (killed + timeout) / (killed + timeout + survived + no coverage), as Stryker counts it:
 * a mutant the TypeScript checker refuses (compile error), one that crashes the runner (runtime
 * error) and an ignored one are not part of the score.
 */

/** One mutant as the report holds it (only the fields read here). */
export interface ReportMutant {
  id?: string;
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number } };
}

/** One mutated module of a report: its mutants and (as Stryker writes it) its source text. */
export interface ReportFile {
  source?: string;
  mutants: ReportMutant[];
}

/** The parts of a Stryker JSON report read here. */
export interface MutationReport {
  files: Record<string, ReportFile>;
}

export interface ModuleScore {
  module: string;
  killed: number;
  survived: number;
  noCoverage: number;
  timeout: number;
  /** Compile and runtime errors: not scored. */
  errors: number;
  /** Percent, one decimal; null when no mutant was scored. */
  score: number | null;
}

/** A problem with a report, as data. */
export interface ReportProblem {
  rule: 'mutation.report';
  path: string;
  message: string;
}

/** Check that `value` has the shape read here; a problem names where it differs. */
export function readReport(value: unknown, source: string): MutationReport | ReportProblem {
  const problem = (where: string, what: string): ReportProblem => ({
    rule: 'mutation.report',
    path: where === '' ? source : `${source}: ${where}`,
    message: `${what}; expected Stryker's JSON report (jsonReporter in stryker.config.mjs)`,
  });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return problem('', 'not a JSON object');
  const files = (value as { files?: unknown }).files;
  if (typeof files !== 'object' || files === null || Array.isArray(files)) return problem('files', 'missing or not an object');
  for (const [name, file] of Object.entries(files)) {
    const mutants = (file as { mutants?: unknown } | null)?.mutants;
    if (!Array.isArray(mutants)) return problem(`files["${name}"].mutants`, 'missing or not an array');
    for (const [i, m] of mutants.entries()) {
      const ok =
        typeof m === 'object' && m !== null &&
        typeof (m as ReportMutant).status === 'string' &&
        typeof (m as ReportMutant).mutatorName === 'string' &&
        typeof (m as ReportMutant).location?.start?.line === 'number';
      if (!ok) return problem(`files["${name}"].mutants[${i}]`, 'a mutant without status, mutatorName or location.start.line');
    }
  }
  return value as MutationReport;
}

const mutantKey = (m: ReportMutant) => `${m.location.start.line}:${m.location.start.column}:${m.mutatorName}:${m.replacement ?? ''}`;

/**
 * Merge reports, so separate `--mutate` runs combine into one table. A module found in a later
 * report replaces the same module of an earlier one, except when both runs saw the same source
 * text: then the later run's mutants replace only the same mutants of the earlier one (a re-run
 * of some lines, `--mutate file.ts:55-76`, updates those lines' results and keeps the rest).
 */
export function mergeReports(reports: readonly MutationReport[]): MutationReport {
  const files: MutationReport['files'] = {};
  for (const r of reports) {
    for (const [name, file] of Object.entries(r.files)) {
      const earlier = files[name];
      if (earlier === undefined || earlier.source === undefined || earlier.source !== file.source) {
        files[name] = file;
        continue;
      }
      const later = new Map(file.mutants.map((m) => [mutantKey(m), m]));
      const kept = earlier.mutants.map((m) => later.get(mutantKey(m)) ?? m);
      const known = new Set(earlier.mutants.map(mutantKey));
      files[name] = { source: file.source, mutants: [...kept, ...file.mutants.filter((m) => !known.has(mutantKey(m)))] };
    }
  }
  return { files };
}

/** Score of one module's mutants. */
export function scoreOf(module: string, mutants: readonly ReportMutant[]): ModuleScore {
  const count = (status: string) => mutants.filter((m) => m.status === status).length;
  const killed = count('Killed');
  const survived = count('Survived');
  const noCoverage = count('NoCoverage');
  const timeout = count('Timeout');
  const errors = count('CompileError') + count('RuntimeError');
  const scored = killed + survived + noCoverage + timeout;
  const score = scored === 0 ? null : Math.round(((killed + timeout) / scored) * 1000) / 10;
  return { module, killed, survived, noCoverage, timeout, errors, score };
}

/** One row per module, by path. */
export function summarize(report: MutationReport): ModuleScore[] {
  return Object.entries(report.files)
    .map(([name, file]) => scoreOf(name, file.mutants))
    .sort((a, b) => (a.module < b.module ? -1 : a.module > b.module ? 1 : 0));
}

/** The rows summed under `module` (e.g. "all"). */
export function total(rows: readonly ModuleScore[], module = 'all'): ModuleScore {
  const sum = (k: 'killed' | 'survived' | 'noCoverage' | 'timeout' | 'errors') => rows.reduce((n, r) => n + r[k], 0);
  const killed = sum('killed');
  const survived = sum('survived');
  const noCoverage = sum('noCoverage');
  const timeout = sum('timeout');
  const scored = killed + survived + noCoverage + timeout;
  const score = scored === 0 ? null : Math.round(((killed + timeout) / scored) * 1000) / 10;
  return { module, killed, survived, noCoverage, timeout, errors: sum('errors'), score };
}

const scoreText = (s: number | null): string => (s === null ? 'n/a' : `${s.toFixed(1)}%`);

/**
 * The Markdown table for the README: module, killed, survived, no coverage, timeout, score,
 * then a bold total row. A module below `threshold` percent is marked "(below N%)".
 */
export function renderTable(rows: readonly ModuleScore[], threshold = 80): string {
  const lines = [
    '| module | killed | survived | no coverage | timeout | score |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const below = r.score !== null && r.score < threshold ? ` (below ${threshold}%)` : '';
    lines.push(`| \`${r.module}\` | ${r.killed} | ${r.survived} | ${r.noCoverage} | ${r.timeout} | ${scoreText(r.score)}${below} |`);
  }
  if (rows.length > 1) {
    const t = total(rows);
    lines.push(`| **all** | ${t.killed} | ${t.survived} | ${t.noCoverage} | ${t.timeout} | **${scoreText(t.score)}** |`);
  }
  return `${lines.join('\n')}\n`;
}

/** The surviving and uncovered mutants, one line each (`module:line:column mutator -> replacement`). */
export function renderSurvivors(report: MutationReport): string {
  const out: string[] = [];
  for (const name of Object.keys(report.files).sort()) {
    const mutants = report.files[name]!.mutants
      .filter((m) => m.status === 'Survived' || m.status === 'NoCoverage')
      .sort((a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column);
    for (const m of mutants) {
      const replacement = (m.replacement ?? '').replace(/\s+/g, ' ');
      const shown = replacement.length > 80 ? `${replacement.slice(0, 77)}...` : replacement;
      out.push(`${name}:${m.location.start.line}:${m.location.start.column} ${m.status} ${m.mutatorName} -> ${shown}`);
    }
  }
  return out.length === 0 ? '' : `${out.join('\n')}\n`;
}
