/** The agui bridge's descriptor (impl/adapter-kit/descriptor.ts explains the fields). */
import type { Descriptor } from '../adapter-kit/descriptor.js';
import { DEVIATIONS } from './deviations.js';

export const descriptor: Descriptor = {
  kind: 'bridge',
  name: "agui",
  vendor: "AG-UI",
  surface: "HTTP tee proxy toward `--upstream`: requests and the event stream pass untouched",
  identity: { session: "`threadId`", run: "`runId` (`STEP_*` become steps)" },
  classes: ["Emitter"],
  emits: ["run", "tool", "state", "attention"],
  postures: [
    { name: "default", env: {}, summary: "off-path tee; AEP_AGUI_DELTAS=1 opts token deltas in", accepts: [] },
  ],
  forms: [],
  steering: [],
  deviations: DEVIATIONS,
  port: 4321,
  configs: [],
  verification: { status: "documented", detail: "a real AG-UI client peer (peer.test.ts) and the bridge-mappings pins; no captured vendor session" },
};
