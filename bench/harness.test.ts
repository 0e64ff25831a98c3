import { describe, expect, it } from 'vitest';
import { measure, runBenchmark, timeSide, type Benchmark, type Prepared, type Side } from './harness.js';

/** A virtual clock and sides that advance it by a fixed cost per unit, logging each run. */
function rig(oursMsPerUnit: number, baselineMsPerUnit: number) {
  const clock = { t: 0 };
  const log: string[] = [];
  const side = (name: string, msPerUnit: number, units = 10): Side => ({
    run() {
      log.push(name);
      clock.t += msPerUnit * units;
      return units;
    },
  });
  const prepared: Prepared = { ours: side('ours', oursMsPerUnit), baseline: side('baseline', baselineMsPerUnit) };
  return { clock, log, prepared, now: () => clock.t };
}

const bench = (over: Partial<Benchmark> = {}): Benchmark => ({
  name: 'fake',
  unit: 'units',
  what: 'a fake benchmark',
  budgetMs: 100,
  prepare: async () => rig(1, 1).prepared,
  ...over,
});

describe('timeSide', () => {
  it('runs until the budget is spent and reports units per second', async () => {
    const { prepared, log, now } = rig(2, 1);
    expect(await timeSide(prepared.ours, 100, now)).toBe(500); // 10 units per 20 ms
    expect(log).toHaveLength(5);
  });

  it('runs a side at least once even when one run outlasts the budget', async () => {
    const { prepared, log, now } = rig(50, 1);
    expect(await timeSide(prepared.ours, 100, now)).toBe(20);
    expect(log).toEqual(['ours']);
  });

  it.each([0, -1, Number.NaN, undefined])('refuses a side that returns %s units', async (units) => {
    const side: Side = { run: () => units as number };
    await expect(timeSide(side, 10, () => 0)).rejects.toThrow(/positive number of units/);
  });

  it('awaits asynchronous sides', async () => {
    let t = 0;
    const side: Side = { run: async () => ((t += 10), 5) };
    expect(await timeSide(side, 30, () => t)).toBe(500);
  });
});

describe('measure', () => {
  it('reports ours/baseline: a side twice as slow gives 0.5', async () => {
    const { prepared, now } = rig(2, 1);
    const result = await measure(bench(), prepared, { rounds: 3, now });
    expect(result.ours).toBe(500);
    expect(result.baseline).toBe(1000);
    expect(result.ratio).toBe(0.5);
    expect(result.ratioRange).toEqual([0.5, 0.5]);
    expect(result.rounds.map((r) => r.round)).toEqual([1, 2, 3]);
  });

  it('warms up, then alternates which side goes first', async () => {
    const { prepared, log, now } = rig(100, 100); // one run per side per round
    const result = await measure(bench(), prepared, { rounds: 4, now, warmupRounds: 1 });
    expect(log).toEqual(['ours', 'baseline', 'ours', 'baseline', 'baseline', 'ours', 'ours', 'baseline', 'baseline', 'ours']);
    expect(result.rounds.map((r) => r.first)).toEqual(['ours', 'baseline', 'ours', 'baseline']);
  });

  it('takes the median of per-round ratios, so one disturbed round does not move it', async () => {
    const clock = { t: 0 };
    let oursRuns = 0;
    const prepared: Prepared = {
      ours: { run: () => ((clock.t += ++oursRuns === 3 ? 1000 : 100), 1) }, // round 2 is 10x slower
      baseline: { run: () => ((clock.t += 100), 1) },
    };
    const result = await measure(bench(), prepared, { rounds: 5, now: () => clock.t, warmupRounds: 1 });
    expect(result.rounds.map((r) => r.ratio)).toEqual([1, 0.1, 1, 1, 1]);
    expect(result.ratio).toBe(1);
    expect(result.ratioRange).toEqual([0.1, 1]);
  });

  it('calls onRound once per timed round', async () => {
    const { prepared, now } = rig(1, 1);
    const seen: number[] = [];
    await measure(bench(), prepared, { rounds: 3, now, onRound: (r) => seen.push(r.round) });
    expect(seen).toEqual([1, 2, 3]);
  });

  it.each([0, 1.5])('refuses %s rounds', async (rounds) => {
    const { prepared, now } = rig(1, 1);
    await expect(measure(bench(), prepared, { rounds, now })).rejects.toThrow(RangeError);
  });
});

describe('runBenchmark', () => {
  it('closes what prepare opened, also when a side fails', async () => {
    let closed = 0;
    const failing = bench({
      prepare: async () => ({
        ours: { run: () => { throw new Error('wrong result'); } },
        baseline: { run: () => 1 },
        close: () => void closed++,
      }),
    });
    await expect(runBenchmark(failing, { rounds: 1, now: () => 0 })).rejects.toThrow('wrong result');
    expect(closed).toBe(1);
  });
});
