/**
 * The issue-13 targets per benchmark row and the `--json FILE` report built from them. Pure.
 * A row without a target in the table has `target: null` and `ok: null`.
 */
import type { BenchResult } from './harness.js';

export interface Target {
  /** Short name of the baseline. */
  readonly baseline: string;
  /** The target in words, e.g. `ratio >= 0.5 and >= 100k deliveries/s`. */
  readonly target: string | null;
  readonly ok: ((r: BenchResult) => boolean) | null;
}

export const TARGETS: Readonly<Record<string, Target>> = {
  validate: { baseline: 'ajv, envelope schema alone', target: null, ok: null },
  envelope: { baseline: 'ajv, envelope schema alone', target: null, ok: null },
  stream: { baseline: 'JSON.parse of each line', target: 'ratio >= 0.33', ok: (r) => r.ratio >= 0.33 },
  redact: { baseline: 'the five floor patterns alone', target: null, ok: null },
  downlevel: { baseline: 'structuredClone', target: null, ok: null },
  'relay-ingest': { baseline: 'bare node:http server reading the body', target: 'ratio >= 0.5 and >= 25k events/s', ok: (r) => r.ratio >= 0.5 && r.ours >= 25_000 },
  fanout: { baseline: 'bare node:http broadcaster, same bytes to 50 sockets', target: 'ratio >= 0.5 and >= 100k deliveries/s', ok: (r) => r.ratio >= 0.5 && r.ours >= 100_000 },
  'hook-shim': { baseline: "node -e ''", target: 'ratio >= 0.77 (<= 1.3x the baseline time)', ok: (r) => r.ratio >= 0.77 },
};

export interface ReportRow {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly baseline: string;
  readonly baseline_value: number;
  readonly ratio: number;
  readonly target: string | null;
  readonly ok: boolean | null;
}

/** The `--json FILE` document. Ends with a newline. */
export function renderTargets(results: readonly BenchResult[]): string {
  const benchmarks: ReportRow[] = results.map((r) => {
    const t = TARGETS[r.name];
    return {
      name: r.name,
      value: r.ours,
      unit: `${r.unit}/s`,
      baseline: t?.baseline ?? 'see bench/README.md',
      baseline_value: r.baseline,
      ratio: r.ratio,
      target: t?.target ?? null,
      ok: t?.ok ? t.ok(r) : null,
    };
  });
  return `${JSON.stringify({ benchmarks }, null, 2)}\n`;
}
