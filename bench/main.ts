/**
 * `npm run bench`: run the benchmarks and print the table (or JSON with `--json`).
 * Progress goes to stderr, results to stdout. Exit code 0, or 1 when a benchmark failed
 * (its error is printed; the others still run), 2 on bad arguments.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs, USAGE, type BenchArgs } from './args.js';
import { BENCHMARKS } from './cases/index.js';
import { runBenchmark } from './harness.js';
import { isSampleBenchmark, runSampleBenchmark, type AnyBenchmark, type AnyResult, type SampleResult } from './samples.js';
import { writeFileSync } from 'node:fs';
import { formatRatio, formatValue, renderJson, renderTable } from './report.js';
import { renderTargets } from './targets.js';
import { SYSTEM_PROBE, withLoad, type LoadProbe, type RowLoad } from './load.js';

/** Quick mode's time budget per side (one round, no warm-up). */
export const QUICK_BUDGET_MS = 20;

/** Where output goes; `process.stdout` / `process.stderr` by default. */
export interface Writer {
  write(text: string): unknown;
}

/**
 * Run the bench with `argv` (the arguments after the script); resolves with the exit code.
 * `benchmarks` defaults to all of them, `out`/`err` to stdout/stderr.
 */
export async function main(
  argv: readonly string[],
  benchmarks: readonly AnyBenchmark[] = BENCHMARKS,
  out: Writer = process.stdout,
  err: Writer = process.stderr,
  probe: LoadProbe = SYSTEM_PROBE,
): Promise<number> {
  const parsed = parseArgs(argv, benchmarks.map((b) => b.name));
  if (!parsed.ok) {
    err.write(`bench: ${parsed.error}\n\n${USAGE}`);
    return 2;
  }
  const { args } = parsed;
  if (args.help) {
    out.write(USAGE);
    return 0;
  }
  const selected = args.only.length === 0 ? benchmarks : args.only.map((name) => benchmarks.find((b) => b.name === name)!);
  const results: AnyResult[] = [];
  const loads = new Map<string, RowLoad>();
  const loadAtStart = probe.load();
  let failed = 0;
  for (const bench of selected) {
    err.write(`${bench.name}: ${bench.what}\n`);
    try {
      const { value: result, load } = await withLoad(probe, () => runRow(bench, args, err));
      results.push(result);
      loads.set(bench.name, load);
      err.write(`  load average ${load.start} at start, ${load.end} at end, ${load.cores} cores${load.noisy ? ': NOISY (above 1.0 per core), no verdict on this row' : ''}\n`);
    } catch (error) {
      failed++;
      err.write(`bench ${bench.name} failed: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
  const machine = { cores: probe.cores(), loadAtStart, loadAtEnd: probe.load() };
  const meta = { node: process.version, platform: `${process.platform}-${process.arch}`, rounds: args.rounds, quick: args.quick, machine };
  out.write(args.json ? renderJson(results, meta, loads) : renderTable(results, loads));
  if (args.jsonFile !== undefined) {
    try {
      writeFileSync(args.jsonFile, renderTargets(results, loads, machine));
    } catch (error) {
      err.write(`bench: cannot write ${args.jsonFile}: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
  }
  return failed > 0 ? 1 : 0;
}

/** Runs one row with its rounds, printing progress to `err`. */
async function runRow(bench: AnyBenchmark, args: BenchArgs, err: Writer): Promise<AnyResult> {
  const opts = {
    rounds: args.rounds,
    ...(args.quick ? { budgetMs: QUICK_BUDGET_MS, warmupRounds: 0 } : {}),
    now: () => performance.now(),
    quick: args.quick,
  };
  if (!isSampleBenchmark(bench)) {
    return runBenchmark(bench, { ...opts, onRound: (r) => err.write(`  round ${r.round}/${args.rounds} (${r.first} first): ${formatRatio(r.ratio)}\n`) });
  }
  const rounds = Math.min(args.rounds, bench.maxRounds ?? args.rounds);
  const done: SampleResult = await runSampleBenchmark(bench, {
    ...opts,
    onRound: (r) => err.write(`  round ${r.round}/${rounds} (${r.first} first): ours ${formatValue(r.oursPerSec, bench.unit)}${Number.isNaN(r.ratio) ? '' : `, baseline ${formatValue(r.baselinePerSec, bench.unit)}, ${formatRatio(r.ratio)}`}\n`),
  });
  for (const [side, stats] of [['ours', done.stats.ours], ['baseline', done.stats.baseline]] as const) {
    for (const [metric, m] of Object.entries(stats ?? {})) err.write(`  ${side} ${metric}: p50 ${formatValue(m.p50, bench.unit)}, p99 ${formatValue(m.p99, bench.unit)}, max ${formatValue(m.max, bench.unit)} (${m.n} samples)\n`);
  }
  return done;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
