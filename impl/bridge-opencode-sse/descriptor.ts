/** The opencode-sse bridge's descriptor (impl/adapter-kit/descriptor.ts explains the fields). */
import type { Descriptor } from '../adapter-kit/descriptor.js';
import { DEVIATIONS } from './deviations.js';

export const descriptor: Descriptor = {
  kind: 'bridge',
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
  configs: [],
  verification: { status: "documented", detail: "attach and control tests against a local SSE stub and the opencode-sse pins; no captured vendor session" },
};
