/**
 * Rendering bench results: a plain-text table for people, JSON for machines. Pure.
 */
import type { RowLoad } from './load.js';
import { isSampleResult, type AnyResult } from './samples.js';

/** Throughput with three significant digits and a k/M suffix: `48.2k`, `1.31M`, `912`. */
export function formatRate(perSec: number): string {
  if (!Number.isFinite(perSec)) return String(perSec);
  const abs = Math.abs(perSec);
  if (abs >= 1e6) return `${(perSec / 1e6).toPrecision(3)}M`;
  if (abs >= 1e3) return `${(perSec / 1e3).toPrecision(3)}k`;
  return perSec.toPrecision(3);
}

/** A ratio to two decimals with an `x`: `0.42x`. */
export function formatRatio(ratio: number): string {
  return `${ratio.toFixed(2)}x`;
}

/** A sample row's figure in its unit: `3.12 ms`, `1.23 s`, `812 MiB`, `1.56 GiB`; other units as a rate. */
export function formatValue(value: number, unit: string): string {
  if (!Number.isFinite(value)) return String(value);
  if (unit === 'ms') return value >= 1000 ? `${(value / 1000).toPrecision(3)} s` : `${value.toPrecision(3)} ms`;
  if (unit === 'bytes') return value >= 2 ** 30 ? `${(value / 2 ** 30).toPrecision(3)} GiB` : `${(value / 2 ** 20).toPrecision(3)} MiB`;
  return formatRate(value);
}

const HEADER = ['name', 'unit', 'ours', 'baseline', 'ratio', 'ratio range', 'rounds', 'load'] as const;

/**
 * The table: one row per benchmark, columns padded; numbers right-aligned. Ends with a newline.
 * A throughput row's unit reads `events/s`; a sample row's names its statistic (`ms, p99 latency`).
 * A row without a baseline shows `-`. The `load` column gives the load average at the row's start
 * and end, and says `noisy` when either exceeded one per core; it is left out when no load was read.
 */
export function renderTable(results: readonly AnyResult[], loads: ReadonlyMap<string, RowLoad> = new Map()): string {
  const rows = results.map((r) => {
    const sample = isSampleResult(r);
    const value = (v: number | null): string => (v === null ? '-' : sample ? formatValue(v, r.unit) : formatRate(v));
    return [
      r.name,
      sample ? `${r.unit}, ${r.statistic}` : `${r.unit}/s`,
      value(r.ours),
      value(r.baseline),
      r.ratio === null ? '-' : formatRatio(r.ratio),
      r.ratioRange === null ? '-' : `${formatRatio(r.ratioRange[0])}-${formatRatio(r.ratioRange[1])}`,
      String(sample ? r.sampleRounds.length : r.rounds.length),
      loadCell(loads.get(r.name)),
    ];
  });
  const columns = loads.size > 0 ? HEADER.length : HEADER.length - 1;
  const all = [HEADER.slice(0, columns), ...rows.map((row) => row.slice(0, columns))];
  const widths = all[0]!.map((_, c) => Math.max(...all.map((row) => row[c]!.length)));
  const line = (row: readonly string[]): string =>
    row.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ').trimEnd();
  return `${[line(all[0]!), line(widths.map((w) => '-'.repeat(w))), ...all.slice(1).map(line)].join('\n')}\n`;
}

function loadCell(load: RowLoad | undefined): string {
  if (load === undefined) return '-';
  return `${load.start}-${load.end}${load.noisy ? ' noisy' : ''}`;
}

/** Machine output: the results with every round (each with its `load` when read), as one JSON document. Ends with a newline. */
export function renderJson(results: readonly AnyResult[], meta: Readonly<Record<string, unknown>>, loads: ReadonlyMap<string, RowLoad> = new Map()): string {
  const rows = results.map((r) => (loads.has(r.name) ? { ...r, load: loads.get(r.name) } : r));
  return `${JSON.stringify({ ...meta, results: rows }, null, 2)}\n`;
}
