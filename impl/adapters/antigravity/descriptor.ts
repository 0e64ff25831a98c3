/** The Antigravity adapter's descriptor (impl/integrations/descriptor.ts explains the fields). */
import type { Descriptor } from '../../integrations/descriptor.js';
import { DEVIATIONS } from './deviations.js';

export const descriptor: Descriptor = {
  kind: 'adapter',
  role: 'hook-adapter',
  name: 'antigravity',
  vendor: 'Antigravity',
  surface: 'hooks.json command hooks through `aep hook` (payloads do not name their hook)',
  identity: { session: '`conversationId`, verbatim', run: 'synthesized per turn from the step join table' },
  classes: ['Emitter'],
  emits: ['session', 'run', 'tool'],
  postures: [{ name: 'default', env: {}, summary: 'observe-only with nothing to opt into: no control block', accepts: null }],
  forms: [],
  steering: [],
  deviations: DEVIATIONS,
  port: 8395,
  portEnv: 'AEP_ANTIGRAVITY_PORT',
  neutral: { reply: '{}', byHook: { PreToolUse: '{"decision":""}', Stop: '{"decision":""}' }, reads: 'json' },
  env: [],
  reference: ['adapter-antigravity/map-hooks'],
  configs: ['impl/adapters/antigravity/hooks.example.json'],
  verification: { status: 'documented', detail: 'mapped from the vendor documentation; no captured session' },
};
