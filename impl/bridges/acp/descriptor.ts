/** The acp bridge's descriptor (impl/integrations/descriptor.ts explains the fields). */
import type { Descriptor } from '../../integrations/descriptor.js';
import { DEVIATIONS } from './deviations.js';

export const descriptor: Descriptor = {
  kind: 'bridge',
  role: 'inbound-bridge',
  name: "acp",
  vendor: "Agent Client Protocol (any ACP agent and editor)",
  surface: "stdio tee: `aep bridge acp -- <agent>` between editor and agent, JSON-RPC frames read both ways (`@agentclientprotocol/sdk` 1.2.1)",
  identity: { session: "`sessionId`", run: "the `session/prompt` request id, as `run:<epoch>:<id>`" },
  classes: ["Emitter"],
  emits: ["session", "run", "tool", "attention"],
  postures: [
    { name: "default", env: {}, summary: "off-path tee; AEP_ACP_DELTAS=1 opts message/thought chunks in", accepts: [] },
  ],
  forms: [],
  steering: [],
  deviations: DEVIATIONS,
  port: 8394,
  portEnv: 'AEP_ACP_PORT',
  env: [
    { name: 'AEP_ACP_DELTAS', summary: '1: opt message and thought chunks in' },
    { name: 'AEP_ACP_LOG', summary: '1: bridge diagnostics on stderr' },
    { name: 'AEP_AGENT_NAME', summary: 'the agent name (default acp)' },
  ],
  entry: { module: 'bridges/acp/cli.js', export: 'run' },
  summary: 'inbound: byte-transparent ACP stdio tee: aep bridge acp -- <agent> [args...]',
  corpus: { sources: ['acp'] },
  help: [
    'acp (-- <agent> [args...]):',
    '  spawns the real agent, pipes stdin/stdout byte-transparently, tees both directions to the',
    '  relay; the agent\'s exit code is the bridge\'s. AEP_ACP_DELTAS=1 opts message/thought chunks',
    '  in; AEP_ACP_LOG=1 writes bridge diagnostics to stderr; AEP_AGENT_NAME overrides agent \'acp\'.',
  ],
  reference: ['bridge-acp/map-frames'],
  configs: [],
  verification: { status: "documented", detail: "real ACP SDK peers on both sides (peer.test.ts) and the bridge-mappings pins; no captured vendor session" },
};
