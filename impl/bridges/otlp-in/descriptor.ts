/** The otlp-in bridge's descriptor (impl/integrations/descriptor.ts explains the fields). */
import type { Descriptor } from '../../integrations/descriptor.js';
import { DEVIATIONS } from './deviations.js';
import { edgeSurface } from '../../http/limits.js';

/** The receiver's edge limits and their variables (impl/http/limits.ts): exports up to 8 MiB, JSON 64 deep. */
export const EDGE = edgeSurface('AEP_OTLP_IN', { maxBody: 8 * 1024 * 1024, maxDepth: 64 });

export const descriptor: Descriptor = {
  kind: 'bridge',
  role: 'inbound-bridge',
  name: "otlp-in",
  vendor: "Codex / VS Code OpenTelemetry logs",
  surface: "`POST /v1/logs` OTLP/HTTP JSON receiver (protobuf refused 415)",
  identity: { session: "`conversation.id` (codex) or resource `session.id` (vscode)", run: "none synthesized" },
  classes: ["Emitter"],
  emits: [],
  postures: [
    { name: "default", env: {}, summary: "companion: only `x.<vendor>.otel.*`; `--primary` / AEP_OTLP_IN_MODE=primary emits the core subset", accepts: [] },
  ],
  forms: [],
  steering: [],
  deviations: DEVIATIONS,
  port: 4319,
  portEnv: 'AEP_OTLP_IN_PORT',
  env: [
    { name: 'AEP_OTLP_IN_VENDOR', summary: 'codex (default) or vscode (--vendor)' },
    { name: 'AEP_OTLP_IN_MODE', summary: 'primary: emit the profile\'s core subset (--primary)' },
    ...EDGE.env,
  ],
  entry: { module: 'bridges/otlp-in/cli.js', export: 'run' },
  daemon: {},
  summary: 'inbound: OTLP/HTTP JSON logs (Codex, VS Code) on POST /v1/logs',
  corpus: { sources: ['codex-otel', 'vscode-otel'] },
  help: [
    'otlp-in (port {port}):',
    '  --vendor V       codex (default; session = conversation.id) or vscode (session = resource',
    '                   session.id); env AEP_OTLP_IN_VENDOR',
    '  --primary        emit the profile\'s core subset (for deployments with no hook adapter);',
    '                   default companion: only x.<vendor>.otel.* (env AEP_OTLP_IN_MODE=primary)',
  ],
  reference: ['bridge-otlp-in/map-records', 'bridge-otlp-in/map-records-vscode'],
  configs: [],
  verification: { status: "documented", detail: "the official OTel exporter as a real peer (peer.test.ts) and the codex-otel / vscode-otel pins" },
};
