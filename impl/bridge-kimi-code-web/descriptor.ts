/** The kimi-code-web bridge's descriptor (impl/adapter-kit/descriptor.ts explains the fields). */
import type { Descriptor } from '../adapter-kit/descriptor.js';
import { DEVIATIONS } from './deviations.js';

export const descriptor: Descriptor = {
  kind: 'bridge',
  name: "kimi-code-web",
  vendor: "Kimi Code (web, kap-server)",
  surface: "kap-server REST discovery and the `/api/v1/ws` stream (bearer subprotocol), every envelope through `applyMode`",
  identity: { session: "envelope `session_id`", run: "primary only: the vendor's turn boundaries" },
  classes: ["Emitter", "Control-capable"],
  emits: [],
  postures: [
    { name: "default", env: {}, summary: "companion: only `x.kimi-code.web.<type>`, the hook adapter stays the core-type authority", accepts: [] },
    { name: "primary gate", env: {"AEP_KIMI_WEB_MODE": "primary", "AEP_KIMI_WEB_CONTROL": "1"}, summary: "primary mode with the REST gate: approval decision and session abort", accepts: ["control.attention.respond", "control.cancel"] },
  ],
  forms: [],
  steering: [],
  deviations: DEVIATIONS,
  port: 4323,
  configs: [],
  verification: { status: "documented", detail: "attach and control tests against a local kap-server stub, live control-loop scenarios and the kimi-code-web ws_modes pins; no captured vendor session" },
};
