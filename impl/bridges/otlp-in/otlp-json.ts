/**
 * OTLP/HTTP JSON (`ExportLogsServiceRequest`) → flat records, the pure half of the receiver.
 * Attribute arrays `[{key, value: AnyValue}]` flatten to `{key: value}`: string/bool/double stay
 * as they are, `intValue` (a string in OTLP JSON) becomes a number when it is a safe integer,
 * arrays and kvlists become JSON arrays/objects. A malformed body yields an error, never a throw.
 */
import type { OtelRecord } from './profile.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Deepest nesting of AnyValues kept (a kvlist or array inside another counts one level). Real
 * exporters send flat attributes; past the bound a value becomes {@link TOO_DEEP}, and
 * `readExport` refuses the export. The walks recurse at most this far, whatever the input.
 */
export const MAX_ANY_VALUE_DEPTH = 32;

/** What replaces an AnyValue nested past {@link MAX_ANY_VALUE_DEPTH}. */
export const TOO_DEEP = `[nested deeper than ${MAX_ANY_VALUE_DEPTH} levels: not kept]`;

interface Walk {
  tooDeep: boolean;
}

function any(v: unknown, depth: number, walk: Walk): unknown {
  if (!isObject(v)) return undefined;
  if ('stringValue' in v) return v.stringValue;
  if ('boolValue' in v) return v.boolValue;
  if ('doubleValue' in v) return v.doubleValue;
  if ('intValue' in v) {
    const n = Number(v.intValue);
    return Number.isSafeInteger(n) ? n : String(v.intValue);
  }
  if ('arrayValue' in v || 'kvlistValue' in v) {
    if (depth >= MAX_ANY_VALUE_DEPTH) {
      walk.tooDeep = true;
      return TOO_DEEP;
    }
    if ('arrayValue' in v) return isObject(v.arrayValue) && Array.isArray(v.arrayValue.values) ? v.arrayValue.values.map((x) => any(x, depth + 1, walk)) : [];
    return isObject(v.kvlistValue) ? flatten(v.kvlistValue.values, depth + 1, walk) : {};
  }
  if ('bytesValue' in v) return v.bytesValue;
  return undefined;
}

function flatten(list: unknown, depth: number, walk: Walk): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!Array.isArray(list)) return out;
  for (const kv of list) {
    if (!isObject(kv) || typeof kv.key !== 'string') continue;
    const value = any(kv.value, depth, walk);
    if (value !== undefined) Object.defineProperty(out, kv.key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** One OTLP AnyValue → a plain JSON value (nesting past {@link MAX_ANY_VALUE_DEPTH} becomes {@link TOO_DEEP}). */
export function anyValue(v: unknown): unknown {
  return any(v, 0, { tooDeep: false });
}

/** `[{key, value}]` → `{key: value}`; entries without a string key are skipped. */
export function flattenAttributes(list: unknown): Record<string, unknown> {
  return flatten(list, 0, { tooDeep: false });
}

/** A record read from an export, with the LogRecord's own time when it has one. */
export interface ReceivedRecord extends OtelRecord {
  resource: Record<string, unknown>;
  attributes: Record<string, unknown>;
  /** `timeUnixNano` of the LogRecord, as sent. */
  timeUnixNano?: string;
}

/** Every LogRecord of an export body; `error` names what is wrong with a malformed body. */
export function readExport(body: unknown): { records: ReceivedRecord[]; error?: string; tooDeep?: true } {
  if (!isObject(body) || !Array.isArray(body.resourceLogs)) return { records: [], error: 'body must be an OTLP JSON ExportLogsServiceRequest: an object with a "resourceLogs" array' };
  const records: ReceivedRecord[] = [];
  const walk: Walk = { tooDeep: false };
  for (const rl of body.resourceLogs) {
    if (!isObject(rl)) continue;
    const resource = isObject(rl.resource) ? flatten(rl.resource.attributes, 0, walk) : {};
    const scopes = Array.isArray(rl.scopeLogs) ? rl.scopeLogs : [];
    for (const sl of scopes) {
      if (!isObject(sl) || !Array.isArray(sl.logRecords)) continue;
      for (const lr of sl.logRecords) {
        if (!isObject(lr)) continue;
        const attributes = flatten(lr.attributes, 0, walk);
        // Some exporters put the event name on the LogRecord itself (OTel `eventName`).
        if (attributes['event.name'] === undefined && typeof lr.eventName === 'string') attributes['event.name'] = lr.eventName;
        const rec: ReceivedRecord = { resource, attributes };
        if (typeof lr.timeUnixNano === 'string' || typeof lr.timeUnixNano === 'number') rec.timeUnixNano = String(lr.timeUnixNano);
        records.push(rec);
      }
    }
  }
  if (walk.tooDeep) return { records: [], tooDeep: true, error: `an attribute value nests kvlistValue/arrayValue deeper than ${MAX_ANY_VALUE_DEPTH} levels; flatten it (nothing of this export was taken)` };
  return { records };
}
