/** The kilocode-sse bridge's descriptor (impl/adapter-kit/descriptor.ts explains the fields). */
import type { Descriptor } from '../adapter-kit/descriptor.js';
import { DEVIATIONS } from './deviations.js';

export const descriptor: Descriptor = {
  kind: 'bridge',
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
  configs: [],
  verification: { status: "documented", detail: "the shared OpenCode-family daemon tests and the kilocode-sse pins; no captured vendor session" },
};
