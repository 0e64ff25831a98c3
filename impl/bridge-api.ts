/**
 * The inbound bridges' pure functions under the reference module names (`bridge-*`), with the
 * reference parameter lists (each wrapper's `length` is its reference arity), for
 * impl/reference-api.ts's `modules` table.
 */
import type { Mapped } from './adapter-kit/types.js';
import { mapRecord as codexRecord } from './bridges/otlp-in/map-records.js';
import { mapRecord as vscodeRecord } from './bridges/otlp-in/map-records-vscode.js';
import type { MapOptions, OtelRecord } from './bridges/otlp-in/profile.js';
import { mapEvent as aguiEvent, type AguiMapOptions } from './bridges/agui/map-events.js';
import { mapMoment as acpMoment, type AcpMapOptions, type AcpMoment } from './bridges/acp/map-frames.js';
import { mapEvent as openHandsEvent, statusMoments as openHandsStatus, type OpenHandsMapOptions } from './bridges/openhands/map-events.js';
import { applyMode as openCodeMode, type SseMode } from './bridges/opencode-sse/mode-policy.js';
import { applyMode as kiloMode } from './bridges/kilocode-sse/mode-policy.js';
import { applyMode as kimiMode, type WsMode } from './bridges/kimi-web/mode-policy.js';

export const bridgeOtlpInCodex = {
  mapRecord: function mapRecord(record: OtelRecord, opts: MapOptions | undefined): Mapped | null {
    return codexRecord(record, opts);
  },
};
export const bridgeOtlpInVscode = {
  mapRecord: function mapRecord(record: OtelRecord, opts: MapOptions | undefined): Mapped | null {
    return vscodeRecord(record, opts);
  },
};
export const bridgeAgui = {
  mapEvent: function mapEvent(event: Record<string, unknown>, opts: AguiMapOptions | undefined): Mapped | Mapped[] | null {
    return aguiEvent(event, opts);
  },
};
export const bridgeAcp = {
  mapMoment: function mapMoment(moment: AcpMoment, opts: AcpMapOptions | undefined): Mapped[] {
    return acpMoment(moment, opts);
  },
};
export const bridgeOpenHands = {
  mapEvent: function mapEvent(event: Record<string, unknown>, opts: OpenHandsMapOptions | undefined): Mapped | null {
    return openHandsEvent(event, opts);
  },
  statusMoments: function statusMoments(prev: string | null, next: string): Mapped[] {
    return openHandsStatus(prev, next);
  },
};
export const bridgeOpenCodeSse = {
  applyMode: function applyMode(event: unknown, mode: SseMode): Mapped | null {
    return openCodeMode(event, mode);
  },
};
export const bridgeKiloCodeSse = {
  applyMode: function applyMode(event: unknown, mode: SseMode): Mapped | null {
    return kiloMode(event, mode);
  },
};
export const bridgeKimiCodeWeb = {
  applyMode: function applyMode(event: unknown, mode: WsMode): Mapped | null {
    return kimiMode(event, mode);
  },
};
