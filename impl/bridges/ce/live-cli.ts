/**
 * The live half of `aep bridge ce|otlp`: flags and environment → a running sidecar, until
 * SIGINT/SIGTERM.
 *
 * | setting | flag | environment | default |
 * |---|---|---|---|
 * | relay | `--relay` | `AEP_RELAY_URL` (old name `AEP_RELAY`) | the relay's default URL |
 * | token | `--token` | `AEP_TOKEN` | none |
 * | filter | `--filter JSON` | | `{}` (everything) |
 * | relay capture ceiling | `--capture L` | `AEP_CAPTURE` | the relay's default |
 * | CE / OCSF sink | `--sink URL` | `AEP_CE_SINK` | required for `ce` |
 * | OTLP endpoint | `--endpoint URL` | `OTEL_EXPORTER_OTLP_ENDPOINT` | required for `otlp` |
 * | cursor file | `--state FILE` | | `$AEP_HOME/bridges/<name>.cursor.json` |
 * | batch | `--batch-size N`, `--batch-ms N` | | otlp 100 / 1000 ms; ce 1 / 0 |
 * | first start | `--replay` | | off: with no cursor yet, start live; on: replay what the relay holds |
 */
import { join, resolve } from 'node:path';
import type { CaptureLevel } from '../../core/event.js';
import { validateFilter } from '../../core/filter.js';
import { parseLevel } from '../../adapter-kit/capture.js';
import { aepHome } from '../../adapter-kit/store.js';
import { EXIT, UsageError, type CliIo } from '../../contract/cli.js';
import { startSidecar } from './sidecar.js';
import { DEFAULT_RELAY_URL, relayUrlFromEnv } from '../../integrations/registry.js';
import { checkStatePath } from '../../operator/state-file.js';
import { httpSink } from './sink.js';
import { otlpExporter } from '../otlp/exporter.js';
import type { Projection } from './projection.js';

function url(value: string, flag: string): string {
  try {
    const u = new URL(value);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
    return value;
  } catch {
    throw new UsageError(`${flag} must be an http(s) URL, got '${value}'`);
  }
}

function count(value: unknown, flag: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const s = String(value);
  if (!/^[0-9]+$/.test(s) || Number(s) < min) throw new UsageError(`${flag} must be an integer >= ${min}, got '${s}'`);
  return Number(s);
}

export async function runLive(kind: 'ce' | 'otlp', projection: Projection, values: Record<string, unknown>, io: CliIo, maxCapture: CaptureLevel | undefined): Promise<number> {
  const relay = url(String(values.relay ?? relayUrlFromEnv(io.env).url ?? DEFAULT_RELAY_URL), '--relay');
  const token = (values.token as string | undefined) ?? io.env.AEP_TOKEN;
  let filter: Record<string, unknown> | undefined;
  if (typeof values.filter === 'string') {
    try {
      filter = JSON.parse(values.filter) as Record<string, unknown>;
    } catch {
      throw new UsageError(`--filter must be a JSON attr-match object, e.g. '{"type":"tool.*"}', got '${values.filter}'`);
    }
    const problem = validateFilter(filter);
    if (problem !== null) throw new UsageError(`--filter: ${problem}`);
  }
  const rawCapture = (values.capture as string | undefined) ?? io.env.AEP_CAPTURE;
  const capture = rawCapture === undefined ? undefined : parseLevel(rawCapture);
  if (capture === null) throw new UsageError(`--capture must be one of none|metadata|redacted|full, got '${rawCapture}'`);
  const log = (line: string): void => io.stderr(`aep bridge ${kind}: ${line}\n`);
  let deliver;
  let target: string;
  if (kind === 'ce') {
    const sink = (values.sink as string | undefined) ?? io.env.AEP_CE_SINK;
    if (!sink) throw new UsageError('give --from-file F (offline) or --sink URL (live; or AEP_CE_SINK)');
    target = url(sink, '--sink');
    deliver = httpSink({ url: target, projection: projection === 'ocsf' ? 'ocsf' : 'ce', projectionOptions: maxCapture ? { maxCapture } : {}, log });
  } else {
    const endpoint = (values.endpoint as string | undefined) ?? io.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    if (!endpoint) throw new UsageError('give --from-file F (offline) or --endpoint URL (live; or OTEL_EXPORTER_OTLP_ENDPOINT)');
    target = url(endpoint, '--endpoint');
    deliver = otlpExporter({ endpoint: target, ...(maxCapture ? { maxCapture } : {}), log });
  }
  const batchSize = count(values['batch-size'], '--batch-size', kind === 'otlp' ? 100 : 1, 1);
  const batchMs = count(values['batch-ms'], '--batch-ms', kind === 'otlp' ? 1000 : 0, 0);
  const statePath = typeof values.state === 'string' ? values.state : join(aepHome(io.env), 'bridges', `${kind}${projection === 'ocsf' ? '-ocsf' : ''}.cursor.json`);
  const writable = checkStatePath(resolve(io.cwd, statePath), typeof values.state === 'string' ? '--state' : 'the cursor file');
  if (writable !== true) {
    io.stderr(`aep bridge ${kind}: ${writable}; pass another --state FILE (or set AEP_HOME)\n`);
    return EXIT.failed;
  }
  let sidecar;
  try {
    sidecar = startSidecar({ relay, ...(token ? { token } : {}), ...(filter ? { filter } : {}), ...(capture ? { capture } : {}), statePath, replay: values.replay === true, batchSize, batchMs, deliver, log });
  } catch (err) {
    io.stderr(`aep bridge ${kind}: cannot start: ${(err as Error).message}\n`);
    return EXIT.failed;
  }
  log(`relay ${relay}${token ? ' (token set)' : ''} -> ${projection} ${target}; batch ${batchSize}/${batchMs} ms; ${values.replay === true ? 'replay on first start; ' : ''}cursor ${statePath}`);
  const signal = await io.stopSignal;
  // The count is read after close(), which waits (bounded) for a delivery in flight: it says what the sink accepted.
  await sidecar.close();
  log(`${signal}: stopped after ${sidecar.delivered()} delivered event(s)`);
  return EXIT.ok;
}
