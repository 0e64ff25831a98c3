/**
 * `aep conformance`: runs the fixture corpus through an implementation (this package's core
 * by default) and emits the standard's conformance report.
 */
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { judge, parseBaseline, readBaselineFile, unknownEntries, verdictExit, verdictLines, writeBaseline, EXIT_STALE, type Baseline, type BaselineFile, type BaselineScope } from '../../runners/conformance/baseline.js';
import { readBuildInfo } from '../../runners/conformance/build-info.js';
import { renderJunit } from '../../runners/conformance/junit.js';
import { DIFF_HELP, runDiff } from './conformance-diff.js';
import { runLint } from './conformance-lint.js';
import { defaultCorpusDir, packageRoot } from '../../runners/conformance/corpus.js';
import { renderHtml } from '../../runners/conformance/report-html.js';
import { renderMarkdown } from '../../runners/conformance/report-md.js';
import { corpusRevision } from '../../runners/conformance/revision.js';
import { FAMILIES } from '../../runners/conformance/families/index.js';
import { buildReport, renderReport, stableReport, withoutCommit, type ConformanceReport, type RunInfo, type Verdict } from '../../runners/conformance/report.js';
import { totals } from '../../runners/conformance/report-totals.js';
import { readTargetDeviations, type TargetDeviations } from '../../runners/conformance/target-deviations.js';
import { caseNames, runFamilies, type RunResult } from '../../runners/conformance/runner.js';
import type { Check, Family, Implementation } from '../../runners/conformance/types.js';
import { checkOutputFile, prepareDir } from '../adapter-kit/ensure-dir.js';
import { EXIT, UsageError, type CliIo } from './io.js';
import type { Verb } from './verb.js';
import { fsReason } from '../operator/fs-errors.js';
import type { Issue } from '../core/issue.js';
import { baselineScope, caseMatches, isIssue, planOutputs, planSelection, planTargets, relayPortIssue, targetText, type Outputs, type Selection, type TargetPlan } from './conformance-plan.js';
import { count } from '../operator/plural.js';

/** What the verb runs against; tests inject broken implementations and fake families. */
export interface ConformanceDeps {
  /** Default: the package's core (`runners/conformance/implementation.ts`). */
  implementation?: Implementation;
  /** Default: every registered family (`runners/conformance/families/index.ts`). */
  families?: readonly Family[];
  /** Default: `() => new Date()`. */
  now?: () => Date;
  /** `--live` counterparts by offline family name. Default: `runners/live/families.ts` (`mappings`, `control-loop`). */
  liveFamilies?: Readonly<Record<string, Family>>;
  /** The `--vendors` family. Default: `runners/vendors/lane.ts` (the real vendor CLIs). */
  vendorsFamily?: Family;
  /** Extra files `--report DIR` writes beside report.json/md/index.html (certification pages): relative path → text. */
  reportPages?: (report: ConformanceReport) => Promise<Record<string, string>> | Record<string, string>;
  /** Where live progress lines go (default: stderr). */
  progress?: (line: string) => void;
}

const TOOL = 'run-ts';

