/**
 * The targets per benchmark row (issue 13's, raised by issue 22 for the relay and stream rows) and the `--json FILE` report built from them. Pure.
 * A row without a target in the issue's table has `target: null` and `ok: null`.
 */
import { isSampleResult, type AnyResult, type SampleResult } from './samples.js';

export interface Target {
  /** Short name of the baseline. */
  readonly baseline: string;
  /** The target in words, e.g. `ratio >= 0.5 and >= 100k deliveries/s`. */
  readonly target: string | null;
  readonly ok: ((r: AnyResult) => boolean) | null;
}

export const TARGETS: Readonly<Record<string, Target>> = {
  validate: { baseline: 'ajv, envelope schema alone', target: null, ok: null },
  envelope: { baseline: 'ajv, envelope schema alone', target: null, ok: null },
  stream: { baseline: 'JSON.parse of each line', target: 'ratio >= 0.5', ok: (r) => ratio(r) >= 0.5 },
  redact: { baseline: 'the five floor patterns alone', target: null, ok: null },
  downlevel: { baseline: 'structuredClone', target: null, ok: null },
  'relay-ingest': { baseline: 'bare node:http server reading the body', target: 'ratio >= 0.5 and >= 25k events/s', ok: (r) => ratio(r) >= 0.5 && r.ours >= 25_000 },
  fanout: { baseline: 'bare node:http broadcaster, same bytes to 50 sockets', target: 'ratio >= 0.75 and >= 800k deliveries/s (quiet machine)', ok: (r) => ratio(r) >= 0.75 && r.ours >= 800_000 },
  'hook-shim': { baseline: "node -e ''", target: 'ratio >= 0.77 (<= 1.3x the baseline time)', ok: (r) => ratio(r) >= 0.77 },
  'ingest-ws': { baseline: 'bare ws server that parses each frame and discards it', target: 'ratio >= 0.6', ok: (r) => ratio(r) >= 0.6 },
  latency: { baseline: 'bare node:http broadcaster, p99 POST-to-SSE', target: 'p99 <= 10 ms and <= 1.1x the baseline p99 (ratio >= 0.91)', ok: (r) => r.ours <= 10 && ratio(r) >= 1 / 1.1 },
  resume: { baseline: 'the same 10k SSE messages written from an in-memory array', target: 'first event <= 10 ms and the last <= 200 ms (medians)', ok: (r) => stat(r, 'first') <= 10 && stat(r, 'last') <= 200 },
  'hook-http': { baseline: 'HTTP round-trip to a server answering {}', target: 'p99 <= 2 ms', ok: (r) => r.ours <= 2 },
  runner: { baseline: 'none (absolute)', target: 'wall <= 2000 ms (median)', ok: (r) => r.ours <= 2000 },
  'peer-fanout': { baseline: 'nats-server core pub/sub, nats client on both ends', target: 'ratio >= 1.0', ok: (r) => ratio(r) >= 1 },
  'fleet-fanout': { baseline: 'the same 50 subscribers on one in-memory relay', target: 'ratio >= 0.5', ok: (r) => ratio(r) >= 0.5 },
  memory: { baseline: 'the raw bytes of the buffered events', target: 'RSS <= 1.5x the raw bytes (ratio >= 0.67)', ok: (r) => ratio(r) >= 1 / 1.5 },
};

/** The row's ratio; a row without one never meets a ratio target. */
function ratio(r: AnyResult): number {
  return r.ratio ?? Number.NaN;
}

/** The median of one metric of ours, for targets on a metric other than the primary one. */
function stat(r: AnyResult, metric: string): number {
  return isSampleResult(r) ? ((r as SampleResult).stats.ours[metric]?.p50 ?? Number.NaN) : Number.NaN;
}

export interface ReportRow {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly baseline: string;
  readonly baseline_value: number | null;
  readonly ratio: number | null;
  readonly target: string | null;
  readonly ok: boolean | null;
  /** Sample rows only: every metric's n, p50, p99 and max, per side (baseline null when none). */
  readonly stats?: SampleResult['stats'];
}

/** The `--json FILE` document. Ends with a newline. */
export function renderTargets(results: readonly AnyResult[]): string {
  const benchmarks: ReportRow[] = results.map((r) => {
    const t = TARGETS[r.name];
    return {
      name: r.name,
      value: r.ours,
      unit: isSampleResult(r) ? `${r.unit} (${r.statistic})` : `${r.unit}/s`,
      baseline: t?.baseline ?? 'see bench/README.md',
      baseline_value: r.baseline,
      ratio: r.ratio,
      target: t?.target ?? null,
      ok: t?.ok ? t.ok(r) : null,
      ...(isSampleResult(r) ? { stats: r.stats } : {}),
    };
  });
  return `${JSON.stringify({ benchmarks }, null, 2)}\n`;
}
