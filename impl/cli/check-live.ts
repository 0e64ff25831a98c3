import { writeFile } from 'node:fs/promises';
import { blockedPort } from './bad-ports.js';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readBaseline, verdictExit, verdictLines, EXIT_STALE, type Baseline } from '../../runners/conformance/baseline.js';
import { renderJunit } from '../../runners/conformance/junit.js';
import { liveReport, unknownLiveEntries } from '../../runners/conformance/live-report.js';
import { renderHtml } from '../../runners/conformance/report-html.js';
import { renderMarkdown } from '../../runners/conformance/report-md.js';
import { renderReport, stableReport } from '../../runners/conformance/report.js';
import { CHECKS, CHECK_NAMES, selectChecks } from '../check-live/checks/index.js';
import { DEFAULT_OPTIONS, type LiveOptions } from '../check-live/context.js';
import { renderCheckLine, renderFooter, renderHeader, renderReportJson } from '../check-live/report.js';
import { runChecks } from '../check-live/runner.js';
import { checkOutputFile, prepareDir } from '../adapter-kit/ensure-dir.js';
import { fsReason } from '../operator/fs-errors.js';
import { EXIT, UsageError } from './io.js';
import type { Verb } from './verb.js';
import { DEFAULT_RELAY_URL } from '../integrations/registry.js';

const HELP = `usage: aep check-live URL [flags]

Checks a running AEP collector/relay (and, opt-in, a control-capable target behind it)
against the live checks named in the standard's conformance/README.md. It posts synthetic
events under agent 'aep-live-check' into fresh 'live-<random>' sessions: point it at a
development instance, not a production stream.

flags:
  --token T                 bearer token for every request and socket (default: none; AEP_TOKEN is
                            deliberately not read, so an unauthenticated run is always explicit)
  --checks LIST             comma-separated check names to run (default: all)
  --json PATH|-             also write the aep-conformance-report (v1); '-' puts only the JSON on
                            stdout and moves the human lines to stderr (default: no report)
  --control-session S       a session owned by a connected control-capable target; enables the
                            control checks (default: none, control checks skip)
  --control-accepts TYPE    a command type the target declared (default ${DEFAULT_OPTIONS.controlAccepts})
  --control-undeclared TYPE a command type the target did not declare (default ${DEFAULT_OPTIONS.controlUndeclared})
  --control-cancel RUN      DESTRUCTIVE: actually cancel this run of S (control-cancel; default: skip)
  --ack-window MS           sender-side ack window (default ${DEFAULT_OPTIONS.ackWindowMs})
  --evict                   run the eviction checks: floods a fresh session past the advertised
                            replay.buffer (default: off, eviction checks skip)
  --evict-max N             refuse to flood past a buffer larger than N (default ${DEFAULT_OPTIONS.evictMax})
  --report DIR              write DIR/report.json (annotated: family check-live, class, spec sections,
                            the baseline verdict; no timestamps), DIR/report.md and DIR/index.html;
                            DIR is made first, so --json and --junit may point into it (default: none)
  --junit FILE              also write JUnit XML: one testcase per check (classname check-live, spec
                            sections as properties); an expected failure is a skipped testcase with
                            the baseline's reason (default: none)
  --expected-failures FILE  a JSON object {"<check name>": "<reason>"}: listed checks may fail or skip;
                            an unlisted failure fails the run (exit 1), a listed check that passes is
                            stale (exit 3 when that is the only problem); an entry naming no live
                            check is a usage error (default: none)
  --fail-on-skip            an unlisted skip fails the run too (exit 1) (default: off, a skip is only
                            reported: the control and eviction checks skip unless asked for)

checks: ${CHECK_NAMES.join(', ')}

exit codes: 0 no check failed (or failed as the expected-failures file says) · 1 a check failed
unexpectedly (or, with --fail-on-skip, was skipped unexcused) · 3 the only problem is stale
expected-failure entries · 2 usage error (also: URL on a port fetch refuses, a Fetch standard
"bad port" such as 1, 9, 25 or 6000)
`;

function positiveInt(flag: string, raw: unknown, dflt: number, min: number): number {
  if (raw === undefined) return dflt;
  const s = String(raw);
  if (!/^\d+$/.test(s) || Number(s) < min) throw new UsageError(`${flag} must be an integer >= ${min}, got '${s}'`);
  return Number(s);
}

/** Parses the verb's arguments into options; throws UsageError on any mistake. */
export function parseOptions(values: Record<string, unknown>, positionals: string[]): { opts: LiveOptions; checks: string | undefined; json: string | undefined } {
  if (positionals.length !== 1) throw new UsageError(positionals.length ? `expected one URL, got ${positionals.length} arguments` : `missing the endpoint URL, e.g. ${DEFAULT_RELAY_URL}`);
  const raw = positionals[0]!;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`'${raw}' is not a URL; expected e.g. ${DEFAULT_RELAY_URL}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`'${raw}' must be an http:// or https:// URL`);
  const str = (k: string): string | undefined => (typeof values[k] === 'string' && values[k] !== '' ? (values[k] as string) : undefined);
  const opts: LiveOptions = {
    target: raw,
    controlAccepts: str('control-accepts') ?? DEFAULT_OPTIONS.controlAccepts,
    controlUndeclared: str('control-undeclared') ?? DEFAULT_OPTIONS.controlUndeclared,
    ackWindowMs: positiveInt('--ack-window', values['ack-window'], DEFAULT_OPTIONS.ackWindowMs, 1),
    evict: values.evict === true,
    evictMax: positiveInt('--evict-max', values['evict-max'], DEFAULT_OPTIONS.evictMax, 0),
  };
  const token = str('token');
  if (token) opts.token = token;
  const session = str('control-session');
  if (session) opts.controlSession = session;
  const cancel = str('control-cancel');
  if (cancel) opts.controlCancel = cancel;
  const checks = str('checks');
  const { unknown } = selectChecks(checks);
  if (unknown.length) throw new UsageError(`unknown check name(s): ${unknown.join(', ')}. Known checks: ${CHECK_NAMES.join(', ')}`);
  return { opts, checks, json: str('json') };
}

