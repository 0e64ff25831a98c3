/** The Kilo Code adapter's descriptor (impl/integrations/descriptor.ts explains the fields). */
import type { Descriptor } from '../../integrations/descriptor.js';
import { DEVIATIONS } from './deviations.js';

export const descriptor: Descriptor = {
  kind: 'adapter',
  role: 'plugin-adapter',
  name: 'kilocode',
  vendor: 'Kilo Code',
  surface: 'plugin `kilocode-plugin.js` (`{ id, server }`) POSTing to `/hook/kilocode`: held `permission.ask` up to 7.4.5, bus `permission.asked` from 7.4.6 (`@kilocode/plugin` 7.3.1)',
  identity: { session: 'bus `sessionID`', run: 'opened by the first user `message.updated`, closed by `session.idle`' },
  classes: ['Emitter', 'Control-capable'],
  emits: ['session', 'run', 'tool', 'attention', 'progress', 'control'],
  postures: [
    { name: 'default', env: {}, summary: 'permission asks answered once/always/reject (held hook, or REST reply at `server_url` for the 7.4.6 bus)', accepts: ['control.attention.respond'] },
  ],
  forms: ['question.asked (bus, answered over REST)'],
  steering: [],
  deviations: DEVIATIONS,
  port: 8391,
  portEnv: 'AEP_KILOCODE_PORT',
  neutral: { reply: '{}', reads: 'json' },
  env: [],
  reference: ['adapter-kilocode/map-hooks'],
  configs: ['impl/adapters/kilocode/kilocode-plugin.js'],
  verification: { status: 'documented', detail: 'pinned mappings plus a manual real-host smoke run (Kilo Code 7.7.9); no captured session in conformance/fixtures/vendors' },
};
