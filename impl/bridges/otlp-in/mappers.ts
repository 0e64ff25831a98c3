/** The otlp-in bridge's pure mappers, as the bridges family calls them (impl/integrations/mappers.ts); loaded lazily by the registry. */
import type { BridgeMappers } from '../../integrations/mappers.js';
import { mapRecord as mapCodexRecord } from './map-records.js';
import { mapRecord as mapVscodeRecord } from './map-records-vscode.js';
import type { OtelRecord } from './profile.js';

export const mappers: Partial<BridgeMappers> = {
  otelRecords: { 'codex-otel': (r, o) => mapCodexRecord(r as OtelRecord, o), 'vscode-otel': (r, o) => mapVscodeRecord(r as OtelRecord, o) },
};
