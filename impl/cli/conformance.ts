/**
 * `aep conformance`: runs the fixture corpus through an implementation (this package's core
 * by default) and emits the standard's conformance report.
 */
import { statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultCorpusDir } from '../../runners/conformance/corpus.js';
import { FAMILIES } from '../../runners/conformance/families/index.js';
import { buildReport, renderReport, type ConformanceReport } from '../../runners/conformance/report.js';
import { runFamilies } from '../../runners/conformance/runner.js';
import type { Family, Implementation } from '../../runners/conformance/types.js';
import { checkOutputFile, prepareDir } from '../adapter-kit/ensure-dir.js';
import { EXIT, UsageError, type CliIo } from './io.js';
import type { Verb } from './verb.js';

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
}

const TOOL = 'run-ts';

function help(families: readonly Family[]): string {
  const width = Math.max(...families.map((f) => f.name.length));
  return `usage: aep conformance [--corpus DIR] [--family NAME]... [NAME...] [--live] [--vendors] [--json PATH|-] [--report DIR]

Runs the AEP 0.1 conformance fixture corpus against this reference implementation and
prints one line per family; every failed check is listed with what went wrong.

flags:
  --corpus DIR     corpus root holding golden/, invalid/, ... (default: the package's own
                   conformance/fixtures, found from the install location, not the cwd)
  --family NAME    run only this family; repeat it, separate names with commas, or list the
                   names as arguments (default: every family whose files exist in the corpus)
  --live           also run the live counterpart of each selected family that has one
                   (mappings, control-loop), checks named live/<family>/<case>: a tokened relay
                   and the adapter daemons on free loopback ports, torn down at the end
                   (default: off, fixture checks only)
  --vendors        also run the real vendor CLIs pinned in runners/vendors/versions.json
                   against scripted model servers, checks named vendors/<vendor>/<scenario>;
                   installs missing pins into AEP_VENDORS_CACHE (default ~/.cache/aep-vendors)
                   and saves captured hook payloads under AEP_VENDORS_CAPTURE_DIR (default
                   reports/vendors) (default: off)
  --json PATH|-    also write the JSON report to PATH; '-' puts only the JSON on stdout and
                   moves every human line to stderr (default: no JSON report)
  --report DIR     write DIR/conformance-<startedAt>.json and DIR/latest.json (default: none)

families:
${families.map((f) => `  ${f.name.padEnd(width)}  ${f.description}`).join('\n')}

exit codes: 0 every check passed, 1 a check failed, 2 usage (unknown family, a named family
absent from the corpus, a missing corpus directory, an unwritable report path)
`;
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

function writeFile(path: string, text: string, what: string): void {
  try {
    writeFileSync(path, text);
  } catch (err) {
    throw new UsageError(`cannot write the ${what} to ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

function writeReports(report: ConformanceReport, text: string, dir: string): string {
  const ready = prepareDir(dir, '--report');
  if (ready !== true) throw new UsageError(ready);
  const stamped = join(dir, `conformance-${report.startedAt.replace(/:/g, '-')}.json`);
  writeFile(stamped, text, 'report');
  writeFile(join(dir, 'latest.json'), text, 'report');
  return stamped;
}

/** The live families for `--live`, in the order of the selected families that have one. */
async function liveCounterparts(selected: readonly Family[], deps: ConformanceDeps, human: (text: string) => void): Promise<Family[]> {
  const all = deps.liveFamilies ?? (await import('../../runners/live/families.js')).LIVE_FAMILIES;
  const live = selected.flatMap((f) => (all[f.name] ? [all[f.name]!] : []));
  if (live.length === 0) human(`--live: none of the selected families has a live counterpart (${Object.keys(all).join(', ')} do)\n`);
  return live;
}

/** The verb body, with injectable dependencies. Returns the exit code. */
export async function runConformance(
  args: { values: Record<string, unknown>; positionals: string[] },
  io: CliIo,
  deps: ConformanceDeps = {},
): Promise<number> {
  const families = deps.families ?? FAMILIES;
  const json = args.values.json as string | undefined;
  const human = json === '-' ? io.stderr : io.stdout;
  const corpusDir = typeof args.values.corpus === 'string' ? resolve(io.cwd, args.values.corpus) : defaultCorpusDir();
  let isDir = false;
  try {
    isDir = statSync(corpusDir).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new UsageError(`corpus directory ${corpusDir} does not exist or is not a directory`);
  const requested = [...((args.values.family as string[] | undefined) ?? []), ...args.positionals]
    .flatMap((n) => n.split(','))
    .map((n) => n.trim())
    .filter((n) => n !== '');
  const selected = selectFamilies(requested, families, corpusDir);
  // Output paths are checked before the run, so a typo costs nothing.
  if (json !== undefined && json !== '-') {
    const ok = checkOutputFile(resolve(io.cwd, json), '--json');
    if (ok !== true) throw new UsageError(ok);
  }
  if (typeof args.values.report === 'string') {
    const ok = prepareDir(resolve(io.cwd, args.values.report), '--report');
    if (ok !== true) throw new UsageError(ok);
  }
  const implementation = deps.implementation ?? (await import('../../runners/conformance/implementation.js')).referenceImplementation;

  const live = args.values.live === true ? await liveCounterparts(selected, deps, human) : [];
  const vendors = args.values.vendors === true ? [deps.vendorsFamily ?? (await import('../../runners/vendors/lane.js')).vendorsFamily(io.env.AEP_VENDORS_CAPTURE_DIR || undefined)] : [];

  human(`aep conformance: corpus ${corpusDir}\n`);
  const result = await runFamilies({
    corpusDir,
    families: [...selected, ...live, ...vendors],
    implementation,
    logger: { info: (line) => human(`${line}\n`) },
    ...(deps.now ? { now: deps.now } : {}),
  });
  const report = buildReport({ tool: TOOL, target: null, ...result });
  const { pass, fail, skip, total } = report.summary;
  human(`${total} checks: ${pass} pass, ${fail} fail, ${skip} skip: ${report.ok ? 'OK' : 'FAILED'}\n`);

  const text = renderReport(report);
  if (json === '-') io.stdout(text);
  else if (json !== undefined) writeFile(resolve(io.cwd, json), text, 'JSON report');
  if (typeof args.values.report === 'string') {
    const path = writeReports(report, text, resolve(io.cwd, args.values.report));
    human(`report: ${path}\n`);
  }
  return report.ok ? EXIT.ok : EXIT.failed;
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
  },
  allowPositionals: true,
  run: (args, io) => runConformance(args, io),
};
