/**
 * The SSE channel's two modes, as one pure function (`applyMode(event, mode)`), shared by the
 * OpenCode and Kilo Code SSE bridges:
 * - `companion` (default): a plugin adapter may observe the same server and is the SOLE
 *   core-type authority, so this channel emits ONLY `x.<vendor>.*`: a moment whose full mapping
 *   is a core type, or nothing, carries as `x.<vendor>.<bus type>` with empty data; moments that
 *   already map into the vendor namespace keep their mapped shape;
 * - `primary` (SSE-only deployments): the full bus mapping (map-bus.ts), read-only asks.
 * `event` is the bus event `{type, properties}` (a `{kind:'bus', event}` moment is accepted too).
 */
import { isPlainObject } from '../../core/event.js';
import type { Mapped } from '../../adapter-kit/types.js';
import { mapBusEvent, vendorType, type BusEvent, type BusMapOptions, type BusVendor } from './map-bus.js';

export type SseMode = 'companion' | 'primary';

/** The bus event inside whatever shape was handed in. */
export function busEventOf(input: unknown): BusEvent {
  const v = isPlainObject(input) ? input : {};
  if (v.kind === 'bus' && isPlainObject(v.event)) return v.event as unknown as BusEvent;
  return v as unknown as BusEvent;
}

export function applyModeFor(vendor: BusVendor, input: unknown, mode: SseMode, opts: BusMapOptions = {}): Mapped | null {
  const event = busEventOf(input);
  const mapped = mapBusEvent(vendor, event, opts);
  if (mode === 'primary') return mapped;
  if (mapped !== null && mapped.type.startsWith(`x.${vendor}.`)) return mapped;
  return { type: vendorType(vendor, typeof event.type === 'string' ? event.type : 'unknown'), data: {} };
}

/** OpenCode's SSE mode policy. */
export function applyMode(event: unknown, mode: SseMode): Mapped | null {
  return applyModeFor('opencode', event, mode);
}
