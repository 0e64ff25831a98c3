/**
 * OTLP/HTTP JSON (`ExportLogsServiceRequest`) → flat records, the pure half of the receiver.
 * Attribute arrays `[{key, value: AnyValue}]` flatten to `{key: value}`: string/bool/double stay
 * as they are, `intValue` (a string in OTLP JSON) becomes a number when it is a safe integer,
 * arrays and kvlists become JSON arrays/objects. A malformed body yields an error, never a throw.
 */
import type { OtelRecord } from './profile.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One OTLP AnyValue → a plain JSON value. */
export function anyValue(v: unknown): unknown {
  if (!isObject(v)) return undefined;
  if ('stringValue' in v) return v.stringValue;
  if ('boolValue' in v) return v.boolValue;
  if ('doubleValue' in v) return v.doubleValue;
  if ('intValue' in v) {
    const n = Number(v.intValue);
    return Number.isSafeInteger(n) ? n : String(v.intValue);
  }
  if ('arrayValue' in v) return isObject(v.arrayValue) && Array.isArray(v.arrayValue.values) ? v.arrayValue.values.map(anyValue) : [];
  if ('kvlistValue' in v) return isObject(v.kvlistValue) ? flattenAttributes(v.kvlistValue.values) : {};
  if ('bytesValue' in v) return v.bytesValue;
  return undefined;
}

/** `[{key, value}]` → `{key: value}`; entries without a string key are skipped. */
export function flattenAttributes(list: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!Array.isArray(list)) return out;
  for (const kv of list) {
    if (!isObject(kv) || typeof kv.key !== 'string') continue;
    const value = anyValue(kv.value);
    if (value !== undefined) out[kv.key] = value;
  }
  return out;
}

/** A record read from an export, with the LogRecord's own time when it has one. */
export interface ReceivedRecord extends OtelRecord {
  resource: Record<string, unknown>;
  attributes: Record<string, unknown>;
  /** `timeUnixNano` of the LogRecord, as sent. */
  timeUnixNano?: string;
}

/** Every LogRecord of an export body; `error` names what is wrong with a malformed body. */
export function readExport(body: unknown): { records: ReceivedRecord[]; error?: string } {
  if (!isObject(body) || !Array.isArray(body.resourceLogs)) return { records: [], error: 'body must be an OTLP JSON ExportLogsServiceRequest: an object with a "resourceLogs" array' };
  const records: ReceivedRecord[] = [];
  for (const rl of body.resourceLogs) {
    if (!isObject(rl)) continue;
    const resource = isObject(rl.resource) ? flattenAttributes(rl.resource.attributes) : {};
    const scopes = Array.isArray(rl.scopeLogs) ? rl.scopeLogs : [];
    for (const sl of scopes) {
      if (!isObject(sl) || !Array.isArray(sl.logRecords)) continue;
      for (const lr of sl.logRecords) {
        if (!isObject(lr)) continue;
        const attributes = flattenAttributes(lr.attributes);
        // Some exporters put the event name on the LogRecord itself (OTel `eventName`).
        if (attributes['event.name'] === undefined && typeof lr.eventName === 'string') attributes['event.name'] = lr.eventName;
        const rec: ReceivedRecord = { resource, attributes };
        if (typeof lr.timeUnixNano === 'string' || typeof lr.timeUnixNano === 'number') rec.timeUnixNano = String(lr.timeUnixNano);
        records.push(rec);
      }
    }
  }
  return { records };
}