/** The verb's usage and flags, up to the family list (`help` adds the families, the exit codes and `diff`). */
const HELP_HEAD = `usage: aep conformance [--corpus DIR] [--family NAME]... [NAME...] [--live] [--vendors] [--json PATH|-] [--report DIR]
                       [--junit FILE] [--expected-failures FILE] [--write-expected-failures FILE]
                       [--require-revision sha256:HEX] [--case NAME]... [--list] [--target AGENT=URL|COMMAND]...

also:  aep conformance --lint-corpus [--corpus DIR] [--json PATH|-]
       aep conformance diff BASE.json NEW.json [--md] [--json PATH|-]   (below)

Runs the AEP 0.1 conformance fixture corpus against this reference implementation and
prints one line per family; every failed check is listed with what went wrong.

flags:
  --corpus DIR     corpus root holding golden/, invalid/, ... (default: the package's own
                   conformance/fixtures, found from the install location, not the cwd)
  --family NAME    run only this family; repeat it, separate names with commas, or list the
                   names as arguments (default: every family whose files exist in the corpus)
  --live           also run the live counterpart of each selected family that has one
                   (mappings, control-loop, bridge-mappings), checks named live/<family>/<case>:
                   a tokened relay and the adapter daemons (the AG-UI tee proxy for
                   bridge-mappings) on free loopback ports, torn down at the end
                   (default: off, fixture checks only)
  --vendors        also run the real vendor CLIs pinned in runners/vendors/versions.json
                   against scripted model servers, checks named vendors/<vendor>/<scenario>;
                   installs missing pins into AEP_VENDORS_CACHE (default ~/.cache/aep-vendors)
                   and saves captured hook payloads under AEP_VENDORS_CAPTURE_DIR (default
                   reports/vendors) (default: off)
  --json PATH|-    also write the JSON report to PATH; '-' puts only the JSON on stdout and
                   moves every human line to stderr (default: no JSON report)
  --report DIR     write DIR/report.json (the JSON report, annotated, without the startedAt
                   and finishedAt timestamps so a committed folder changes only when a result
                   does; --json keeps them), DIR/report.md (the summary for a PR),
                   DIR/index.html (the self-contained page) and
                   DIR/certification/<integration>.md; DIR is made first, so --json and --junit
                   may point into it (default: none)
  --junit FILE     also write JUnit XML for CI test reporters: one testcase per check, classname
                   the family (.integration), spec sections as properties; an expected failure
                   is a skipped testcase with the baseline's reason (default: none)
  --expected-failures FILE
                   a JSON object {"<check name>": "<reason>"}: listed checks may fail or skip;
                   an unlisted failure or skip fails the run (exit 1), a listed check that
                   passes is stale (exit 3 when that is the only problem); an entry of a family
                   that ran naming no check is an error (no such check: ...; did you mean ...?)
                   (default: none, so every skip and every failure fails the run)
  --write-expected-failures FILE
                   write the run's failures and skips to FILE as a baseline, each with its detail
                   as the reason; an existing FILE is refreshed: its reasons and comments kept,
                   entries that now pass or name no check dropped, entries of families not run
                   kept. The run is then judged against the written file (default: none)
  --require-revision sha256:HEX
                   run only when the corpus is exactly that revision (run.revision of a report);
                   another revision fails the run before any check (default: any revision)
  --lint-corpus    instead of a run, lint the corpus: pins whose data members their type's
                   schema does not declare, and mapping entries for hooks the integration's
                   descriptor does not list; exit 1 on any finding
  --case NAME      run only this check (exact name, or a prefix ending at a '/'); repeatable
  --list           list every family and the names of its cases, and exit
  --target AGENT=URL|COMMAND
                   with --live: certify an external daemon instead of ours, judged on the wire
                   only (hook replies, events at the relay this run starts); URL: a running
                   loopback daemon linked to that relay (fix it with AEP_TARGET_RELAY_PORT and
                   AEP_TOKEN); COMMAND: started per configuration via sh -c, '{relay}' and
                   '{token}' substituted, its URL the first http://127.0.0.1:PORT it prints
                   (repeatable; only the live families run). A target is certified against
                   the standard: 'must' and 'pin' checks only, the report naming the profile;
                   scenarios for a capability its hello does not declare are 'not declared'
  --reference-parity
                   with --target: also hold the target to this project's own choices (the
                   'reference' checks: our hook pins, reply bytes, run-id derivation) (default: off)
  --deviations FILE
                   with --target: the target's documented deviations, {"<pin member>": "<reason>"};
                   a 'pin' check failing only on declared members is 'deviation (documented)',
                   an undeclared one fails (default: none)

families:
`;

