/** The kimi-code-web bridge's descriptor (impl/adapter-kit/descriptor.ts explains the fields). */
import type { Descriptor } from '../adapter-kit/descriptor.js';

export const descriptor: Descriptor = {
  kind: 'bridge',
  name: "kimi-code-web",
  vendor: "Kimi Code (web, kap-server)",
  surface: "kap-server WS event stream; only the pure mode policy (`applyMode`) is built",
  identity: { session: "envelope `session_id`", run: "primary only: the vendor's turn boundaries" },
  classes: ["Emitter"],
  emits: [],
  postures: [
    { name: "default", env: {}, summary: "companion: only `x.kimi-code.web.<type>` (mapper only; no daemon yet)", accepts: [] },
  ],
  forms: [],
  steering: [],
  deviations: ["the daemon (port 4323) and the AEP_KIMI_WEB_CONTROL leg are not built"],
  port: 4323,
  configs: [],
  verification: { status: "documented", detail: "the kimi-code-web ws_modes pins only" },
};
