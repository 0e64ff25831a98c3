/** The kilocode-sse bridge's descriptor (impl/integrations/descriptor.ts explains the fields). */
import type { Descriptor } from '../../integrations/descriptor.js';
import { DEVIATIONS } from './deviations.js';

export const descriptor: Descriptor = {
  kind: 'bridge',
  role: 'inbound-bridge',
  name: "kilocode-sse",
  vendor: "Kilo Code (server event bus)",
  surface: "attach to `--server` `GET /event` (SSE), the OpenCode-family policy under `x.kilocode.*` (incl. the 7.4.6 bus asks)",
  identity: { session: "bus `sessionID`", run: "primary only: synthesized per user-message / idle boundary" },
  classes: ["Emitter", "Control-capable"],
  emits: [],
  postures: [
    { name: "default", env: {}, summary: "companion: only `x.kilocode.*`, the hook adapter stays the core-type authority", accepts: [] },
    { name: "primary gate", env: {"AEP_KILOCODE_SSE_MODE": "primary", "AEP_KILOCODE_SSE_CONTROL": "1"}, summary: "primary mode with the REST gate: permission reply and session abort", accepts: ["control.attention.respond", "control.cancel"] },
  ],
  forms: [],
  steering: [],
  deviations: DEVIATIONS,
  port: 4322,
  portEnv: 'AEP_KILOCODE_SSE_PORT',
  env: [
    { name: 'AEP_KILOCODE_SERVER', summary: 'the Kilo Code server (--server; default http://127.0.0.1:4096)' },
    { name: 'AEP_KILOCODE_SSE_MODE', summary: 'primary: the full bus mapping (--primary)' },
    { name: 'AEP_KILOCODE_SSE_CONTROL', summary: '1 (primary only): the permission reply and the run-scope abort over REST' },
    { name: 'AEP_KILOCODE_SSE_ACK_GUARD_MS', summary: 'how long a REST answer waits for its echo (default 8000)' },
  ],
  entry: { module: 'bridges/opencode-sse/cli.js', export: 'runner', arg: 'kilocode' },
  daemon: {},
  summary: 'inbound: Kilo Code server bus (GET /event), companion or --primary',
  corpus: { sources: ['kilocode-sse'], modePolicies: ['kilocode'] },
  reference: ['bridge-kilocode-sse/mode-policy'],
  configs: [],
  verification: { status: "documented", detail: "the shared OpenCode-family daemon tests and the kilocode-sse pins; no captured vendor session" },
};
