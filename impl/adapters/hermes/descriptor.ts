/** The Hermes Agent adapter's descriptor (impl/integrations/descriptor.ts explains the fields). */
import type { Descriptor } from '../../integrations/descriptor.js';
import { DEVIATIONS } from './deviations.js';

export const descriptor: Descriptor = {
  kind: 'adapter',
  role: 'hook-adapter',
  name: 'hermes',
  vendor: 'Hermes Agent',
  surface: '`~/.hermes/config.yaml` shell hooks through `aep hook` (payload schema hermes.observer.v1)',
  identity: { session: '`session_id` (subagents: `extra.parent_session_id`)', run: '`extra.turn_id`, verbatim: pre_llm_call to on_session_end' },
  classes: ['Emitter', 'Control-capable'],
  emits: ['session', 'run', 'tool', 'attention', 'delegation', 'control'],
  postures: [
    { name: 'default', env: {}, summary: "observe; the vendor's approval gate and clarify form observed as out-of-band cards", accepts: [] },
    { name: 'gate', env: { AEP_HERMES_CONTROL: '1' }, summary: 'pre_tool_call held as allow/deny, scoped by AEP_HERMES_GATE_TOOLS', accepts: ['control.attention.respond'] },
  ],
  forms: [],
  steering: ['pre_llm_call'],
  deviations: DEVIATIONS,
  port: 8393,
  portEnv: 'AEP_HERMES_PORT',
  neutral: { reply: '{}', reads: 'json' },
  env: [
    { name: 'AEP_HERMES_CONTROL', summary: '1: hold pre_tool_call as an allow/deny gate' },
    { name: 'AEP_HERMES_GATE_TOOLS', summary: 'regex over whole tool names the gate holds (default every tool)' },
  ],
  reference: ['adapter-hermes/map-hooks'],
  configs: ['impl/adapters/hermes/config.example.yaml'],
  verification: { status: 'documented', detail: 'mapped from the vendor documentation and the standard pin; no captured session' },
};
