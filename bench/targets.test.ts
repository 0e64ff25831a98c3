import { describe, expect, it } from 'vitest';
import type { BenchResult } from './harness.js';
import { renderTargets } from './targets.js';

const result = (name: string, ours: number, baseline: number, ratio: number): BenchResult => ({ name, unit: 'deliveries', what: '', ours, baseline, ratio, ratioRange: [ratio, ratio], rounds: [] });

describe('renderTargets', () => {
  it('writes every row with its target and whether it is met', () => {
    const doc = JSON.parse(renderTargets([result('fanout', 820_000, 1_000_000, 0.82), result('fanout', 700_000, 800_000, 0.875), result('redact', 5, 10, 0.5)]));
    expect(doc.benchmarks[0]).toEqual({ name: 'fanout', value: 820_000, unit: 'deliveries/s', baseline: 'bare node:http broadcaster, same bytes to 50 sockets', baseline_value: 1_000_000, ratio: 0.82, target: 'ratio >= 0.75 and >= 800k deliveries/s (quiet machine)', ok: true });
    expect(doc.benchmarks[1].ok).toBe(false);
    expect(doc.benchmarks[2]).toMatchObject({ name: 'redact', target: null, ok: null });
  });
});
