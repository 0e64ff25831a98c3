/** The agui bridge's descriptor (impl/integrations/descriptor.ts explains the fields). */
import type { Descriptor } from '../../integrations/descriptor.js';
import { DEVIATIONS } from './deviations.js';
import { edgeSurface } from '../../http/limits.js';

/** The proxy's edge limits and their variables (impl/http/limits.ts); a body of 16 MiB, JSON 128 deep (it forwards, it emits no body). */
export const EDGE = edgeSurface('AEP_AGUI', { maxBody: 16 * 1024 * 1024, maxDepth: 128 });

export const descriptor: Descriptor = {
  kind: 'bridge',
  role: 'inbound-bridge',
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
  portEnv: 'AEP_AGUI_PORT',
  env: [
    { name: 'AEP_AGUI_UPSTREAM', summary: 'the AG-UI agent the proxy forwards to (--upstream; required)' },
    { name: 'AEP_AGUI_DELTAS', summary: '1: opt token deltas in' },
    { name: 'AEP_AGENT_NAME', summary: 'the agent name (default agui)' },
    ...EDGE.env,
  ],
  entry: { module: 'bridges/agui/cli.js', export: 'run' },
  daemon: { needs: { flag: '--upstream', env: 'AEP_AGUI_UPSTREAM', what: 'the AG-UI agent URL' } },
  summary: 'inbound: AG-UI tee proxy toward AEP_AGUI_UPSTREAM (the UI stream passes untouched)',
  corpus: { sources: ['agui'] },
  help: [
    'agui (port {port}):',
    '  --upstream URL   the AG-UI agent (default AEP_AGUI_UPSTREAM; required). AEP_AGUI_DELTAS=1 opts',
    '                   token deltas in; AEP_AGENT_NAME overrides agent \'agui\'.',
  ],
  reference: ['bridge-agui/map-events'],
  configs: [],
  verification: { status: "documented", detail: "a real AG-UI client peer (peer.test.ts) and the bridge-mappings pins; no captured vendor session" },
};