const HELP_TAIL = `

exit codes: 0 every check passed (or failed/skipped as the expected-failures file says), 1 a
check failed or was skipped unexcused (or the corpus is not the --require-revision), 3 the only
problem is stale expected-failure entries (listed checks that now pass), 2 usage (unknown family,
a named family absent from the corpus, a missing corpus directory, an unwritable report path, an
expected-failures entry naming no check)

${DIFF_HELP}`;

function help(families: readonly Family[]): string {
  const width = Math.max(...families.map((f) => f.name.length));
  return `${HELP_HEAD}${families.map((f) => `  ${f.name.padEnd(width)}  ${f.description}`).join('\n')}${HELP_TAIL}`;
}

function selectFamilies(requested: string[], families: readonly Family[], corpusDir: string): Family[] {
  if (requested.length === 0) {
    const found = families.filter((f) => f.detect(corpusDir));
    if (found.length === 0) throw new UsageError(`no fixture family found under ${corpusDir} (expected golden/, invalid/, ...)`);
    return found;
  }
  const known = families.map((f) => f.name);
  const unknown = requested.filter((n) => !known.includes(n));
  if (unknown.length) throw new UsageError(`unknown family ${unknown.map((n) => `'${n}'`).join(', ')}; known families: ${known.join(', ')}`);
  const chosen = families.filter((f) => requested.includes(f.name));
  const absent = chosen.filter((f) => !f.detect(corpusDir));
  if (absent.length) throw new UsageError(`the fixture files of ${absent.map((f) => `'${f.name}'`).join(', ')} are absent from ${corpusDir}`);
  return chosen;
}

/** The named families (all when none is named), corpus or not: a `--target` run's selection. */
function selectNamed(requested: string[], families: readonly Family[]): Family[] {
  const known = families.map((f) => f.name);
  const unknown = requested.filter((n) => !known.includes(n));
  if (unknown.length) throw new UsageError(`unknown family ${unknown.map((n) => `'${n}'`).join(', ')}; known families: ${known.join(', ')}`);
  return requested.length === 0 ? [...families] : families.filter((f) => requested.includes(f.name));
}

function writeFile(path: string, text: string, what: string): void {
  try {
    writeFileSync(path, text);
  } catch (err) {
    throw new UsageError(`cannot write the ${what} to ${path}: ${fsReason(err)}`);
  }
}

/** Create a report folder one level at a time, with a bound (ensure-dir.ts), or a usage error naming --report. */
function makeDir(dir: string): void {
  const ready = prepareDir(dir, '--report');
  if (ready !== true) throw new UsageError(ready);
}

/**
 * report.json, report.md, index.html and the extra pages into `dir` (made before the run, by
 * `prepareOutputs`); returns the report.json path. The md and html pages share one totals computation.
 */
async function writeReports(report: ConformanceReport, dir: string, deps: ConformanceDeps): Promise<string> {
  const path = join(dir, 'report.json');
  // No wall-clock members in the folder a project commits: it changes only when a result does.
  writeFile(path, renderReport(stableReport(report)), 'report');
  const shown = withoutCommit(report);
  const sums = totals(shown);
  writeFile(join(dir, 'report.md'), renderMarkdown(shown, sums), 'report summary');
  writeFile(join(dir, 'index.html'), renderHtml(shown, sums), 'report page');
  const makePages = deps.reportPages ?? (await import('../../runners/conformance/certify.js')).certificationPages;
  const pages = await makePages(shown);
  const made = new Set([resolve(dir)]);
  for (const [rel, page] of Object.entries(pages)) {
    const file = join(dir, rel);
    const folder = resolve(file, '..');
    if (!made.has(folder)) makeDir(folder);
    made.add(folder);
    writeFile(file, page, 'report page');
  }
  return path;
}

/** The corpus as recorded: relative to the package root when inside it (stable across clones). */
function recordedCorpus(corpusDir: string): string {
  try {
    const rel = relative(packageRoot(), corpusDir);
    return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : corpusDir;
  } catch {
    return corpusDir;
  }
}

