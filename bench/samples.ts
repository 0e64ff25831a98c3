/**
 * The sample-shaped benchmark kind, beside the throughput kind of `harness.ts`: for rows whose
 * figure is a latency quantile (POST-to-SSE p99, a hook round-trip), a time to completion (a
 * resume, a conformance run) or a size (resident memory). A side's `trial()` does the workload
 * once and returns samples per metric; the row's value is one quantile of one metric (`primary`)
 * over every sample of every round. Lower is better, so the ratio is baseline / ours (above 1:
 * ours is better, as for throughput). A benchmark without a baseline (an absolute target) has no
 * ratio. Rounds alternate which side runs first, like the throughput kind. No I/O: the clock is
 * injected.
 */
import type { Benchmark, BenchResult, MeasureOptions } from './harness.js';

/** Samples per metric from one trial, e.g. `{first: [1.2], last: [40.3]}`; every array non-empty. */
export type Samples = Readonly<Record<string, readonly number[]>>;

/** One side of a sample benchmark. */
export interface SampleSide {
  /** Do the workload once; throws when its result is wrong (the benchmark then stops). */
  trial(): Promise<Samples>;
}

export interface SamplePrepared {
  readonly ours: SampleSide;
  /** Absent for an absolute row (`runner`): no ratio then. */
  readonly baseline?: SampleSide;
  close?(): void | Promise<void>;
}

/** What `prepare` is told about the run. */
export interface PrepareContext {
  /** `--quick`: a smaller workload that still checks itself. */
  readonly quick: boolean;
}

export interface SampleBenchmark {
  readonly kind: 'samples';
  readonly name: string;
  /** Unit of the samples: `ms`, `bytes`. */
  readonly unit: string;
  readonly what: string;
  /** Time budget per side per round, in ms; at least `minTrials` trials run regardless. */
  readonly budgetMs: number;
  /** Trials per side per round at least (default 1). */
  readonly minTrials?: number;
  /** At most this many rounds, whatever `--rounds` says (a costly trial, e.g. `memory`). */
  readonly maxRounds?: number;
  /**
   * How the sides share a round. `'rounds'` (the default): one side's trials, then the other's.
   * `'trials'`: the sides alternate trial by trial within the round (the round's first side
   * still alternates between rounds), until each side has spent its budget and run `minTrials`,
   * so a stall of the machine (a collection in another process, a timer's late wake-up) falls
   * on both sides of the same round instead of on one. For quantiles far in the tail, which one
   * stall can move.
   */
  readonly interleave?: 'rounds' | 'trials';
  /** Every metric a trial reports; each trial must report each one. */
  readonly metrics: readonly string[];
  /** The row's value: this quantile (0.5 = median, 0.99 = p99) of this metric. */
  readonly primary: { readonly metric: string; readonly quantile: number };
  prepare(ctx: PrepareContext): Promise<SamplePrepared>;
}

/** Any row of the bench: a throughput benchmark (`harness.ts`) or a sample one. */
export type AnyBenchmark = Benchmark | SampleBenchmark;
export type AnyResult = BenchResult | SampleResult;

export const isSampleBenchmark = (b: AnyBenchmark): b is SampleBenchmark => 'kind' in b && b.kind === 'samples';
export const isSampleResult = (r: AnyResult): r is SampleResult => 'kind' in r && r.kind === 'samples';

