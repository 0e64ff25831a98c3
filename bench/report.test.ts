import { describe, expect, it } from 'vitest';
import type { BenchResult } from './harness.js';
import { formatRate, formatRatio, formatValue, renderJson, renderTable } from './report.js';
import type { SampleResult } from './samples.js';

const result = (name: string, ours: number, baseline: number, ratios: number[]): BenchResult => ({
  name,
  unit: 'events',
  what: 'a test',
  ours,
  baseline,
  ratio: ratios[Math.floor(ratios.length / 2)]!,
  ratioRange: [Math.min(...ratios), Math.max(...ratios)],
  rounds: ratios.map((ratio, i) => ({ round: i + 1, first: i % 2 === 0 ? 'ours' : 'baseline', oursPerSec: ours, baselinePerSec: baseline, ratio })),
});

describe('formatting', () => {
  it('gives rates three significant digits with k/M suffixes', () => {
    expect([formatRate(912.4), formatRate(48_213), formatRate(1_310_000), formatRate(58.43)]).toEqual(['912', '48.2k', '1.31M', '58.4']);
  });
  it('gives ratios two decimals and an x', () => {
    expect(formatRatio(0.4219)).toBe('0.42x');
  });
});

describe('renderTable', () => {
  it('prints a header, a rule and one aligned row per benchmark', () => {
    const text = renderTable([result('validate', 343_000, 680_000, [0.46, 0.5, 0.62]), result('relay-ingest', 44_900, 592_000, [0.08])]);
    expect(text).toBe(
      [
        'name          unit       ours  baseline  ratio  ratio range  rounds',
        '------------  --------  -----  --------  -----  -----------  ------',
        'validate      events/s   343k      680k  0.50x  0.46x-0.62x       3',
        'relay-ingest  events/s  44.9k      592k  0.08x  0.08x-0.08x       1',
        '',
      ].join('\n'),
    );
  });
});

describe('renderTable with sample rows', () => {
  const sample = (name: string, unit: string, ours: number, baseline: number | null): SampleResult => ({
    kind: 'samples',
    name,
    unit,
    what: 'a test',
    ours,
    baseline,
    ratio: baseline === null ? null : baseline / ours,
    ratioRange: baseline === null ? null : [baseline / ours, baseline / ours],
    statistic: 'p99 latency',
    stats: { ours: {}, baseline: null },
    sampleRounds: [{ round: 1, first: 'ours', ours, baseline, ratio: null }],
  });

  it('prints the statistic and unit, and a dash where a row has no baseline', () => {
    expect(renderTable([sample('latency', 'ms', 4, 2), sample('runner', 'ms', 1234.5, null), sample('memory', 'bytes', 3 * 2 ** 20, 2 ** 20)])).toBe(
      [
        'name     unit                    ours  baseline  ratio  ratio range  rounds',
        '-------  ------------------  --------  --------  -----  -----------  ------',
        'latency  ms, p99 latency      4.00 ms   2.00 ms  0.50x  0.50x-0.50x       1',
        'runner   ms, p99 latency       1.23 s         -      -            -       1',
        'memory   bytes, p99 latency  3.00 MiB  1.00 MiB  0.33x  0.33x-0.33x       1',
        '',
      ].join('\n'),
    );
  });

  it('formats milliseconds, seconds and MiB', () => {
    expect([formatValue(0.5123, 'ms'), formatValue(4, 'ms'), formatValue(1234.5, 'ms'), formatValue(3 * 2 ** 20, 'bytes'), formatValue(1.5 * 2 ** 30, 'bytes'), formatValue(48_213, 'deliveries')]).toEqual(['0.512 ms', '4.00 ms', '1.23 s', '3.00 MiB', '1.50 GiB', '48.2k']);
  });
});

describe('renderJson', () => {
  it('keeps every round and the run metadata', () => {
    const doc = JSON.parse(renderJson([result('stream', 2, 4, [0.5, 0.25])], { rounds: 2 }));
    expect(doc.rounds).toBe(2);
    expect(doc.results[0].rounds).toHaveLength(2);
    expect(doc.results[0].ratioRange).toEqual([0.25, 0.5]);
  });
});

describe('renderTable with the load read', () => {
  it('adds a load column that says noisy where the load exceeded one per core', () => {
    const row = (name: string): BenchResult => ({ name, unit: 'events', what: '', ours: 2, baseline: 4, ratio: 0.5, ratioRange: [0.5, 0.5], rounds: [] });
    const loads = new Map([['a', { start: 0.2, end: 0.9, cores: 2, noisy: false }], ['b', { start: 2.4, end: 3, cores: 2, noisy: true }]]);
    const lines = renderTable([row('a'), row('b')], loads).split('\n');
    expect(lines[0]).toMatch(/rounds +load$/);
    expect(lines[2]).toMatch(/ 0\.2-0\.9$/);
    expect(lines[3]).toMatch(/ 2\.4-3 noisy$/);
  });
});
