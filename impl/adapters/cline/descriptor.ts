/** The Cline adapter's descriptor (impl/integrations/descriptor.ts explains the fields). */
import type { Descriptor } from '../../integrations/descriptor.js';
import { DEVIATIONS } from './deviations.js';

export const descriptor: Descriptor = {
  kind: 'adapter',
  role: 'hook-adapter',
  name: 'cline',
  vendor: 'Cline',
  surface: 'subprocess hook files (`~/.cline/hooks/`) through `aep hook`; opt-in hub WebSocket',
  identity: { session: '`taskId`', run: 'adapter-minted, one per agent (agent_start/agent_resume to agent_end/abort/error)' },
  classes: ['Emitter', 'Control-capable'],
  emits: ['session', 'run', 'tool', 'delegation', 'control'],
  postures: [
    { name: 'default', env: {}, summary: 'observe the hooks; every reply is {}', accepts: [] },
    { name: 'hub tap', env: { AEP_CLINE_HUB: '1', AEP_CLINE_HUB_TOKEN: '<hub token>' }, summary: "the hub's approvals observed as out-of-band cards", accepts: [] },
    {
      name: 'hub control',
      env: { AEP_CLINE_HUB: '1', AEP_CLINE_HUB_TOKEN: '<hub token>', AEP_CLINE_HUB_CONTROL: '1' },
      summary: 'approvals answered, runs cancelled and input sent through the hub',
      accepts: ['control.attention.respond', 'control.cancel', 'x.cline.control.send_input'],
    },
  ],
  forms: [],
  steering: [],
  deviations: DEVIATIONS,
  port: 8392,
  portEnv: 'AEP_CLINE_PORT',
  neutral: { reply: '{}', reads: 'json' },
  env: [
    { name: 'AEP_CLINE_HUB', summary: '1: tap the hub\'s approval loop (needs AEP_CLINE_HUB_URL + AEP_CLINE_HUB_TOKEN, or AEP_CLINE_HUB_DISCOVERY)' },
    { name: 'AEP_CLINE_HUB_URL', summary: 'the hub WebSocket URL the tap connects to' },
    { name: 'AEP_CLINE_HUB_TOKEN', summary: 'the hub\'s bearer token' },
    { name: 'AEP_CLINE_HUB_DISCOVERY', summary: 'the hub discovery file to read the URL and token from' },
    { name: 'AEP_CLINE_HUB_CONTROL', summary: '1: also answer approvals through the hub' },
    { name: 'AEP_CLINE_HUB_ACK_GUARD_MS', summary: "how long a command waits for the hub's reply (default 8000)" },
  ],
  reference: ['adapter-cline/map-hooks'],
  configs: ['impl/adapters/cline/hooks/'],
  verification: { status: 'documented', detail: 'both hook generations mapped from the vendor documentation and SDK types; no captured session' },
};
