/** The openhands bridge's descriptor (impl/adapter-kit/descriptor.ts explains the fields). */
import type { Descriptor } from '../adapter-kit/descriptor.js';
import { DEVIATIONS } from './deviations.js';

export const descriptor: Descriptor = {
  kind: 'bridge',
  name: "openhands",
  vendor: "OpenHands",
  surface: "agent-server observer: `GET /api/conversations/search` discovery and one `/sockets/events/{id}` socket per conversation",
  identity: { session: "the conversation id", run: "from the status moments (`statusMoments`)" },
  classes: ["Emitter", "Control-capable"],
  emits: ["session", "run", "tool", "attention", "state", "error"],
  postures: [
    { name: "default", env: {}, summary: "observe; AEP_OPENHANDS_DELTAS=1 opts deltas in", accepts: [] },
    { name: "control gate", env: {"AEP_OPENHANDS_CONTROL": "1"}, summary: "five REST writes: respond_to_confirmation, pause (from running), run as resume (from paused), interrupt (from running), send_input (run pinned false)", accepts: ["control.attention.respond", "control.pause", "control.resume", "x.openhands.control.send_input", "x.openhands.control.interrupt"] },
  ],
  forms: [],
  steering: [],
  deviations: DEVIATIONS,
  port: 8397,
  configs: [],
  verification: { status: "documented", detail: "receiver and control tests against a local agent-server stub, live control-loop scenarios and the openhands pins; no captured vendor session" },
};
