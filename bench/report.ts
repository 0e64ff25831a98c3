/**
 * Rendering bench results: a plain-text table for people, JSON for machines. Pure.
 */
import type { BenchResult } from './harness.js';

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

const HEADER = ['name', 'unit', 'ours/s', 'baseline/s', 'ratio', 'ratio range', 'rounds'] as const;

/** The table: one row per benchmark, columns padded; numbers right-aligned. Ends with a newline. */
export function renderTable(results: readonly BenchResult[]): string {
  const rows = results.map((r) => [
    r.name,
    r.unit,
    formatRate(r.ours),
    formatRate(r.baseline),
    formatRatio(r.ratio),
    `${formatRatio(r.ratioRange[0])}-${formatRatio(r.ratioRange[1])}`,
    String(r.rounds.length),
  ]);
  const all = [[...HEADER], ...rows];
  const widths = HEADER.map((_, c) => Math.max(...all.map((row) => row[c]!.length)));
  const line = (row: readonly string[]): string =>
    row.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ').trimEnd();
  return `${[line(all[0]!), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n')}\n`;
}

/** Machine output: the results with every round, as one JSON document. Ends with a newline. */
export function renderJson(results: readonly BenchResult[], meta: Readonly<Record<string, unknown>>): string {
  return `${JSON.stringify({ ...meta, results }, null, 2)}\n`;
}
