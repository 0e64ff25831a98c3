/** The VS Code agent adapter's descriptor (impl/adapter-kit/descriptor.ts explains the fields). */
import type { Descriptor } from '../adapter-kit/descriptor.js';
import { DEVIATIONS } from './deviations.js';

export const descriptor: Descriptor = {
  kind: 'adapter',
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
  configs: ['impl/adapter-vscode/hooks.example.json'],
  verification: { status: 'documented', detail: 'mapped from the vendor documentation and the standard pin; no captured session' },
};
