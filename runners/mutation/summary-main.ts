/**
 * `npm run mutate:summary [-- [--survivors] [REPORT.json ...]]`: print the per-module mutation
 * score table in Markdown from Stryker's JSON report(s) (default reports/mutation/mutation.json,
 * written by `npm run mutate`). Several reports merge, a later one's module replacing an earlier
 * one's. `--survivors` also lists each surviving or uncovered mutant. Exit 0, 1 when a report
 * cannot be read or is not a Stryker report, 2 on bad arguments.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { mergeReports, readReport, renderSurvivors, renderTable, summarize, type MutationReport } from './summary.js';

export const DEFAULT_REPORT = 'reports/mutation/mutation.json';

export const USAGE = `usage: npm run mutate:summary -- [--survivors] [REPORT.json ...]
  Print the per-module mutation score table (Markdown) from Stryker's JSON report(s).
  REPORT.json   default ${DEFAULT_REPORT}; several merge, a later module replacing an earlier
  --survivors   also list the surviving and uncovered mutants (module:line:column status mutator -> replacement)
  Exit codes: 0 printed, 1 a report is unreadable or not a Stryker report, 2 bad arguments.
`;

export interface Writer {
  write(text: string): unknown;
}

export type ReadFile = (path: string) => string;

export function main(argv: readonly string[], out: Writer = process.stdout, err: Writer = process.stderr, read: ReadFile = (p) => readFileSync(p, 'utf8')): number {
  let survivors = false;
  const paths: string[] = [];
  for (const a of argv) {
    if (a === '--help' || a === '-h') {
      out.write(USAGE);
      return 0;
    }
    if (a === '--survivors') survivors = true;
    else if (a.startsWith('-')) {
      err.write(`mutate:summary: unknown flag ${a}\n\n${USAGE}`);
      return 2;
    } else paths.push(a);
  }
  if (paths.length === 0) paths.push(DEFAULT_REPORT);
  const reports: MutationReport[] = [];
  for (const p of paths) {
    let value: unknown;
    try {
      value = JSON.parse(read(p));
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      err.write(`mutate:summary: cannot read ${p}: ${why} (run \`npm run mutate\` first; it writes ${DEFAULT_REPORT})\n`);
      return 1;
    }
    const report = readReport(value, p);
    if ('rule' in report) {
      err.write(`mutate:summary: ${report.rule} at ${report.path}: ${report.message}\n`);
      return 1;
    }
    reports.push(report);
  }
  const merged = mergeReports(reports);
  out.write(renderTable(summarize(merged)));
  if (survivors) out.write(`\n${renderSurvivors(merged)}`);
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
