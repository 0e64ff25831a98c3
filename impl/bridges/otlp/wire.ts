/**
 * OTLP/HTTP JSON encoding (the `ExportLogsServiceRequest` wire form) of the LogRecords `toOtlp`
 * returns in data-model form. Records group into one `resourceLogs` entry per `service.name`,
 * one scope (`aep-reference`); `timeUnixNano` is the exact decimal string from the event's own
 * time; attribute and body values become OTLP AnyValues. Pure.
 */
import type { AepEvent } from '../../core/event.js';
import { toOtlp, type OtlpLogRecord, type OtlpOptions } from '../../core/project/otlp.js';
import { epochNanos } from '../../core/project/time.js';

export const SCOPE = { name: 'aep-reference', version: '0.1.0' };

/** A JSON value → an OTLP AnyValue. */
export function toAnyValue(v: unknown): Record<string, unknown> {
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') return Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  if (Array.isArray(v)) return { arrayValue: { values: v.map(toAnyValue) } };
  if (v !== null && typeof v === 'object') return { kvlistValue: { values: toKeyValues(v as Record<string, unknown>) } };
  return {};
}

export function toKeyValues(obj: Record<string, unknown>): { key: string; value: Record<string, unknown> }[] {
  return Object.entries(obj).map(([key, value]) => ({ key, value: toAnyValue(value) }));
}

/** One data-model record → the wire LogRecord. `exactNanos` overrides the (double) time. */
export function wireRecord(r: OtlpLogRecord, exactNanos?: bigint | null): Record<string, unknown> {
  const out: Record<string, unknown> = {
    timeUnixNano: exactNanos != null ? exactNanos.toString() : String(r.time_unix_nano),
    severityNumber: r.severity_number,
    severityText: r.severity_text,
    eventName: r.event_name,
    attributes: toKeyValues(r.attributes),
  };
  if (r.body !== undefined) out.body = toAnyValue(r.body);
  if (r.trace_id !== undefined) out.traceId = r.trace_id;
  if (r.span_id !== undefined) out.spanId = r.span_id;
  if (r.flags !== undefined) out.flags = r.flags;
  return out;
}

/** Events → one ExportLogsServiceRequest body (as an object). */
export function exportRequest(events: readonly AepEvent[], opts: OtlpOptions = {}): Record<string, unknown> {
  const byService = new Map<string, Record<string, unknown>[]>();
  for (const e of events) {
    const r = toOtlp(e, opts);
    const service = r.resource['service.name'];
    const list = byService.get(service) ?? [];
    list.push(wireRecord(r, typeof e.time === 'string' ? epochNanos(e.time) : null));
    byService.set(service, list);
  }
  return {
    resourceLogs: [...byService].map(([service, logRecords]) => ({
      resource: { attributes: toKeyValues({ 'service.name': service }) },
      scopeLogs: [{ scope: SCOPE, logRecords }],
    })),
  };
}