/** The live families for `--live`, in the order of the selected families that have one. */
async function liveCounterparts(selected: readonly Family[], deps: ConformanceDeps, human: (text: string) => void): Promise<Family[]> {
  const all = deps.liveFamilies ?? (await import('../../runners/live/families.js')).LIVE_FAMILIES;
  const live = selected.flatMap((f) => (all[f.name] ? [all[f.name]!] : []));
  if (live.length === 0) human(`--live: none of the selected families has a live counterpart (${Object.keys(all).join(', ')} do)\n`);
  return live;
}

/** `--list`: every selected family with the names of its cases, read from its plan (no case is judged). */
async function listCases(selected: readonly Family[], corpusDir: string, implementation: Implementation, io: CliIo): Promise<number> {
  for (const family of selected) {
    io.stdout(`${family.name}: ${family.description}\n`);
    for (const name of await caseNames(family, corpusDir, implementation)) io.stdout(`  ${name}\n`);
  }
  return EXIT.ok;
}

/** A live family whose progress lines (daemon starting, scenarios done) go to `progress` with the elapsed time. */
function withProgress(family: Family, progress: (line: string) => void): Family {
  return {
    ...family,
    run: (ctx) => {
      const t0 = Date.now();
      const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
      progress(`${family.name}: starting (a tokened relay on a free loopback port)\n`);
      const logger = { info: (line: string) => progress(`${family.name}: ${line} [${elapsed()}]\n`) };
      return Promise.resolve(family.run({ ...ctx, logger })).finally(() => progress(`${family.name}: done [${elapsed()}]\n`));
    },
  };
}

/** A plan step's `Issue` as the verb's usage error; data passes through. */
function orUsage<T extends object>(planned: T | Issue): T {
  if (isIssue(planned)) throw new UsageError(planned.message);
  return planned;
}

