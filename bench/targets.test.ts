import { describe, expect, it } from 'vitest';
import type { BenchResult } from './harness.js';
import { renderTargets } from './targets.js';

const result = (name: string, ours: number, baseline: number, ratio: number): BenchResult => ({ name, unit: 'deliveries', what: '', ours, baseline, ratio, ratioRange: [ratio, ratio], rounds: [] });

describe('renderTargets', () => {
  it('writes every row with its target and whether it is met', () => {
    const doc = JSON.parse(renderTargets([result('fanout', 120_000, 200_000, 0.6), result('fanout', 90_000, 100_000, 0.9), result('redact', 5, 10, 0.5)]));
    expect(doc.benchmarks[0]).toEqual({ name: 'fanout', value: 120_000, unit: 'deliveries/s', baseline: 'bare node:http broadcaster, same bytes to 50 sockets', baseline_value: 200_000, ratio: 0.6, target: 'ratio >= 0.5 and >= 100k deliveries/s', ok: true });
    expect(doc.benchmarks[1].ok).toBe(false);
    expect(doc.benchmarks[2]).toMatchObject({ name: 'redact', target: null, ok: null });
  });
});
