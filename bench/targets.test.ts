import { describe, expect, it } from 'vitest';
import type { BenchResult } from './harness.js';
import { renderTargets } from './targets.js';

const result = (name: string, ours: number, baseline: number, ratio: number): BenchResult => ({ name, unit: 'deliveries', what: '', ours, baseline, ratio, ratioRange: [ratio, ratio], rounds: [] });

describe('renderTargets', () => {
  it('writes every row with its target and whether it is met', () => {
    const doc = JSON.parse(renderTargets([result('fanout', 820_000, 1_000_000, 0.82), result('fanout', 700_000, 800_000, 0.875), result('redact', 5, 10, 0.5)]));
    expect(doc.benchmarks[0]).toEqual({ name: 'fanout', value: 820_000, unit: 'deliveries/s', baseline: 'bare node:http broadcaster, same bytes to 50 sockets', baseline_value: 1_000_000, ratio: 0.82, target: 'ratio >= 0.8 and >= 900k deliveries/s (quiet machine)', ok: false });
    expect(doc.benchmarks[1].ok).toBe(false);
    expect(JSON.parse(renderTargets([result('fanout', 950_000, 1_000_000, 0.95)])).benchmarks[0].ok).toBe(true);
    expect(doc.benchmarks[2]).toMatchObject({ name: 'redact', target: null, ok: null });
  });
});

describe('renderTargets on a loaded machine', () => {
  it('gives a noisy row no verdict, even when its figures meet the target', () => {
    const loads = new Map([
      ['fanout', { start: 2.6, end: 2.9, cores: 2, noisy: true }],
      ['stream', { start: 0.3, end: 0.8, cores: 2, noisy: false }],
    ]);
    const doc = JSON.parse(renderTargets([result('fanout', 2_000_000, 1_000_000, 2), result('stream', 4, 4, 1)], loads, { cores: 2, loadAtStart: 0.3, loadAtEnd: 2.9 }));
    expect(doc.machine).toEqual({ cores: 2, loadAtStart: 0.3, loadAtEnd: 2.9 });
    expect(doc.benchmarks[0]).toMatchObject({ name: 'fanout', ok: null, noisy: true, load: { start: 2.6, end: 2.9, cores: 2, noisy: true } });
    expect(doc.benchmarks[1]).toMatchObject({ name: 'stream', ok: true, noisy: false });
  });
});