/** Summary of one metric's samples. */
export interface MetricStats {
  readonly n: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

export interface SampleRound {
  readonly round: number;
  readonly first: 'ours' | 'baseline';
  /** The primary statistic of this round's samples, per side. */
  readonly ours: number;
  readonly baseline: number | null;
  readonly ratio: number | null;
}

/** The nearest-rank quantile of a non-empty list: the smallest value with at least q of the list at or below it. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) throw new RangeError('quantile of an empty list');
  if (!(q > 0 && q <= 1)) throw new RangeError(`quantile must be in (0, 1], got ${q}`);
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
}

export function summarize(values: readonly number[]): MetricStats {
  let max = -Infinity;
  for (const v of values) if (v > max) max = v;
  return { n: values.length, p50: quantile(values, 0.5), p99: quantile(values, 0.99), max };
}

type Pool = Map<string, number[]>;

function checkSamples(bench: SampleBenchmark, got: Samples, side: string): void {
  for (const metric of bench.metrics) {
    const list = got[metric];
    if (!Array.isArray(list) || list.length === 0 || !list.every((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0)) {
      throw new Error(`${bench.name}: the ${side} side returned no valid samples for ${metric}; every trial must report a non-negative number for each of ${bench.metrics.join(', ')}`);
    }
  }
}

/** Append one trial's samples (already checked) to the round's pool. */
function add(bench: SampleBenchmark, pool: Pool, got: Samples): void {
  for (const m of bench.metrics) {
    const into = pool.get(m)!;
    for (const v of got[m]!) into.push(v);
  }
}

/** Run trials of `side` until the budget is spent (at least `minTrials`); the samples of the round. */
async function roundOf(bench: SampleBenchmark, side: SampleSide, name: string, budgetMs: number, now: () => number): Promise<Pool> {
  const pool: Pool = new Map(bench.metrics.map((m) => [m, []]));
  const start = now();
  let trials = 0;
  do {
    const got = await side.trial();
    checkSamples(bench, got, name);
    add(bench, pool, got);
    trials++;
  } while (trials < (bench.minTrials ?? 1) || now() - start < budgetMs);
  return pool;
}

/**
 * One round of `interleave: 'trials'`: `a`, `b`, `a`, `b`, ... until each side has run at least
 * `minTrials` trials and spent `budgetMs` of its own trials' time. Both sides run the same number
 * of trials. The samples of the round, per side.
 */
async function pairedRound(bench: SampleBenchmark, a: SampleSide, aName: string, b: SampleSide, bName: string, budgetMs: number, now: () => number): Promise<[Pool, Pool]> {
  const pools: [Pool, Pool] = [new Map(bench.metrics.map((m) => [m, []])), new Map(bench.metrics.map((m) => [m, []]))];
  const spent = [0, 0];
  const sides: Array<[SampleSide, string]> = [
    [a, aName],
    [b, bName],
  ];
  let trials = 0;
  do {
    for (let i = 0; i < 2; i++) {
      const [side, name] = sides[i]!;
      const start = now();
      const got = await side.trial();
      spent[i]! += now() - start;
      checkSamples(bench, got, name);
      add(bench, pools[i]!, got);
    }
    trials++;
  } while (trials < (bench.minTrials ?? 1) || spent[0]! < budgetMs || spent[1]! < budgetMs);
  return pools;
}

function merge(into: Pool, from: Pool): void {
  for (const [m, list] of from) {
    const target = into.get(m)!;
    for (const v of list) target.push(v);
  }
}

/** A finished sample benchmark, in the shape `BenchResult` gives every row. */
export interface SampleResult {
  readonly kind: 'samples';
  readonly name: string;
  readonly unit: string;
  readonly what: string;
  /** The primary statistic of every sample of ours. */
  readonly ours: number;
  readonly baseline: number | null;
  /** baseline / ours (> 1: ours is better), null without a baseline. */
  readonly ratio: number | null;
  readonly ratioRange: readonly [number, number] | null;
  /** Which statistic `ours` and `baseline` are, e.g. `p99 latency`. */
  readonly statistic: string;
  readonly stats: { readonly ours: Readonly<Record<string, MetricStats>>; readonly baseline: Readonly<Record<string, MetricStats>> | null };
  readonly sampleRounds: readonly SampleRound[];
}

const statName = (q: number): string => (q === 0.5 ? 'p50' : q === 1 ? 'max' : `p${Math.round(q * 100)}`);

/** Warm up, then run interleaved rounds of trials and summarize every sample. */
export async function measureSamples(bench: SampleBenchmark, prepared: SamplePrepared, opts: MeasureOptions): Promise<SampleResult> {
  if (!Number.isInteger(opts.rounds) || opts.rounds < 1) throw new RangeError(`rounds must be a positive integer, got ${opts.rounds}`);
  const budget = opts.budgetMs ?? bench.budgetMs;
  const rounds = Math.min(opts.rounds, bench.maxRounds ?? opts.rounds);
  const { metric, quantile: q } = bench.primary;
  for (let w = 0; w < (opts.warmupRounds ?? 1) && (bench.maxRounds ?? 2) > 1; w++) {
    await roundOf(bench, prepared.ours, 'ours', budget, opts.now);
    if (prepared.baseline) await roundOf(bench, prepared.baseline, 'baseline', budget, opts.now);
  }
  const oursAll: Pool = new Map(bench.metrics.map((m) => [m, []]));
  const baseAll: Pool = new Map(bench.metrics.map((m) => [m, []]));
  const sampleRounds: SampleRound[] = [];
  for (let round = 1; round <= rounds; round++) {
    const first = round % 2 === 1 || !prepared.baseline ? 'ours' : 'baseline';
    let ours: Pool;
    let base: Pool | undefined;
    if (prepared.baseline && bench.interleave === 'trials') {
      if (first === 'ours') [ours, base] = await pairedRound(bench, prepared.ours, 'ours', prepared.baseline, 'baseline', budget, opts.now);
      else [base, ours] = await pairedRound(bench, prepared.baseline, 'baseline', prepared.ours, 'ours', budget, opts.now);
    } else if (first === 'ours') {
      ours = await roundOf(bench, prepared.ours, 'ours', budget, opts.now);
      if (prepared.baseline) base = await roundOf(bench, prepared.baseline, 'baseline', budget, opts.now);
    } else {
      base = await roundOf(bench, prepared.baseline!, 'baseline', budget, opts.now);
      ours = await roundOf(bench, prepared.ours, 'ours', budget, opts.now);
    }
    merge(oursAll, ours);
    if (base) merge(baseAll, base);
    const o = quantile(ours.get(metric)!, q);
    const b = base ? quantile(base.get(metric)!, q) : null;
    const r: SampleRound = { round, first, ours: o, baseline: b, ratio: b === null ? null : b / Math.max(o, 1e-9) };
    sampleRounds.push(r);
    opts.onRound?.({ round, first, oursPerSec: o, baselinePerSec: b ?? Number.NaN, ratio: r.ratio ?? Number.NaN });
  }
  const ours = quantile(oursAll.get(metric)!, q);
  const baseline = prepared.baseline ? quantile(baseAll.get(metric)!, q) : null;
  const ratios = sampleRounds.map((r) => r.ratio).filter((r): r is number => r !== null);
  const stats = (pool: Pool): Record<string, MetricStats> => Object.fromEntries([...pool].map(([m, list]) => [m, summarize(list)]));
  return {
    kind: 'samples',
    name: bench.name,
    unit: bench.unit,
    what: bench.what,
    ours,
    baseline,
    ratio: baseline === null ? null : baseline / Math.max(ours, 1e-9),
    ratioRange: ratios.length === 0 ? null : [Math.min(...ratios), Math.max(...ratios)],
    statistic: `${statName(q)} ${metric}`,
    stats: { ours: stats(oursAll), baseline: prepared.baseline ? stats(baseAll) : null },
    sampleRounds,
  };
}

/** Prepare, measure and always close one sample benchmark. */
export async function runSampleBenchmark(bench: SampleBenchmark, opts: MeasureOptions & { readonly quick?: boolean }): Promise<SampleResult> {
  const prepared = await bench.prepare({ quick: opts.quick ?? false });
  try {
    return await measureSamples(bench, prepared, opts);
  } finally {
    await prepared.close?.();
  }
}
