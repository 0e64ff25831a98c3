/**
 * `aep conformance diff BASE.json NEW.json [--md] [--json PATH|-]`: what changed between two
 * conformance reports, grouped by integration and conformance class (runners/conformance/report-diff.ts).
 * Exit 1 when a check regressed (pass → fail or skip), 0 otherwise, 2 on a usage error.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { asDiffReport, diffReports, renderDiffJson, renderDiffMarkdown, renderDiffText } from '../../runners/conformance/report-diff.js';
import { checkOutputFile } from '../adapter-kit/ensure-dir.js';
import { fsReason } from '../operator/fs-errors.js';
import { EXIT, UsageError, type CliIo } from './io.js';

export const DIFF_HELP = `usage: aep conformance diff BASE.json NEW.json [--md] [--json PATH|-]

Compares two conformance reports (the --json output, or --report DIR/report.json) check by check,
grouped by integration and conformance class: pass→fail (and pass→skip), fail→pass, a changed
status between fail and skip, new checks, gone checks, and checks whose status held but whose
fixture case changed (their fixtureHash differs: a tightened or edited case).

flags:
  --md             print the difference as Markdown (for a PR comment) instead of text
  --json PATH|-    also write the difference as JSON to PATH; '-' puts only the JSON on stdout

exit codes: 0 nothing regressed, 1 a check went from pass to fail or skip, 2 usage (a missing or
unreadable report, a file that is not a conformance report)
`;

/** Only the flags the diff reads; the run's own flags are a usage error here. */
const DIFF_FLAGS = new Set(['md', 'json']);

function readReport(path: string, label: string) {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read the ${label} report ${path}: ${fsReason(err)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`the ${label} report ${path} is not JSON (${(err as Error).message})`);
  }
  try {
    return asDiffReport(value, `the ${label} report ${path}`);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

export function runDiff(files: string[], values: Record<string, unknown>, io: CliIo): number {
  const stray = Object.keys(values).filter((k) => values[k] !== undefined && !DIFF_FLAGS.has(k));
  if (stray.length) throw new UsageError(`'aep conformance diff' takes only --md and --json; drop ${stray.map((k) => `--${k}`).join(', ')}`);
  if (files.length !== 2) throw new UsageError(`'aep conformance diff' needs two reports, BASE.json and NEW.json; got ${files.length}`);
  const json = typeof values.json === 'string' ? values.json : undefined;
  if (json !== undefined && json !== '-') {
    const ok = checkOutputFile(resolve(io.cwd, json), '--json');
    if (ok !== true) throw new UsageError(ok);
  }
  const [baseName, nextName] = files as [string, string];
  const d = diffReports(readReport(resolve(io.cwd, baseName), 'base'), readReport(resolve(io.cwd, nextName), 'new'));
  const human = json === '-' ? io.stderr : io.stdout;
  human(values.md === true ? renderDiffMarkdown(d, baseName, nextName) : renderDiffText(d, baseName, nextName));
  if (json === '-') io.stdout(renderDiffJson(d));
  else if (json !== undefined) {
    try {
      writeFileSync(resolve(io.cwd, json), renderDiffJson(d));
    } catch (err) {
      throw new UsageError(`cannot write the difference to ${json}: ${fsReason(err)}`);
    }
  }
  return d.regressed ? EXIT.failed : EXIT.ok;
}
