/**
 * AEP → OTLP LogRecord export (AEP-0005 §3): the JSON encoding of the OTel Events
 * model (LogRecord + `event_name`). Pure; the input is never mutated.
 */
import { cloneJson, defineMember } from '../json-shape.js';
import { SEVERITY_OTLP } from '../../../spec/registry.js';
import type { AepEvent, CaptureLevel, Severity } from '../event.js';
import { CE_TYPE_PREFIX } from './cloudevents.js';
import { DEFAULT_MAX_CAPTURE, declaredCapture, survivingData } from './ceiling.js';
import { ownEntry } from './lookup.js';
import { epochNanos } from './time.js';

/** Exporter settings. Every member is optional. */
export interface OtlpOptions {
  /** The exporter's capture ceiling (§3.3). Default `metadata`. Events above it export without payload. */
  readonly maxCapture?: CaptureLevel;
  /** Resource `service.name`. Default: the Event's `agent` (override for shared relays, §3.2). */
  readonly serviceName?: string;
}

/** An OTLP LogRecord in its JSON data-model form, members in the order they are built. */
export interface OtlpLogRecord {
  /**
   * Epoch nanoseconds as a JSON number. Above 2^53 a double cannot hold every integer:
   * the value is the double nearest the exact instant, which prints as the exact
   * integer whenever the time has at most millisecond precision. Use
   * `epochNanos(time)` for the exact value.
   */
  time_unix_nano: number;
  event_name: string;
  severity_text: string;
  severity_number: number;
  resource: { 'service.name': string };
  attributes: Record<string, unknown>;
  trace_id?: string;
  span_id?: string;
  flags?: number;
  body?: Record<string, unknown>;
}

/** Envelope attribute → LogRecord attribute, in emission order (§3.2). */
const ATTRIBUTES = [
  ['agent', 'aep.agent_id'],
  ['id', 'aep.event_id'],
  ['capture', 'aep.capture'],
  ['source', 'aep.source'],
  ['session', 'aep.session_id'],
  ['run', 'aep.run_id'],
  ['step', 'aep.step'],
  ['seq', 'aep.sequence'],
  ['epoch', 'aep.epoch'],
  ['cause', 'aep.causation_id'],
  ['subject', 'aep.subject'],
] as const;

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const GEN_AI = 'gen_ai.';
const UNSPECIFIED = { severity_text: 'UNSPECIFIED', severity_number: 0 };

/**
 * Project one Event to an OTLP LogRecord (§3). `aep.capture` always appears (the
 * declared level, `metadata` when absent); other optional attributes appear only when
 * present. Top-level `gen_ai.*` payload members are hoisted into `attributes`; the
 * rest of the surviving payload is `body`, omitted when empty. An Event above
 * `maxCapture`, or at `capture: none`, exports envelope-derived attributes only.
 */
export function toOtlp(event: AepEvent, opts: OtlpOptions = {}): OtlpLogRecord {
  // An unregistered severity (an invalid Event) exports as OTLP's UNSPECIFIED, never a guess.
  const { severity_text, severity_number } = ownEntry(SEVERITY_OTLP, event.severity ?? 'info') ?? UNSPECIFIED;
  const ns = typeof event.time === 'string' ? epochNanos(event.time) : null;
  const record: OtlpLogRecord = {
    time_unix_nano: ns === null ? 0 : Number(ns),
    event_name: CE_TYPE_PREFIX + event.type,
    severity_text,
    severity_number,
    resource: { 'service.name': opts.serviceName ?? event.agent },
    attributes: {},
  };
  for (const [name, attribute] of ATTRIBUTES) {
    const value = name === 'capture' ? declaredCapture(event) : event[name];
    if (value !== undefined) record.attributes[attribute] = value;
  }
  const trace = typeof event.traceparent === 'string' ? TRACEPARENT.exec(event.traceparent) : null;
  if (trace !== null) {
    record.trace_id = trace[2]!;
    record.span_id = trace[3]!;
    record.flags = parseInt(trace[4]!, 16);
  }
  const data = survivingData(event, opts.maxCapture ?? DEFAULT_MAX_CAPTURE);
  if (data !== undefined) {
    const body: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(data)) {
      if (key.startsWith(GEN_AI)) record.attributes[key] = cloneJson(value);
      else defineMember(body, key, cloneJson(value));
    }
    if (Object.keys(body).length > 0) record.body = body;
  }
  return record;
}

/**
 * The inverse severity bucketing (§3.4): OTLP 1-8 debug, 9 info, 10-12 notice,
 * 13-16 warning, 17-20 error, 21-24 critical; `null` outside 1..24 or for non-integers.
 */
export function severityFromOtlp(severityNumber: number): Severity | null {
  if (!Number.isInteger(severityNumber) || severityNumber < 1 || severityNumber > 24) return null;
  if (severityNumber <= 8) return 'debug';
  if (severityNumber === 9) return 'info';
  if (severityNumber <= 12) return 'notice';
  if (severityNumber <= 16) return 'warning';
  if (severityNumber <= 20) return 'error';
  return 'critical';
}
