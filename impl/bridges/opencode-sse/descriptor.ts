/** The opencode-sse bridge's descriptor (impl/integrations/descriptor.ts explains the fields). */
import type { Descriptor } from '../../integrations/descriptor.js';
import { DEVIATIONS } from './deviations.js';

export const descriptor: Descriptor = {
  kind: 'bridge',
  role: 'inbound-bridge',
  name: "opencode-sse",
  vendor: "OpenCode (server event bus)",
  surface: "attach to `--server` `GET /event` (SSE), every bus event through `applyMode`",
  identity: { session: "bus `sessionID`", run: "primary only: synthesized per user-message / idle boundary" },
  classes: ["Emitter", "Control-capable"],
  emits: [],
  postures: [
    { name: "default", env: {}, summary: "companion: only `x.opencode.*`, the hook adapter stays the core-type authority", accepts: [] },
    { name: "primary gate", env: {"AEP_OPENCODE_SSE_MODE": "primary", "AEP_OPENCODE_SSE_CONTROL": "1"}, summary: "primary mode with the REST gate: permission reply and session abort", accepts: ["control.attention.respond", "control.cancel"] },
  ],
  forms: [],
  steering: [],
  deviations: DEVIATIONS,
  port: 4320,
  portEnv: 'AEP_OPENCODE_SSE_PORT',
  env: [
    { name: 'AEP_OPENCODE_SERVER', summary: 'the OpenCode server (--server; default http://127.0.0.1:4096)' },
    { name: 'AEP_OPENCODE_SSE_MODE', summary: 'primary: the full bus mapping (--primary)' },
    { name: 'AEP_OPENCODE_SSE_CONTROL', summary: '1 (primary only): the permission reply and the run-scope abort over REST' },
    { name: 'AEP_OPENCODE_SSE_ACK_GUARD_MS', summary: 'how long a REST answer waits for its echo (default 8000)' },
  ],
  entry: { module: 'bridges/opencode-sse/cli.js', export: 'runner', arg: 'opencode' },
  daemon: {},
  summary: 'inbound: OpenCode server bus (GET /event), companion or --primary',
  corpus: { sources: ['opencode-sse'], modePolicies: ['opencode'] },
  help: [
    'opencode-sse / kilocode-sse (healthz {port} / {port:kilocode-sse}):',
    '  --server URL     the vendor server (default AEP_OPENCODE_SERVER / AEP_KILOCODE_SERVER, then',
    '                   http://127.0.0.1:4096)',
    '  --primary        full bus mapping with synthesized runs (SSE-only deployments); default',
    '                   companion: only x.<vendor>.* (env AEP_OPENCODE_SSE_MODE / AEP_KILOCODE_SSE_MODE)',
    '                   AEP_OPENCODE_SSE_CONTROL=1 / AEP_KILOCODE_SSE_CONTROL=1 (primary only): the',
    '                   permission reply and the run-scope abort over REST;',
    '                   AEP_OPENCODE_SSE_ACK_GUARD_MS / AEP_KILOCODE_SSE_ACK_GUARD_MS (default 8000)',
  ],
  reference: ['bridge-opencode-sse/mode-policy'],
  configs: [],
  verification: { status: "documented", detail: "attach and control tests against a local SSE stub and the opencode-sse pins; no captured vendor session" },
};
