/**
 * The `deliver` of `aep bridge otlp`: one batch → one POST of an ExportLogsServiceRequest to
 * `<endpoint>/v1/logs` (OTLP/HTTP, JSON encoding). Status handling as in bridges/ce/sink.ts
 * (retryable: network, 408, 429, 5xx, after the `Retry-After` when the collector sends one; any
 * other 4xx: the batch is refused, logged and skipped).
 */
import type { AepEvent, CaptureLevel } from '../../core/event.js';
import { postJson } from '../ce/sink.js';
import { exportRequest } from './wire.js';

export interface OtlpExporterOptions {
  endpoint: string;
  maxCapture?: CaptureLevel;
  serviceName?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  log(line: string): void;
}

/** `http://collector:4318` → `http://collector:4318/v1/logs` (a URL already ending in /v1/logs is kept). */
export function logsUrl(endpoint: string): string {
  const url = new URL(endpoint);
  if (!url.pathname.endsWith('/v1/logs')) url.pathname = `${url.pathname.replace(/\/+$/, '')}/v1/logs`;
  return url.toString();
}

export function otlpExporter(opts: OtlpExporterOptions): (batch: AepEvent[]) => Promise<void> {
  const url = logsUrl(opts.endpoint);
  const projection = { ...(opts.maxCapture ? { maxCapture: opts.maxCapture } : {}), ...(opts.serviceName ? { serviceName: opts.serviceName } : {}) };
  return async (batch) => {
    const body = JSON.stringify(exportRequest(batch, projection));
    const refused = await postJson(url, 'application/json', body, opts.timeoutMs ?? 10_000, opts.headers);
    if (refused !== null) opts.log(`collector refused a batch of ${batch.length} permanently: ${refused}; skipped`);
  };
}
