/** The Kimi Code CLI adapter's descriptor (impl/integrations/descriptor.ts explains the fields). */
import type { Descriptor } from '../../integrations/descriptor.js';
import { DEVIATIONS } from './deviations.js';

export const descriptor: Descriptor = {
  kind: 'adapter',
  role: 'hook-adapter',
  name: 'kimi-code',
  vendor: 'Kimi Code CLI',
  surface: '`~/.kimi-code/config.toml` command hooks through `aep hook`',
  identity: { session: '`session_id`, else `unknown` (subagent hooks carry none)', run: 'one run per UserPromptSubmit (never for `is_steer`), closed by Stop / StopFailure / Interrupt' },
  classes: ['Emitter', 'Control-capable'],
  emits: ['session', 'run', 'tool', 'attention', 'delegation', 'progress', 'control'],
  postures: [
    { name: 'default', env: {}, summary: "read-only; the vendor's own permission prompt is observed as an out-of-band pair", accepts: [] },
    { name: 'gate', env: { AEP_KIMI_CONTROL: '1' }, summary: 'PreToolUse held as binary allow / deny, scoped by AEP_KIMI_GATE_TOOLS', accepts: ['control.attention.respond'] },
  ],
  forms: [],
  steering: ['UserPromptSubmit'],
  deviations: DEVIATIONS,
  port: 8398,
  portEnv: 'AEP_KIMI_CODE_PORT',
  holdMs: 50000,
  neutral: { reply: '{}', reads: 'json' },
  env: [
    { name: 'AEP_KIMI_CONTROL', summary: '1: hold PreToolUse as an allow/deny gate (default off: read-only)' },
    { name: 'AEP_KIMI_GATE_TOOLS', summary: 'regex over whole tool names the gate holds (default every tool)' },
  ],
  reference: ['adapter-kimi-code/map-hooks'],
  configs: ['impl/adapters/kimi-code/config.example.toml'],
  verification: { status: 'documented', detail: 'mapped from the vendor documentation and the standard pin; no captured session' },
};
