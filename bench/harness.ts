/**
 * The measurement loop. A benchmark has two sides, ours and a baseline, that do the same unit
 * of work (an Event validated, a MiB redacted, ...). They run in the same process, one after the
 * other, in interleaved rounds: ours first in even rounds, the baseline first in odd ones, so
 * drift in machine load (two cores shared with other work) hits both sides alike. Each side
 * runs its workload repeatedly for a time budget per round; the round's ratio is
 * ours ops/s / baseline ops/s. The result is the median over rounds, never an absolute timing
 * to assert on. No I/O here: the clock is injected.
 */
import { median } from './stats.js';

/** One side of a benchmark. */
export interface Side {
  /**
   * Do the workload once and return how many units it covered (> 0). Called repeatedly
   * during warm-up and rounds, never concurrently with itself or the other side. May throw
   * when its result is wrong: the benchmark then stops with that error.
   */
  run(): number | Promise<number>;
}

/** Both sides, ready to run: what `Benchmark.prepare` returns. */
export interface Prepared {
  readonly ours: Side;
  readonly baseline: Side;
  /** Release sockets, servers, timers. Called once after the last round, also on failure. */
  close?(): void | Promise<void>;
}

/** A named ours-versus-baseline comparison. */
export interface Benchmark {
  /** Short name, selectable with `--only`. */
  readonly name: string;
  /** What one unit of work is, plural (`events`, `MiB`). */
  readonly unit: string;
  /** One sentence: what ours does and what the baseline does. */
  readonly what: string;
  /** Time budget per side per round, in ms. The side's last run may overshoot it. */
  readonly budgetMs: number;
  /** Build inputs and start whatever the sides need; checks the inputs. Called once per bench run. */
  prepare(): Promise<Prepared>;
}

/** How to measure. */
export interface MeasureOptions {
  /** Timed rounds. */
  readonly rounds: number;
  /** Monotonic clock in ms. */
  readonly now: () => number;
  /** Untimed warm-up rounds before the timed ones. Default 1. */
  readonly warmupRounds?: number;
  /** Overrides every benchmark's `budgetMs` (quick mode). Default: the benchmark's own. */
  readonly budgetMs?: number;
  /** Called after each timed round (progress output). Default: nothing. */
  readonly onRound?: (round: RoundResult) => void;
}

/** One timed round: each side's throughput, and which side ran first. */
export interface RoundResult {
  readonly round: number;
  readonly first: 'ours' | 'baseline';
  readonly oursPerSec: number;
  readonly baselinePerSec: number;
  readonly ratio: number;
}

/** A finished benchmark. */
export interface BenchResult {
  readonly name: string;
  readonly unit: string;
  readonly what: string;
  /** Median over rounds of ours' units per second. */
  readonly ours: number;
  /** Median over rounds of the baseline's units per second. */
  readonly baseline: number;
  /** Median over rounds of the per-round ratio ours / baseline (> 1: ours is faster). */
  readonly ratio: number;
  /** Smallest and largest per-round ratio: the spread the median hides. */
  readonly ratioRange: readonly [number, number];
  readonly rounds: readonly RoundResult[];
}

/** Run `side` until `budgetMs` has elapsed (at least once); units per second. */
export async function timeSide(side: Side, budgetMs: number, now: () => number): Promise<number> {
  let units = 0;
  const start = now();
  let elapsed = 0;
  do {
    const got = await side.run();
    if (!(typeof got === 'number' && Number.isFinite(got) && got > 0)) {
      throw new Error(`a benchmark side returned ${String(got)} units; it must return the positive number of units it did`);
    }
    units += got;
    elapsed = now() - start;
  } while (elapsed < budgetMs);
  return (units * 1000) / Math.max(elapsed, 1e-6);
}

/** Warm both sides up, then run `rounds` interleaved timed rounds and summarize them. */
export async function measure(bench: Benchmark, prepared: Prepared, opts: MeasureOptions): Promise<BenchResult> {
  if (!Number.isInteger(opts.rounds) || opts.rounds < 1) throw new RangeError(`rounds must be a positive integer, got ${opts.rounds}`);
  const { ours, baseline } = prepared;
  const budget = opts.budgetMs ?? bench.budgetMs;
  for (let w = 0; w < (opts.warmupRounds ?? 1); w++) {
    await timeSide(ours, budget, opts.now);
    await timeSide(baseline, budget, opts.now);
  }
  const rounds: RoundResult[] = [];
  for (let round = 1; round <= opts.rounds; round++) {
    const first = round % 2 === 1 ? 'ours' : 'baseline';
    let oursPerSec: number;
    let baselinePerSec: number;
    if (first === 'ours') {
      oursPerSec = await timeSide(ours, budget, opts.now);
      baselinePerSec = await timeSide(baseline, budget, opts.now);
    } else {
      baselinePerSec = await timeSide(baseline, budget, opts.now);
      oursPerSec = await timeSide(ours, budget, opts.now);
    }
    const result: RoundResult = { round, first, oursPerSec, baselinePerSec, ratio: oursPerSec / baselinePerSec };
    rounds.push(result);
    opts.onRound?.(result);
  }
  const ratios = rounds.map((r) => r.ratio);
  return {
    name: bench.name,
    unit: bench.unit,
    what: bench.what,
    ours: median(rounds.map((r) => r.oursPerSec)),
    baseline: median(rounds.map((r) => r.baselinePerSec)),
    ratio: median(ratios),
    ratioRange: [Math.min(...ratios), Math.max(...ratios)],
    rounds,
  };
}

/** Prepare, measure and always close one benchmark. */
export async function runBenchmark(bench: Benchmark, opts: MeasureOptions): Promise<BenchResult> {
  const prepared = await bench.prepare();
  try {
    return await measure(bench, prepared, opts);
  } finally {
    await prepared.close?.();
  }
}
