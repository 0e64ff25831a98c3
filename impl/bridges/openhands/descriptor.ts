/** The openhands bridge's descriptor (impl/integrations/descriptor.ts explains the fields). */
import type { Descriptor } from '../../integrations/descriptor.js';
import { DEVIATIONS } from './deviations.js';

export const descriptor: Descriptor = {
  kind: 'bridge',
  role: 'inbound-bridge',
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
  portEnv: 'AEP_OPENHANDS_PORT',
  env: [
    { name: 'AEP_OPENHANDS_SERVER', summary: 'the agent server (--server; default http://127.0.0.1:8000)' },
    { name: 'AEP_OPENHANDS_API_KEY', summary: 'the session key (sent only in the socket auth frame and the discovery header)' },
    { name: 'AEP_OPENHANDS_POLL', summary: 'discovery interval in seconds (default 15)' },
    { name: 'AEP_OPENHANDS_MAX_SESSIONS', summary: 'most conversations observed (default 100; more are logged and skipped; 8 socket handshakes at a time)' },
    { name: 'AEP_OPENHANDS_DELTAS', summary: '1: streaming deltas' },
    { name: 'AEP_OPENHANDS_CONTROL', summary: '1: the control gate (five REST writes)' },
    { name: 'AEP_OPENHANDS_ACK_GUARD_MS', summary: 'how long a control write waits for its outcome (default 8000)' },
    { name: 'AEP_AGENT_NAME', summary: 'the agent name (default openhands)' },
  ],
  entry: { module: 'bridges/openhands/cli.js', export: 'run' },
  daemon: {},
  summary: 'inbound: OpenHands agent server observer (discovery + auth-only sockets)',
  corpus: { sources: ['openhands'] },
  help: [
    'openhands (healthz {port}):',
    '  --server URL     the agent server (default AEP_OPENHANDS_SERVER, then http://127.0.0.1:8000);',
    '                   AEP_OPENHANDS_API_KEY the session key (sent only in the socket\'s auth frame',
    '                   and the discovery header), AEP_OPENHANDS_POLL discovery seconds (default 15),',
    '                   AEP_OPENHANDS_DELTAS=1 streaming deltas. Read-only by default;',
    '                   AEP_OPENHANDS_CONTROL=1 turns on the control gate: five REST writes',
    '                   (respond_to_confirmation, pause, resume, interrupt, send_input);',
    '                   AEP_OPENHANDS_ACK_GUARD_MS (default 8000).',
  ],
  configs: [],
  verification: { status: "documented", detail: "receiver and control tests against a local agent-server stub, live control-loop scenarios and the openhands pins; no captured vendor session" },
};
