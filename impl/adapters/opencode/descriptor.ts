/** The OpenCode adapter's descriptor (impl/integrations/descriptor.ts explains the fields). */
import type { Descriptor } from '../../integrations/descriptor.js';
import { DEVIATIONS } from './deviations.js';

export const descriptor: Descriptor = {
  kind: 'adapter',
  role: 'plugin-adapter',
  name: 'opencode',
  vendor: 'OpenCode',
  surface: 'JS plugin `opencode-plugin.js` (`event`, `tool.execute.before/after`, `permission.ask`) POSTing to `/hook/opencode` (`@opencode-ai/plugin` 1.18.33)',
  identity: { session: 'bus `sessionID`', run: 'opened by the first user `message.updated`, closed by `session.idle`' },
  classes: ['Emitter', 'Control-capable'],
  emits: ['session', 'run', 'tool', 'attention', 'progress', 'control'],
  postures: [
    { name: 'default', env: {}, summary: 'held `permission.ask` and bus `permission.asked` answered allow/deny (REST reply at `server_url`)', accepts: ['control.attention.respond'] },
  ],
  forms: ['question.asked (bus, answered over REST)'],
  steering: [],
  deviations: DEVIATIONS,
  port: 8390,
  portEnv: 'AEP_OPENCODE_PORT',
  neutral: { reply: '{}', reads: 'json' },
  env: [],
  reference: ['adapter-opencode/map-hooks'],
  configs: ['impl/adapters/opencode/opencode-plugin.js'],
  verification: { status: 'documented', detail: 'pinned mappings plus a manual real-host smoke run (OpenCode 1.18.33); no captured session in conformance/fixtures/vendors' },
};
