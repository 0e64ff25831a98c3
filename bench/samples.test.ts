import { describe, expect, it } from 'vitest';
import { measureSamples, quantile, runSampleBenchmark, summarize, type SampleBenchmark, type SamplePrepared } from './samples.js';
import { renderTargets } from './targets.js';

const bench = (over: Partial<SampleBenchmark> = {}): SampleBenchmark => ({
  kind: 'samples',
  name: 'latency',
  unit: 'ms',
  what: 'a fake',
  budgetMs: 30,
  metrics: ['latency'],
  primary: { metric: 'latency', quantile: 0.99 },
  prepare: async () => ({ ours: { trial: async () => ({ latency: [1] }) } }),
  ...over,
});

/** Sides that advance a virtual clock by 10 ms per trial and report fixed samples. */
function rig(ours: number[], baseline: number[] | undefined) {
  const clock = { t: 0 };
  const log: string[] = [];
  const side = (name: string, samples: number[]) => ({
    trial: async () => {
      log.push(name);
      clock.t += 10;
      return { latency: samples };
    },
  });
  const prepared: SamplePrepared = { ours: side('ours', ours), ...(baseline ? { baseline: side('baseline', baseline) } : {}) };
  return { prepared, log, now: () => clock.t };
}

describe('quantile', () => {
  it('is the nearest rank', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect([quantile(hundred, 0.5), quantile(hundred, 0.99), quantile(hundred, 1), quantile([7], 0.99)]).toEqual([50, 99, 100, 7]);
    expect(summarize([3, 1, 2])).toEqual({ n: 3, p50: 2, p99: 3, max: 3 });
  });
  it('refuses an empty list and a quantile outside (0, 1]', () => {
    expect(() => quantile([], 0.5)).toThrow(RangeError);
    expect(() => quantile([1], 0)).toThrow(RangeError);
  });
});

describe('measureSamples', () => {
  it('pools every sample, takes the primary quantile, and the ratio baseline / ours', async () => {
    const { prepared, log, now } = rig([2, 4], [1, 1]);
    const r = await measureSamples(bench(), prepared, { rounds: 2, now, warmupRounds: 0 });
    expect(r.ours).toBe(4);
    expect(r.baseline).toBe(1);
    expect(r.ratio).toBe(0.25);
    expect(r.statistic).toBe('p99 latency');
    expect(r.stats.ours.latency).toEqual({ n: 12, p50: 2, p99: 4, max: 4 }); // 3 trials x 2 samples x 2 rounds
    expect(r.sampleRounds.map((s) => s.first)).toEqual(['ours', 'baseline']);
    expect(log.slice(0, 6)).toEqual(['ours', 'ours', 'ours', 'baseline', 'baseline', 'baseline']);
  });

  it('takes hundreds of thousands of samples per trial (no argument spreading)', async () => {
    const many = Array.from({ length: 300_000 }, (_, i) => i % 1000);
    const { prepared, now } = rig(many, many);
    const r = await measureSamples(bench({ budgetMs: 0 }), prepared, { rounds: 1, now, warmupRounds: 0 });
    expect(r.stats.ours.latency).toEqual({ n: 300_000, p50: 499, p99: 989, max: 999 });
  });

  it('has no ratio without a baseline, and honours maxRounds and minTrials', async () => {
    const { prepared, log, now } = rig([5], undefined);
    const r = await measureSamples(bench({ maxRounds: 1, minTrials: 5, budgetMs: 0 }), prepared, { rounds: 7, now });
    expect([r.baseline, r.ratio, r.ratioRange, r.stats.baseline]).toEqual([null, null, null, null]);
    expect(r.sampleRounds).toHaveLength(1);
    expect(log).toHaveLength(5); // no warm-up for a single-round benchmark
  });

  it.each([[{ latency: [] }], [{}], [{ latency: [Number.NaN] }], [{ latency: [-1] }]])('stops on a trial that returns %j', async (bad) => {
    const prepared: SamplePrepared = { ours: { trial: async () => bad as never } };
    await expect(measureSamples(bench(), prepared, { rounds: 1, now: () => 0 })).rejects.toThrow(/no valid samples for latency/);
  });

  it('closes what prepare opened, also on failure, and passes quick to prepare', async () => {
    let closed = 0;
    let quick: boolean | undefined;
    const failing = bench({
      prepare: async (ctx) => {
        quick = ctx.quick;
        return { ours: { trial: async () => { throw new Error('wrong delivery'); } }, close: () => void closed++ };
      },
    });
    await expect(runSampleBenchmark(failing, { rounds: 1, now: () => 0, quick: true })).rejects.toThrow('wrong delivery');
    expect([closed, quick]).toEqual([1, true]);
  });

  it('lands in the targets report with its statistic, and null where there is no baseline', async () => {
    const a = rig([4], [2]);
    const lat = await measureSamples(bench(), a.prepared, { rounds: 1, now: a.now, warmupRounds: 0 });
    const b = rig([900], undefined);
    const run = await measureSamples(bench({ name: 'runner', primary: { metric: 'latency', quantile: 0.5 } }), b.prepared, { rounds: 1, now: b.now });
    const doc = JSON.parse(renderTargets([lat, run]));
    expect(doc.benchmarks[0]).toMatchObject({ name: 'latency', value: 4, unit: 'ms (p99 latency)', baseline_value: 2, ratio: 0.5, ok: false, stats: { ours: { latency: { n: 3, p50: 4 } }, baseline: { latency: { p99: 2 } } } });
    expect(doc.benchmarks[1]).toMatchObject({ name: 'runner', value: 900, unit: 'ms (p50 latency)', baseline: 'none (absolute)', baseline_value: null, ratio: null, ok: true });
  });
});