/** `--corpus` (resolved) or the package's corpus; a usage error when it is not a directory. */
function corpusOf(values: Record<string, unknown>, cwd: string): string {
  const corpusDir = typeof values.corpus === 'string' ? resolve(cwd, values.corpus) : defaultCorpusDir();
  let isDir = false;
  try {
    isDir = statSync(corpusDir).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new UsageError(`corpus directory ${corpusDir} does not exist or is not a directory`);
  return corpusDir;
}

/**
 * Output paths are checked before the run, so a typo costs nothing; each folder is made here,
 * once. The report folder first: --json and --junit may name a file inside it (--json
 * aep-report/run.json --report aep-report). A baseline is written where the project keeps it
 * (.aep/expected-failures.json): its folder is made.
 */
function prepareOutputs(outputs: Outputs): void {
  const ready = (ok: true | string): void => {
    if (ok !== true) throw new UsageError(ok);
  };
  if (outputs.report !== undefined) ready(prepareDir(outputs.report, '--report'));
  if (outputs.writeBaseline !== undefined) ready(prepareDir(dirname(outputs.writeBaseline), '--write-expected-failures'));
  for (const [flag, path] of outputs.files) ready(checkOutputFile(path, flag));
}

/** The baseline whose reasons a run keeps: the file being written when it exists, else --expected-failures. */
function readBaselineFor(outputs: Outputs): BaselineFile | undefined {
  const from = outputs.writeBaseline !== undefined && existsSync(outputs.writeBaseline) ? outputs.writeBaseline : outputs.readBaseline;
  try {
    return from === undefined ? undefined : readBaselineFile(from);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** What a `--target` run adds: its plan, its documented deviations, the hellos it saw, and the live families aimed at it. */
interface Targeting {
  plan: TargetPlan;
  deviations?: TargetDeviations;
  hellos: Record<string, Record<string, unknown>>;
  liveDeps: ConformanceDeps;
}

async function prepareTargets(values: Record<string, unknown>, selection: Selection, io: CliIo, deps: ConformanceDeps): Promise<Targeting> {
  const plan = orUsage(planTargets(values, selection.wantsLive, io.cwd, io.env));
  let deviations: TargetDeviations | undefined;
  try {
    deviations = plan.deviationsFile === undefined ? undefined : readTargetDeviations(plan.deviationsFile);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const hellos: Record<string, Record<string, unknown>> = {};
  let liveDeps = deps;
  if (plan.targets.length > 0 && !deps.liveFamilies) {
    const bad = relayPortIssue(plan, io.env);
    if (bad) throw new UsageError(bad.message);
    const { targetedLiveFamilies } = await import('../../runners/live/families.js');
    const how = { profile: plan.profile, onHello: (agent: string, hello: Record<string, unknown>) => void (hellos[agent] = hello), ...(deviations ? { deviations, deviationsFile: plan.deviationsFile } : {}) };
    liveDeps = { ...deps, liveFamilies: targetedLiveFamilies(plan.targets, { relayPort: plan.relayPort, ...(io.env.AEP_TOKEN ? { token: io.env.AEP_TOKEN } : {}) }, how) };
  }
  return { plan, ...(deviations ? { deviations } : {}), hellos, liveDeps };
}

/** The live families of the run; a targeted run drops those the corpus holds nothing for, and names its profile. */
async function liveFamiliesOf(selected: readonly Family[], selection: Selection, targeting: Targeting, corpusDir: string, human: (text: string) => void): Promise<Family[]> {
  const live = selection.wantsLive ? await liveCounterparts(selected, targeting.liveDeps, human) : [];
  const { targets, profile, deviationsFile } = targeting.plan;
  if (targets.length === 0) return live;
  const absent = live.filter((f) => !f.detect(corpusDir));
  for (const f of absent) human(`${f.name}: ${corpusDir} holds nothing of ${targets.map((t) => t.agent).join(', ')} for it: not run\n`);
  const deviations = targeting.deviations;
  human(`profile: ${profile} (${profile === 'standard' ? "the standard's MUSTs and pins; this project's own choices are not judged (--reference-parity adds them)" : "the standard's MUSTs and pins, and this project's own choices"})${deviations ? `; ${count(deviations.size, 'documented deviation')} from ${deviationsFile}` : ''}\n`);
  return live.filter((f) => !absent.includes(f));
}

/** The families a run ran, and their (selected) checks. */
interface Ran {
  result: RunResult;
  /** Families in the report's `run.families` (the vendors lane is not one). */
  reported: Family[];
  /** Every family that ran, the baseline's scope. */
  ran: Family[];
}

async function runSelected(selected: readonly Family[], live: readonly Family[], selection: Selection, targeted: boolean, corpusDir: string, implementation: Implementation, io: CliIo, deps: ConformanceDeps, values: Record<string, unknown>, human: (text: string) => void): Promise<Ran> {
  const progress = deps.progress ?? io.stderr;
  const liveWithProgress = live.map((f) => withProgress(f, progress));
  const vendors = values.vendors === true ? [deps.vendorsFamily ?? (await import('../../runners/vendors/lane.js')).vendorsFamily(io.env.AEP_VENDORS_CAPTURE_DIR || undefined)] : [];
  const { cases, selects } = selection;
  const pending: string[] = [];
  if (!cases.length) human(`aep conformance: corpus ${corpusDir}\n`);
  const result = await runFamilies({
    corpusDir,
    // A --target run judges the external daemon only: the offline families check this implementation.
    families: targeted ? liveWithProgress : [...selected, ...liveWithProgress, ...vendors],
    implementation,
    // With --case, the family lines wait until the selection is known to match (an unmatched --case prints nothing but its error).
    logger: { info: (line) => (cases.length ? pending.push(`${line}\n`) : human(`${line}\n`)) },
    ...(deps.now ? { now: deps.now } : {}),
    ...(selects ? { selects } : {}),
  });
  if (cases.length > 0) {
    // The runner kept the selected checks only (--case is applied once, there).
    const missing = cases.filter((sel) => !result.checks.some((c) => caseMatches(c.name, sel)));
    if (missing.length) throw new UsageError(`no check matches --case ${missing.map((m) => `'${m}'`).join(', ')} in ${corpusDir}; 'aep conformance --list' lists them`);
    human(`aep conformance: corpus ${corpusDir}\n`);
    for (const line of pending) human(line);
  }
  const reported = targeted ? [...live] : [...selected, ...live];
  return { result, reported, ran: targeted ? [...live] : [...reported, ...vendors] };
}

/** The baseline written (`--write-expected-failures`) or checked for entries naming no check; the verdict. */
function judgeRun(checks: readonly Check[], scope: BaselineScope, outputs: Outputs, baselineFile: BaselineFile | undefined, human: (text: string) => void): { verdict: Verdict; baseline?: Baseline; baselinePath?: string } {
  let baseline = baselineFile?.entries;
  let baselinePath = outputs.readBaseline;
  const writePath = outputs.writeBaseline;
  if (writePath !== undefined) {
    const written = writeBaseline([...checks], baselineFile, scope);
    writeFile(writePath, written.text, 'expected-failures file');
    baseline = parseBaseline(written.text, writePath);
    baselinePath = writePath;
    human(`expected failures: wrote ${writePath}: ${count(baseline.size, 'entry', 'entries')} (${written.added.length} new, ${written.kept.length} kept, ${written.removed.length} dropped${written.removed.length ? `: ${written.removed.join(', ')}` : ''})\n`);
  } else if (baseline !== undefined) {
    const unknown = unknownEntries(baseline, [...checks], scope);
    if (unknown.length) throw new UsageError(`${outputs.readBaseline}: ${unknown.join(`\n${outputs.readBaseline}: `)}`);
  }
  const verdict = judge([...checks], baseline, baselinePath);
  return { verdict, ...(baseline ? { baseline } : {}), ...(baselinePath !== undefined ? { baselinePath } : {}) };
}

/** The report's `run` record. */
function runRecord(corpusDir: string, selection: Selection, reported: readonly Family[], targeting: Targeting): RunInfo {
  const build = readBuildInfo();
  const { targets, profile } = targeting.plan;
  const deviations = targeting.deviations;
  return {
    corpus: recordedCorpus(corpusDir),
    revision: corpusRevision(corpusDir),
    tool: { name: build.name, version: build.version, commit: build.commit },
    node: process.version,
    target: targetText(targets),
    families: reported.map((f) => f.name),
    ...(selection.cases.length ? { cases: selection.cases } : {}),
    ...(targets.length > 0 ? { profile, targets: targets.map((t) => ({ agent: t.agent, run: t.url ?? t.command ?? '' })), hellos: targeting.hellos, ...(deviations ? { deviations: Object.fromEntries(deviations) } : {}) } : {}),
  };
}

/** Print the verdict and the totals, write every requested output; the exit code. */
async function finish(report: ConformanceReport, judged: ReturnType<typeof judgeRun>, outputs: Outputs, io: CliIo, deps: ConformanceDeps, human: (text: string) => void): Promise<number> {
  const { verdict, baseline, baselinePath } = judged;
  const { pass, fail, skip, total } = report.summary;
  // Each failure is printed once, on its FAIL line; without an expected-failures file "unexpected" would only repeat it.
  for (const line of verdictLines(baseline ? verdict : { ...verdict, unexpected: [] })) human(`${line}\n`);
  if (baseline && verdict.expected.length) human(`${verdict.expected.length} listed in ${baselinePath} as expected to fail or skip\n`);
  human(`${count(total, 'check')}: ${pass} pass, ${fail} fail, ${skip} skip: ${report.ok ? 'OK' : 'FAILED'}\n`);
  const text = renderReport(report);
  if (outputs.report !== undefined) {
    const path = await writeReports(report, outputs.report, deps);
    human(`report: ${path}\n`);
  }
  if (outputs.json === '-') io.stdout(text);
  else if (outputs.json !== undefined) writeFile(outputs.json, text, 'JSON report');
  if (outputs.junit !== undefined) {
    writeFile(outputs.junit, renderJunit(report), 'JUnit report');
    human(`junit: ${outputs.junit}\n`);
  }
  const exit = verdictExit(verdict);
  if (exit === EXIT_STALE) human(`exit ${EXIT_STALE}: the only problem is stale expected-failure entries\n`);
  return exit;
}

/** The verb body, with injectable dependencies: decide (conformance-plan.ts), then do. Returns the exit code. */
export async function runConformance(
  args: { values: Record<string, unknown>; positionals: string[] },
  io: CliIo,
  deps: ConformanceDeps = {},
): Promise<number> {
  const values = args.values;
  if (args.positionals[0] === 'diff') return runDiff(args.positionals.slice(1), values, io);
  const families = deps.families ?? FAMILIES;
  const outputs = planOutputs(values, io.cwd);
  const human = outputs.json === '-' ? io.stderr : io.stdout;
  const corpusDir = corpusOf(values, io.cwd);
  if (values.md === true) throw new UsageError("--md belongs to 'aep conformance diff BASE.json NEW.json'; a run writes Markdown with --report DIR (DIR/report.md)");
  if (values['lint-corpus'] === true) return runLint(corpusDir, values.json as string | undefined, io);
  const selection = orUsage(planSelection(values, args.positionals, families.map((f) => f.name)));
  const selected = selection.byName ? selectNamed(selection.wanted, families) : selectFamilies(selection.wanted, families, corpusDir);
  prepareOutputs(outputs);
  const implementation = deps.implementation ?? (await import('../../runners/conformance/implementation.js')).referenceImplementation;
  const baselineFile = readBaselineFor(outputs);
  if (selection.required !== undefined) {
    const actual = corpusRevision(corpusDir);
    if (actual !== selection.required) {
      human(`aep conformance: the corpus ${corpusDir} is revision ${actual}, not the required ${selection.required} (--require-revision); no check was run\n`);
      return EXIT.failed;
    }
  }
  if (values.list === true) return listCases(selected, corpusDir, implementation, io);

  const targeting = await prepareTargets(values, selection, io, deps);
  const targeted = targeting.plan.targets.length > 0;
  const live = await liveFamiliesOf(selected, selection, targeting, corpusDir, human);
  const { result, reported, ran } = await runSelected(selected, live, selection, targeted, corpusDir, implementation, io, deps, values, human);
  const scope = baselineScope(families.map((f) => f.name), ran.map((f) => f.name), selection);
  const judged = judgeRun(result.checks, scope, outputs, baselineFile, human);
  const run = runRecord(corpusDir, selection, reported, targeting);
  const report = buildReport({ tool: TOOL, ...result, target: targetText(targeting.plan.targets), checks: result.checks, annotate: true, run, verdict: judged.verdict });
  return finish(report, judged, outputs, io, deps, human);
}

export const verb: Verb = {
  name: 'conformance',
  summary: 'run the conformance fixture corpus and write the conformance report',
  help: help(FAMILIES),
  options: {
    corpus: { type: 'string' },
    family: { type: 'string', multiple: true },
    live: { type: 'boolean' },
    vendors: { type: 'boolean' },
    json: { type: 'string' },
    report: { type: 'string' },
    'expected-failures': { type: 'string' },
    case: { type: 'string', multiple: true },
    list: { type: 'boolean' },
    target: { type: 'string', multiple: true },
    junit: { type: 'string' },
    'write-expected-failures': { type: 'string' },
    'require-revision': { type: 'string' },
    'lint-corpus': { type: 'boolean' },
    md: { type: 'boolean' },
    'reference-parity': { type: 'boolean' },
    deviations: { type: 'string' },
  },
  allowPositionals: true,
  run: (args, io) => runConformance(args, io),
};
