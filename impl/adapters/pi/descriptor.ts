/** The pi adapter's descriptor (impl/integrations/descriptor.ts explains the fields). */
import type { Descriptor } from '../../integrations/descriptor.js';
import { DEVIATIONS } from './deviations.js';

export const descriptor: Descriptor = {
  kind: 'adapter',
  role: 'plugin-adapter',
  name: 'pi',
  vendor: 'pi coding agent',
  surface: 'extension factory `pi-extension.js` (notification events) POSTing to `/hook/pi/<event>` (0.80.x extension types)',
  identity: { session: '`ctx.sessionManager.getSessionId()`', run: 'one agent loop: `agent_start` to `agent_end` (closed by the last `stopReason`)' },
  classes: ['Emitter', 'Control-capable'],
  emits: ['session', 'run', 'tool', 'control'],
  postures: [
    { name: 'default', env: {}, summary: 'observe: notification events only, nothing held', accepts: [] },
    { name: 'gate', env: { AEP_PI_CONTROL: '1' }, summary: '`tool_call` held allow/deny for tools matching AEP_PI_GATE_TOOLS (set for pi and the daemon)', accepts: ['control.attention.respond'] },
  ],
  forms: [],
  steering: [],
  deviations: DEVIATIONS,
  port: 8396,
  portEnv: 'AEP_PI_PORT',
  neutral: { reply: '{}', reads: 'json' },
  env: [
    { name: 'AEP_PI_CONTROL', summary: '1: declare control.attention.respond and hold forwarded tool_call gates' },
    { name: 'AEP_PI_GATE_TOOLS', summary: 'regex over whole tool names the gate holds (default every tool)' },
    { name: 'AEP_PI_DELTAS', summary: '1: stream message deltas' },
  ],
  reference: ['adapter-pi/map-events'],
  configs: ['impl/adapters/pi/pi-extension.js'],
  verification: { status: 'documented', detail: 'mapped from the design record; a manual real-host smoke run (pi 0.73.1); no captured session in conformance/fixtures/vendors' },
};