/** --expected-failures, read and held to the live check names; a usage error names what is wrong. */
function baselineOf(io: { cwd: string }, path: string | undefined): Baseline | undefined {
  if (path === undefined) return undefined;
  let baseline: Baseline;
  try {
    baseline = readBaseline(resolve(io.cwd, path));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const unknown = unknownLiveEntries(baseline, CHECK_NAMES);
  if (unknown.length) throw new UsageError(`${path}: ${unknown.join(`\n${path}: `)}`);
  return baseline;
}

function writeOrFail(path: string, text: string, what: string): void {
  try {
    writeFileSync(path, text);
  } catch (err) {
    throw new UsageError(`cannot write the ${what} to ${path}: ${fsReason(err)}`);
  }
}

export const verb: Verb = {
  name: 'check-live',
  summary: 'check a running relay/collector (and a control target) against the standard live checks',
  help: HELP,
  allowPositionals: true,
  options: {
    token: { type: 'string' },
    checks: { type: 'string' },
    json: { type: 'string' },
    report: { type: 'string' },
    junit: { type: 'string' },
    'expected-failures': { type: 'string' },
    'fail-on-skip': { type: 'boolean' },
    'control-session': { type: 'string' },
    'control-accepts': { type: 'string' },
    'control-undeclared': { type: 'string' },
    'control-cancel': { type: 'string' },
    'ack-window': { type: 'string' },
    evict: { type: 'boolean' },
    'evict-max': { type: 'string' },
  },
  async run({ values, positionals }, io) {
    const { opts, checks, json } = parseOptions(values, positionals);
    const reportDir = typeof values.report === 'string' && values.report !== '' ? resolve(io.cwd, values.report) : undefined;
    const junit = typeof values.junit === 'string' && values.junit !== '' ? resolve(io.cwd, values.junit) : undefined;
    const baselinePath = typeof values['expected-failures'] === 'string' && values['expected-failures'] !== '' ? values['expected-failures'] : undefined;
    const failOnSkip = values['fail-on-skip'] === true;
    // The report folder first: --json and --junit may name a file inside it.
    if (reportDir !== undefined) {
      const ok = prepareDir(reportDir, '--report');
      if (ok !== true) throw new UsageError(ok);
    }
    for (const [flag, value] of [['--json', json === '-' ? undefined : json], ['--junit', junit]] as const) {
      if (value === undefined) continue;
      const ok = checkOutputFile(resolve(io.cwd, value), flag);
      if (ok !== true) throw new UsageError(ok);
    }
    const blocked = blockedPort(opts.target);
    if (blocked) throw new UsageError(blocked);
    const baseline = baselineOf(io, baselinePath);
    const human = json === '-' ? io.stderr : io.stdout;
    human(renderHeader(opts.target));
    const report = await runChecks(opts, selectChecks(checks).checks, (r) => human(renderCheckLine(r)));
    human(renderFooter(report));
    if (json === '-') io.stdout(renderReportJson(report));
    else if (json !== undefined) {
      try {
        await writeFile(resolve(io.cwd, json), renderReportJson(report));
      } catch (err) {
        io.stderr(`aep check-live: cannot write the report to ${json}: ${(err as Error).message}\n`);
        return EXIT.failed;
      }
    }
    const sections = Object.fromEntries(CHECKS.map((c) => [c.name, c.section]));
    const judged = liveReport({
      target: report.target, startedAt: report.startedAt, finishedAt: report.finishedAt, results: report.checks, sections, failOnSkip,
      ...(baseline ? { baseline, baselineFile: resolve(io.cwd, baselinePath!) } : {}),
    });
    const verdict = judged.baseline!;
    if (baseline !== undefined || failOnSkip) {
      for (const line of verdictLines(verdict)) human(`${line}\n`);
      if (verdict.expected.length) human(`${verdict.expected.length} listed in ${baselinePath ?? 'the expected-failures file'} as expected to fail or skip\n`);
    }
    if (reportDir !== undefined) {
      writeOrFail(join(reportDir, 'report.json'), renderReport(stableReport(judged)), 'report');
      writeOrFail(join(reportDir, 'report.md'), renderMarkdown(judged), 'report summary');
      writeOrFail(join(reportDir, 'index.html'), renderHtml(judged), 'report page');
      human(`report: ${join(reportDir, 'report.json')}\n`);
    }
    if (junit !== undefined) {
      writeOrFail(junit, renderJunit(judged, 'aep check-live'), 'JUnit report');
      human(`junit: ${junit}\n`);
    }
    const exit = verdictExit(verdict);
    if (exit === EXIT_STALE) human(`exit ${EXIT_STALE}: the only problem is stale expected-failure entries\n`);
    return exit;
  },
};