describe("interleave: 'trials'", () => {
  it('alternates the sides trial by trial, the round starting with each side in turn, until both spent their budget', async () => {
    const { prepared, log, now } = rig([2, 4], [1, 1]);
    const r = await measureSamples(bench({ interleave: 'trials', budgetMs: 25 }), prepared, { rounds: 2, now, warmupRounds: 0 });
    // 10 ms per trial: three trials per side reach 25 ms; round 2 begins with the baseline.
    expect(log).toEqual(['ours', 'baseline', 'ours', 'baseline', 'ours', 'baseline', 'baseline', 'ours', 'baseline', 'ours', 'baseline', 'ours']);
    expect(r.sampleRounds.map((s) => s.first)).toEqual(['ours', 'baseline']);
    expect(r.stats.ours.latency).toEqual({ n: 12, p50: 2, p99: 4, max: 4 });
    expect(r.stats.baseline!.latency).toEqual({ n: 12, p50: 1, p99: 1, max: 1 });
    expect(r.sampleRounds.map((s) => s.ratio)).toEqual([0.25, 0.25]);
  });

  it('counts each side its own trials’ time, and runs minTrials pairs at least', async () => {
    const clock = { t: 0 };
    const log: string[] = [];
    const side = (name: string, ms: number) => ({
      trial: async () => {
        log.push(name);
        clock.t += ms;
        return { latency: [ms] };
      },
    });
    // ours takes 30 ms a trial, the baseline 5: the baseline alone would stop at once, but the pairs go on until it too spent 20 ms.
    await measureSamples(bench({ interleave: 'trials', budgetMs: 20, minTrials: 2 }), { ours: side('ours', 30), baseline: side('baseline', 5) }, { rounds: 1, now: () => clock.t, warmupRounds: 0 });
    expect(log).toEqual(['ours', 'baseline', 'ours', 'baseline', 'ours', 'baseline', 'ours', 'baseline']);
  });

  it('runs a benchmark without a baseline as before', async () => {
    const { prepared, log, now } = rig([3], undefined);
    await measureSamples(bench({ interleave: 'trials', budgetMs: 15 }), prepared, { rounds: 1, now, warmupRounds: 0 });
    expect(log).toEqual(['ours', 'ours']);
  });
});
