/** The VS Code agent adapter's descriptor (impl/integrations/descriptor.ts explains the fields). */
import type { Descriptor } from '../../integrations/descriptor.js';
import { DEVIATIONS } from './deviations.js';

export const descriptor: Descriptor = {
  kind: 'adapter',
  role: 'hook-adapter',
  name: 'vscode',
  vendor: 'VS Code agent',
  surface: '`.github/hooks/*.json` command hooks of the Local harness through `aep hook`',
  identity: { session: '`session_id` or the harness\'s `sessionId`, else `unknown`', run: 'one run per UserPromptSubmit, closed by Stop' },
  classes: ['Emitter', 'Control-capable'],
  emits: ['session', 'run', 'tool', 'delegation', 'control'],
  postures: [
    { name: 'default', env: {}, summary: 'read-only: commands other than steering are refused unsupported', accepts: [] },
    { name: 'gate', env: { AEP_VSCODE_CONTROL: '1' }, summary: 'PreToolUse held as allow / deny / ask, scoped by AEP_VSCODE_GATE_TOOLS', accepts: ['control.attention.respond'] },
  ],
  forms: [],
  steering: ['SessionStart', 'UserPromptSubmit', 'SubagentStart', 'PreToolUse', 'PostToolUse'],
  deviations: DEVIATIONS,
  port: 8381,
  portEnv: 'AEP_VSCODE_PORT',
  holdMs: 25000,
  neutral: { reply: '{}', reads: 'json' },
  env: [
    { name: 'AEP_VSCODE_CONTROL', summary: '1: hold PreToolUse as an allow/deny/ask gate (default off: read-only)' },
    { name: 'AEP_VSCODE_GATE_TOOLS', summary: 'regex over whole tool names the gate holds (default every tool)' },
  ],
  reference: ['adapter-vscode/map-hooks'],
  configs: ['impl/adapters/vscode/hooks.example.json'],
  verification: { status: 'documented', detail: 'mapped from the vendor documentation and the standard pin; no captured session' },
};
