/** The ce bridge's descriptor (impl/integrations/descriptor.ts explains the fields). */
import type { Descriptor } from '../../integrations/descriptor.js';
import { DEVIATIONS } from './deviations.js';

export const descriptor: Descriptor = {
  kind: 'bridge',
  role: 'outbound-sidecar',
  name: "ce",
  vendor: "CloudEvents / OCSF sinks",
  surface: "outbound sidecar: relay `GET /stream` to structured-mode CloudEvents POSTs (`--ocsf`: OCSF records)",
  identity: { session: "carried from the AEP event", run: "carried from the AEP event" },
  classes: ["Consumer"],
  emits: [],
  postures: [
    { name: "default", env: {}, summary: "subscribe, project, POST; resume cursor, retry with backoff", accepts: null },
  ],
  forms: [],
  steering: [],
  deviations: DEVIATIONS,
  port: 0,
  portEnv: '',
  env: [
    { name: 'AEP_CE_SINK', summary: 'the HTTP sink for structured-mode CloudEvents (--sink)' },
  ],
  summary: 'outbound: AEP events -> CloudEvents (structured mode) to an HTTP sink, or OCSF with --ocsf',
  configs: [],
  verification: { status: "documented", detail: "projection and delivery tests against a local sink; no external sink verified" },
};
