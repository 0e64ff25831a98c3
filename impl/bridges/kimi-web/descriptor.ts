/** The kimi-web bridge's descriptor (impl/integrations/descriptor.ts explains the fields). */
import type { Descriptor } from '../../integrations/descriptor.js';
import { DEVIATIONS } from './deviations.js';

export const descriptor: Descriptor = {
  kind: 'bridge',
  role: 'inbound-bridge',
  name: "kimi-web",
  aliases: ["kimi-code-web", "bridge-kimi-code-web"],
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
  portEnv: 'AEP_KIMI_WEB_PORT',
  env: [
    { name: 'AEP_KIMI_WEB_SERVER', summary: 'the kap-server behind kimi web (--server; required)' },
    { name: 'AEP_KIMI_WEB_TOKEN', summary: 'bearer token (default: <KIMI_CODE_HOME or ~/.kimi-code>/server.token)' },
    { name: 'AEP_KIMI_WEB_SESSIONS', summary: 'a,b: subscribe those sessions (default: discover over REST)' },
    { name: 'AEP_KIMI_WEB_MODE', summary: 'primary: the full wire mapping (--primary)' },
    { name: 'AEP_KIMI_WEB_CONTROL', summary: '1 (primary only): the approval and abort writes' },
    { name: 'AEP_KIMI_WEB_ACK_GUARD_MS', summary: 'how long a control write waits for its outcome (default 8000)' },
  ],
  entry: { module: 'bridges/kimi-web/cli.js', export: 'run' },
  daemon: { needs: { flag: '--server', env: 'AEP_KIMI_WEB_SERVER', what: 'the kap-server URL' } },
  summary: 'inbound: Kimi web kap-server observer (REST discovery + bearer-subprotocol WS), companion or --primary',
  corpus: { sources: ['kimi-web'], modePolicies: ['kimi-code', 'kimi-web'] },
  help: [
    'kimi-web (healthz {port}):',
    '  --server URL     the kap-server behind \'kimi web\' (AEP_KIMI_WEB_SERVER; required). Bearer token',
    '                   AEP_KIMI_WEB_TOKEN, else <KIMI_CODE_HOME or ~/.kimi-code>/server.token;',
    '                   AEP_KIMI_WEB_SESSIONS=a,b subscribes those (default: discover over REST).',
    '  --primary        the full wire mapping (runs, tools, read-only asks); default companion: only',
    '                   x.kimi-code.web.* (env AEP_KIMI_WEB_MODE=primary). Read-only by default;',
    '                   AEP_KIMI_WEB_CONTROL=1 (primary only; a usage error in companion mode) turns',
    '                   on the control gate: the approval decision and the run abort over REST;',
    '                   AEP_KIMI_WEB_ACK_GUARD_MS (default 8000).',
  ],
  configs: [],
  verification: { status: "documented", detail: "attach and control tests against a local kap-server stub, live control-loop scenarios and the kimi-web ws_modes pins; no captured vendor session" },
};
