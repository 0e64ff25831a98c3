/** The otlp bridge's descriptor (impl/integrations/descriptor.ts explains the fields). */
import type { Descriptor } from '../../integrations/descriptor.js';
import { DEVIATIONS } from './deviations.js';

export const descriptor: Descriptor = {
  kind: 'bridge',
  role: 'outbound-sidecar',
  name: "otlp",
  vendor: "OpenTelemetry collectors (OTLP/HTTP logs)",
  surface: "outbound sidecar: relay `GET /stream` to OTLP/HTTP JSON `ExportLogsServiceRequest` at `<endpoint>/v1/logs`",
  identity: { session: "carried from the AEP event", run: "carried from the AEP event" },
  classes: ["Consumer"],
  emits: [],
  postures: [
    { name: "default", env: {}, summary: "subscribe, batch, POST; resume cursor, retry with backoff", accepts: null },
  ],
  forms: [],
  steering: [],
  deviations: DEVIATIONS,
  port: 0,
  portEnv: '',
  env: [
    { name: 'OTEL_EXPORTER_OTLP_ENDPOINT', summary: 'the OTLP/HTTP endpoint, /v1/logs appended (--endpoint)' },
  ],
  summary: 'outbound: AEP events -> OTLP/HTTP JSON LogRecords to <endpoint>/v1/logs',
  configs: [],
  verification: { status: "documented", detail: "wire and delivery tests against a local collector stub" },
};
