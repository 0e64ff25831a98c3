/**
 * The targets per benchmark row (issue 13's, raised by issue 22 for the relay and stream rows and by issue 33
 * for fanout, ingest-ws, hook-http and memory) and the `--json FILE` report built from them. Pure.
 * A row without a target in the issue's table has `target: null` and `ok: null`.
 */
import type { RowLoad } from './load.js';
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
  fanout: { baseline: 'bare node:http broadcaster, same bytes to 50 sockets', target: 'ratio >= 0.8 and >= 900k deliveries/s (quiet machine)', ok: (r) => ratio(r) >= 0.8 && r.ours >= 900_000 },
  'hook-shim': { baseline: "node -e ''", target: 'ratio >= 0.77 (<= 1.3x the baseline time)', ok: (r) => ratio(r) >= 0.77 },
  'ingest-ws': { baseline: 'bare ws server that parses each frame and discards it', target: 'ratio >= 0.7', ok: (r) => ratio(r) >= 0.7 },
  latency: { baseline: 'bare node:http broadcaster, p99 POST-to-SSE', target: 'p99 <= 10 ms and <= 1.1x the baseline p99 (ratio >= 0.91)', ok: (r) => r.ours <= 10 && ratio(r) >= 1 / 1.1 },
  resume: { baseline: 'the same 10k SSE messages written from an in-memory array', target: 'first event <= 10 ms and the last <= 200 ms (medians)', ok: (r) => stat(r, 'first') <= 10 && stat(r, 'last') <= 200 },
  'hook-http': { baseline: 'HTTP round-trip to a server answering {}', target: 'p99 <= 1 ms', ok: (r) => r.ours <= 1 },
  runner: { baseline: 'none (absolute)', target: 'wall <= 2000 ms (median)', ok: (r) => r.ours <= 2000 },
  'peer-fanout': { baseline: 'nats-server core pub/sub, nats client on both ends', target: 'ratio >= 1.0', ok: (r) => ratio(r) >= 1 },
  'fleet-fanout': { baseline: 'the same 50 subscribers on one in-memory relay', target: 'ratio >= 0.5', ok: (r) => ratio(r) >= 0.5 },
  memory: { baseline: 'the raw bytes of the buffered events', target: 'RSS <= 1.3x the raw bytes (ratio >= 0.77)', ok: (r) => ratio(r) >= 1 / 1.3 },
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
  /** The target's verdict; null when the row has no target or was measured on a noisy machine. */
  readonly ok: boolean | null;
  /** The load average at the row's start and end, when it was read. */
  readonly load?: RowLoad;
  /** True when the row ran while the load exceeded one per core: its figures flatter and `ok` is null. */
  readonly noisy?: boolean;
  /** Sample rows only: every metric's n, p50, p99 and max, per side (baseline null when none). */
  readonly stats?: SampleResult['stats'];
}

/** The machine the run was taken on: its cores and the load average before the first row and after the last. */
export interface MachineLoad {
  readonly cores: number;
  readonly loadAtStart: number;
  readonly loadAtEnd: number;
}

/**
 * The `--json FILE` document. Ends with a newline. A row whose `load` is noisy gets `noisy: true`
 * and `ok: null` whatever its figures, so a busy machine can never certify a target.
 */
export function renderTargets(results: readonly AnyResult[], loads: ReadonlyMap<string, RowLoad> = new Map(), machine?: MachineLoad): string {
  const benchmarks: ReportRow[] = results.map((r) => {
    const t = TARGETS[r.name];
    const load = loads.get(r.name);
    const verdict = t?.ok ? t.ok(r) : null;
    return {
      name: r.name,
      value: r.ours,
      unit: isSampleResult(r) ? `${r.unit} (${r.statistic})` : `${r.unit}/s`,
      baseline: t?.baseline ?? 'see bench/README.md',
      baseline_value: r.baseline,
      ratio: r.ratio,
      target: t?.target ?? null,
      ok: load?.noisy ? null : verdict,
      ...(load ? { load, noisy: load.noisy } : {}),
      ...(isSampleResult(r) ? { stats: r.stats } : {}),
    };
  });
  return `${JSON.stringify(machine ? { machine, benchmarks } : { benchmarks }, null, 2)}\n`;
}
