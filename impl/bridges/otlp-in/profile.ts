/**
 * What the two OTel-inbound vendor profiles share (the design record's "a profile is exactly
 * three seams"): the mode switch, the record shape the mappers read, and the companion rule.
 */
import type { CaptureLevel } from '../../core/event.js';
import type { Mapped } from '../../adapter-kit/types.js';

/** `companion` (default): vendor namespace only. `primary`: the profile's core subset. */
export type Mode = 'companion' | 'primary';

/** One LogRecord with its resource, both as FLAT attribute maps (see flattenAttributes). */
export interface OtelRecord {
  resource?: Record<string, unknown>;
  attributes?: Record<string, unknown>;
}

export interface MapOptions {
  /** Default `companion`. */
  mode?: Mode;
  /** The capture ceiling. Default `metadata`. */
  ceiling?: CaptureLevel;
}

/** A vendor profile: agent identity, session key, and the pure mapper. */
export interface VendorProfile {
  agent: string;
  /** The session id of a record, or undefined when the record carries none. */
  sessionOf(record: OtelRecord): string | undefined;
  mapRecord(record: OtelRecord, opts?: MapOptions): Mapped | null;
}

/** `attributes` minus `drop` and minus gated keys whose level the ceiling does not reach. */
export function keptAttributes(
  attributes: Record<string, unknown>,
  drop: ReadonlySet<string>,
  gated: Readonly<Record<string, (value: unknown, ceiling: CaptureLevel) => unknown>>,
  ceiling: CaptureLevel,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(attributes)) {
    if (drop.has(k)) continue;
    const gate = Object.prototype.hasOwnProperty.call(gated, k) ? gated[k] : undefined;
    const kept = gate ? gate(v, ceiling) : v;
    if (kept !== undefined) out[k] = kept;
  }
  return out;
}

/** A string or number attribute as a non-negative integer, else undefined. */
export function intOf(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

/** `true`/`"true"` → true, `false`/`"false"` → false, anything else undefined. */
export function boolOf(value: unknown): boolean | undefined {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return undefined;
}

export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
