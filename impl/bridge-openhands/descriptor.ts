/** The openhands bridge's descriptor (impl/adapter-kit/descriptor.ts explains the fields). */
import type { Descriptor } from '../adapter-kit/descriptor.js';

export const descriptor: Descriptor = {
  kind: 'bridge',
  name: "openhands",
  vendor: "OpenHands",
  surface: "agent-server observer: `GET /api/conversations/search` discovery and one `/sockets/events/{id}` socket per conversation",
  identity: { session: "the conversation id", run: "from the status moments (`statusMoments`)" },
  classes: ["Emitter"],
  emits: ["session", "run", "tool", "attention", "state", "error"],
  postures: [
    { name: "default", env: {}, summary: "observe; AEP_OPENHANDS_DELTAS=1 opts deltas in", accepts: [] },
  ],
  forms: [],
  steering: [],
  deviations: ["AEP_OPENHANDS_CONTROL=1 is refused: the control writes are not built", "two `args_digest` pins of the standard corpus differ (baselined)"],
  port: 8397,
  configs: [],
  verification: { status: "documented", detail: "receiver tests against a local server stub and the openhands pins; no captured vendor session" },
};
